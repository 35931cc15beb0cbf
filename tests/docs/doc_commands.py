#!/usr/bin/env python3
"""Runs the tessera commands a Markdown file shows, so the docs cannot drift from the code.

In every fenced code block:
  - a line that starts with `build/tessera ` (optionally after `$ `) is a command; a
    trailing backslash continues it on the next line;
  - `# exit N` at its end says the exit status it must have (default 0);
  - the lines after a command that start with `tessera: ` are what it must print on
    stderr, each as a whole line.
Lines that start with `tessera ` without the path are usage synopses, not run.
Commands of one file run in order, in one scratch directory where `build` and
`examples` point into the repository, so a command can use a file an earlier one wrote.

usage: doc_commands.py REPO BUILD_DIR FILE.md
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^\s*```")
EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")


def commands(text):
    """Yields (line number, command, expected exit, quoted stderr lines)."""
    in_block = False
    lines = text.splitlines()
    i = 0
    current = None
    while i < len(lines):
        line = lines[i]
        if FENCE.match(line):
            in_block = not in_block
            if current:
                yield current
                current = None
            i += 1
            continue
        if not in_block:
            i += 1
            continue
        stripped = line.strip()
        if stripped.startswith("$ "):
            stripped = stripped[2:]
        if stripped.startswith("build/tessera ") or stripped == "build/tessera":
            if current:
                yield current
            start = i + 1
            cmd = stripped
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1].rstrip() + " " + lines[i].strip()
            code = 0
            m = EXIT.search(cmd)
            if m:
                code = int(m.group(1))
                cmd = cmd[: m.start()]
            current = (start, cmd, code, [])
        elif current and stripped.startswith("tessera: "):
            current[3].append(stripped)
        i += 1
    if current:
        yield current


def main():
    repo, build, doc = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    failures = 0
    count = 0
    with tempfile.TemporaryDirectory(prefix="tessera_docs_") as scratch:
        os.symlink(os.path.abspath(build), os.path.join(scratch, "build"))
        os.symlink(os.path.join(os.path.abspath(repo), "examples"),
                   os.path.join(scratch, "examples"))
        for line_no, cmd, code, quoted in commands(text):
            count += 1
            where = f"{os.path.relpath(doc, repo)}:{line_no}"
            r = subprocess.run(["bash", "-c", cmd], cwd=scratch, capture_output=True,
                               text=True, errors="replace", timeout=600,
                               env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
            problems = []
            if r.returncode != code:
                problems.append(f"exit {r.returncode}, the doc says {code}")
            err_lines = [l.strip() for l in r.stderr.splitlines()]
            for q in quoted:
                if q not in err_lines:
                    problems.append(f"stderr has no line {q!r}")
            if "--json" in shlex.split(cmd) and ">" not in cmd and "|" not in cmd:
                import json
                try:
                    json.loads(r.stdout)
                except ValueError as e:
                    problems.append(f"stdout is not one JSON object ({e})")
            if problems:
                failures += 1
                print(f"{where}: {cmd}")
                for p in problems:
                    print(f"    {p}")
                if r.stderr:
                    print("    stderr: " + r.stderr.strip().replace("\n", "\n            "))
            else:
                print(f"{where}: ok (exit {code}): {cmd}")
    print(f"{count} commands, {failures} failed")
    if count == 0:
        print("no commands found")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
