#!/usr/bin/env python3
"""Search the pairs of edge-disjoint spanning trees of depth n on the n x n torus
(Bermond92 §3.2, Theorem) with a SAT solver, and write them as
firmware/include/tessera/firmware/optimal_trees_table.hpp.

The paper's figures 8-12 are missing from the text, so the trees are found by search
rather than copied. The paper says the construction extends to non-square tori; the
table covers every R x C with 4 <= R <= C <= 16 (C x R is the transpose). The encoding, per tree t and tile v other than the root:
  - one parent direction (E, W, N, S) exactly;
  - depth in order encoding g(v, k) = "depth(v) >= k", k = 1..n+1, with
    depth(v) <= n, and parent u => depth(v) = depth(u) + 1 (so no cycles);
  - no undirected link carries an edge of both trees;
  - some tile has depth exactly n in each tree;
  - on squares, a symmetry between the trees: tree 2 = tree 1 rotated by pi/2 about the root
    for odd n (the paper's construction), tree 2 = tree 1 mirrored in the diagonal
    for even n >= 6 (no rotation-symmetric pair exists for n = 4, 6, 8: the solver
    answers UNSAT with --symmetry rot), and no symmetry for n = 4 (neither exists).
Odd n cannot reach depth D = n - 1 (the paper's proof); `--depth` shows it (UNSAT).

Development tool: needs the `cadical` SAT solver (apt-get install cadical). The
generated header is committed; the tests check every tree by their own traversal.
"""
import argparse
import subprocess
import sys
import tempfile

DIRS = [(1, 0, 'E'), (-1, 0, 'W'), (0, 1, 'N'), (0, -1, 'S')]


def solve(n, depth, symmetry, cols=None):
    """A pair on the n x cols torus (cols = n: square) of exactly this depth, or None."""
    rows = n
    cols = cols or n
    N = rows * cols

    def idx(x, y):
        return (y % rows) * cols + (x % cols)

    def xy(v):
        return v % cols, v // cols

    def nb(v, d):
        x, y = xy(v)
        return idx(x + DIRS[d][0], y + DIRS[d][1])

    def image(v):
        x, y = xy(v)
        return idx(-y, x) if symmetry == 'rot' else idx(y, x)

    nv = 0

    def new():
        nonlocal nv
        nv += 1
        return nv

    P, G = {}, {}
    for t in range(2):
        for v in range(1, N):
            for d in range(4):
                P[t, v, d] = new()
            for k in range(1, depth + 2):
                G[t, v, k] = new()
    cl = []
    for t in range(2):
        for v in range(1, N):
            cl.append([P[t, v, d] for d in range(4)])
            for a in range(4):
                for b in range(a + 1, 4):
                    cl.append([-P[t, v, a], -P[t, v, b]])
            cl.append([G[t, v, 1]])
            cl.append([-G[t, v, depth + 1]])
            for k in range(1, depth + 1):
                cl.append([-G[t, v, k + 1], G[t, v, k]])
            for d in range(4):
                u, p = nb(v, d), P[t, v, d]
                if u == 0:
                    cl.append([-p, -G[t, v, 2]])
                    continue
                for k in range(1, depth + 1):
                    cl.append([-p, -G[t, u, k], G[t, v, k + 1]])
                    cl.append([-p, G[t, u, k], -G[t, v, k + 1]])
        cl.append([G[t, v, depth] for v in range(1, N)])
    opposite = [1, 0, 3, 2]

    def uses(t, v, u, d):
        r = []
        if v != 0:
            r.append(P[t, v, d])
        if u != 0:
            r.append(P[t, u, opposite[d]])
        return r

    for v in range(N):
        for d in (0, 2):
            u = nb(v, d)
            for a in uses(0, v, u, d):
                for b in uses(1, v, u, d):
                    cl.append([-a, -b])
    if symmetry != 'none':
        for v in range(1, N):
            for d in range(4):
                fv, fu = image(v), image(nb(v, d))
                dd = [e for e in range(4) if nb(fv, e) == fu][0]
                cl.append([-P[0, v, d], P[1, fv, dd]])
                cl.append([P[0, v, d], -P[1, fv, dd]])
    with tempfile.NamedTemporaryFile('w', suffix='.cnf', delete=False) as fh:
        fh.write(f'p cnf {nv} {len(cl)}\n')
        for c in cl:
            fh.write(' '.join(map(str, c)) + ' 0\n')
        path = fh.name
    r = subprocess.run(['cadical', '-q', path], capture_output=True, text=True)
    if 's SATISFIABLE' not in r.stdout:
        return None
    true = set()
    for line in r.stdout.splitlines():
        if line.startswith('v'):
            true.update(int(x) for x in line.split()[1:] if int(x) > 0)
    trees = []
    for t in range(2):
        s = ''
        for v in range(N):
            s += 'R' if v == 0 else [DIRS[d][2] for d in range(4) if P[t, v, d] in true][0]
        trees.append(s)
    return trees


