#!/usr/bin/env python3
"""The comparison of docs/trees.md: every edst broadcast family on n x n tori with
MegaNode parameters (Bermond92 §4: beta = 628 us, tau = 2.2 us/byte), measured on the TLM
platform with q from b(L, h, d)'s optimum, beside the paper's closed forms.

usage: scripts/edst_compare.py [build/tessera] > table.md
"""
import json
import math
import subprocess
import sys

BETA, TAU = 6280.0, 22.0  # cycles of 0.1 us
US = 0.1
FAMILIES = ['edst-single', 'edst-saad-schultz', 'edst-simmen', 'edst-3d2', 'edst-optimal']
SHORT = {'edst-single': 'single', 'edst-saad-schultz': 'S-S', 'edst-simmen': 'Simmen',
         'edst-3d2': '3D/2', 'edst-optimal': 'optimal'}
SIZES = [8, 9, 12, 16]
LENGTHS = [256, 1024, 4096, 16384, 65536, 262144, 1048576]


def b(L, h, d):
    return (math.sqrt((h - 1) * BETA) + math.sqrt(TAU * L / d)) ** 2


def paper(fam, n, L):
    """The paper's formula with the paper's depths (D = 2 floor(n/2))."""
    D = 2 * (n // 2)
    if fam == 'edst-single':
        return b(L, D, 1)
    if fam == 'edst-saad-schultz':
        L0 = BETA / (2 * TAU) * D * D / (D - 1)
        if L <= L0:
            return b(L, D, 2)
        return (b(L, D, 2) + TAU * L / 2 + math.sqrt(BETA * TAU * L * (D - 1) / 2)
                - D / 2 * (BETA + math.sqrt(BETA * TAU * L / (2 * (D - 1)))))
    if fam == 'edst-simmen':
        return b(L, 2 * D + 1, 2)
    if fam == 'edst-3d2':
        return b(L, 3 * D / 2, 2)
    return b(L, n, 2)


def measure(cli, fam, n, L):
    out = subprocess.run([cli, 'run', '--model', 'tlm', '--machine', 'meganode', '--fabric',
                          f'torus:{n}x{n}', '--collective', 'bcast', '--algorithm', fam,
                          '--bytes', str(L), '--json'], capture_output=True, text=True, check=True)
    j = json.loads(out.stdout)
    assert j['verified'], (fam, n, L)
    return j


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else 'build/tessera'
    for n in SIZES:
        print(f'\n#### {n} x {n} (D = {2 * (n // 2)})\n')
        depths = {}
        rows = []
        for L in LENGTHS:
            cells = []
            best = None
            for fam in FAMILIES:
                j = measure(cli, fam, n, L)
                depths[fam] = j['tree_depth']
                ms = j['cycles'] * US / 1000
                cells.append((fam, ms, j['packets'], paper(fam, n, L) * US / 1000))
                if best is None or ms < best[1]:
                    best = (fam, ms)
            tied = [f for f, ms, _, _ in cells if ms <= best[1] * 1.0005]
            row = f'| {L} | ' + ' | '.join(
                f'{"**" if f in tied else ""}{ms:.1f}{"**" if f in tied else ""}'
                f' ({q}) / {p:.1f}' for f, ms, q, p in cells) + \
                f' | {" = ".join(SHORT[f] for f in tied)} |'
            rows.append(row)
        head = ' | '.join(f'{SHORT[f]} h={depths[f]}' for f in FAMILIES)
        print(f'| L bytes | {head} | fastest |')
        print('|---:|' + '---:|' * len(FAMILIES) + '---|')
        for r in rows:
            print(r)
        print()
        for a, c, L in crossovers(n, depths):
            print(f'- {SHORT[a]} and {SHORT[c]} cross at L = {L:.0f} bytes '
                  f'({SHORT[a]} faster below)')


def ours(fam, n, L, depths):
    """The closed form with the depths our trees have (what the TLM measures)."""
    h = depths[fam]
    if fam == 'edst-single':
        return b(L, h, 1)
    if fam == 'edst-saad-schultz':
        D = h
        L0 = BETA / (2 * TAU) * D * D / (D - 1)
        if L <= L0:
            return b(L, D, 2)
        line = n // 2
        q = math.sqrt((D - 1) * TAU * L / (2 * BETA))
        return (2 * q + line - 1) * (BETA + TAU * L / (2 * q))
    return b(L, h, 2)


def crossovers(n, depths):
    """Where each pair of families swaps order, by the closed forms, L in 1 .. 2^24."""
    grid = [2 ** (k / 16) for k in range(0, 24 * 16 + 1)]
    out = []
    for i, a in enumerate(FAMILIES):
        for c in FAMILIES[i + 1:]:
            diff = [ours(a, n, L, depths) - ours(c, n, L, depths) for L in grid]
            for k in range(1, len(grid)):
                lo, hi = grid[k - 1], grid[k]
                if abs(diff[k - 1]) < 1e-6 * ours(c, n, lo, depths):
                    continue
                if (diff[k - 1] < 0) != (diff[k] < 0) and abs(diff[k]) > 1e-6 * ours(c, n, hi, depths):
                    for _ in range(60):
                        mid = (lo + hi) / 2
                        dm = ours(a, n, mid, depths) - ours(c, n, mid, depths)
                        if (dm < 0) == (diff[k - 1] < 0):
                            lo = mid
                        else:
                            hi = mid
                    first, second = (a, c) if diff[k - 1] < 0 else (c, a)
                    out.append((first, second, lo))
    return sorted(out, key=lambda x: x[2])


if __name__ == '__main__':
    main()
