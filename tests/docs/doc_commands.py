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

With --recorded DIR, a command another test of the suite already ran (its record in DIR,
tests/support/recorded.py: the same words, plus options that only add output) is checked
against that run's exit status and stderr instead of running twice: a whole reproduction
then runs once. CMake makes this test require the recording tests as fixtures.

usage: doc_commands.py REPO BUILD_DIR FILE.md [--recorded DIR]...
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from recorded import load_records  # noqa: E402

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
    records = {}
    rest = sys.argv[4:]
    while rest:
        if rest[0] != "--recorded" or len(rest) < 2:
            sys.exit(f"doc_commands.py: unexpected {rest[0]!r}")
        records.update(load_records(rest[1]))
        rest = rest[2:]
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
            # A record keeps no stdout, so a --json command (whose stdout is checked)
            # always runs.
            words = shlex.split(cmd)
            record = None if "--json" in words else records.get(" ".join(words))
            if record is not None:
                r = subprocess.CompletedProcess(record["ran"], record["exit"], "",
                                                record["stderr"])
            else:
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
                ran_by = f", as test {record['test']} ran it" if record is not None else ""
                print(f"{where}: ok (exit {code}{ran_by}): {cmd}")
    print(f"{count} commands, {failures} failed")
    if count == 0:
        print("no commands found")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