def default_symmetry(n):
    if n % 2 == 1:
        return 'rot'
    return 'none' if n == 4 else 'diag'


def target_depth(rows, cols):
    """D = floor(R/2) + floor(C/2) when both sides are even, else D + 1 (for n x n: n)."""
    d = rows // 2 + cols // 2
    return d if rows % 2 == 0 and cols % 2 == 0 else d + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sizes', default='4-16')
    ap.add_argument('--depth', type=int, help='check the square sizes for a pair of exactly this depth')
    ap.add_argument('--cols', type=int, help='with --depth: an R x cols torus instead')
    ap.add_argument('--symmetry', choices=['rot', 'diag', 'none'])
    ap.add_argument('--out', default='firmware/include/tessera/firmware/optimal_trees_table.hpp')
    a = ap.parse_args()
    lo, _, hi = a.sizes.partition('-')
    sizes = list(range(int(lo), int(hi or lo) + 1))
    if a.depth is not None:
        for n in sizes:
            cols = a.cols or n
            sym = a.symmetry or (default_symmetry(n) if cols == n else 'none')
            found = solve(n, a.depth, sym, cols)
            print(f'{n}x{cols} depth={a.depth} symmetry={sym}: {"SAT" if found else "UNSAT"}')
        return
    rows = []
    for r in sizes:
        for c in sizes:
            if c < r:
                continue
            sym = default_symmetry(r) if r == c else 'none'
            depth = target_depth(r, c)
            trees = solve(r, depth, sym, c)
            if trees is None:
                sys.exit(f'{r}x{c}: no pair of depth {depth} with symmetry {sym}')
            rows.append((r, c, depth, sym, trees))
            print(f'{r}x{c}: depth {depth} ({sym})', file=sys.stderr)
    with open(a.out, 'w') as out:
        out.write('// Generated by scripts/edst_optimal.py (SAT search, cadical); do not edit.\n')
        out.write('// Two edge-disjoint spanning trees of the R x C torus, R <= C, rooted at\n')
        out.write('// tile (0, 0): for each tile at (dx, dy) from the root, index dy * C + dx,\n')
        out.write("// the direction of its parent: E (dx + 1), W (dx - 1), N (dy + 1), S (dy - 1);\n")
        out.write("// R is the root. Depth D = floor(R/2) + floor(C/2) when R and C are even, else\n")
        out.write("// D + 1 (n for n x n). Checked by tests/firmware/test_trees.cpp.\n")
        out.write('#pragma once\n\n#include <array>\n#include <string_view>\n\n')
        out.write('namespace tessera::fw::optimal_table {\n\n')
        out.write('struct entry {\n  unsigned rows;\n  unsigned cols;\n  unsigned depth;\n'
                  '  std::string_view symmetry;\n'
                  '  std::string_view tree0;\n  std::string_view tree1;\n};\n\n')
        out.write(f'inline constexpr unsigned min_n = {sizes[0]};\n')
        out.write(f'inline constexpr unsigned max_n = {sizes[-1]};\n\n')
        out.write(f'inline constexpr std::array<entry, {len(rows)}> pairs{{{{\n')
        for r, c, depth, sym, trees in rows:
            out.write(f'    {{{r},\n     {c},\n     {depth},\n     "{sym}",\n')
            for s in trees:
                chunks = [s[i:i + 64] for i in range(0, len(s), 64)]
                out.write('     ' + '\n     '.join(f'"{x}"' for x in chunks) + ',\n')
            out.write('    },\n')
        out.write('}};\n\n}  // namespace tessera::fw::optimal_table\n')


if __name__ == '__main__':
    main()
