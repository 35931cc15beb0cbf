#!/usr/bin/env python3
"""Blocks of the docs that a command generates must equal that command's output now.

A block is fenced by `<!-- generated: tessera ARGS -->` and `<!-- end generated -->`.
With --update the blocks are rewritten instead of checked (scripts/update-docs.sh).

usage: generated.py SOURCE_DIR BUILD_DIR [--update]
"""
import pathlib
import re
import subprocess
import sys

BLOCK = re.compile(r"(<!-- generated: tessera (?P<args>[^>]*?) -->\n)(?P<body>.*?)(<!-- end generated -->)",
                   re.S)


def main():
    src = pathlib.Path(sys.argv[1])
    build = pathlib.Path(sys.argv[2])
    update = "--update" in sys.argv[3:]
    tessera = build / "tessera"
    failures = 0
    blocks = 0
    for doc in sorted([src / "README.md", *(src / "docs").glob("*.md")]):
        text = doc.read_text()

        def replace(m):
            nonlocal failures, blocks
            blocks += 1
            want = subprocess.run([str(tessera), *m.group("args").split()], capture_output=True,
                                  text=True, check=True).stdout
            if m.group("body") != want:
                if not update:
                    failures += 1
                    print(f"{doc.relative_to(src)}: the block of 'tessera {m.group('args')}' "
                          "differs from the command's output; run scripts/update-docs.sh")
                return m.group(1) + want + m.group(4)
            return m.group(0)

        new = BLOCK.sub(replace, text)
        if update and new != text:
            doc.write_text(new)
            print(f"updated {doc.relative_to(src)}")
    if blocks == 0:
        print("no generated blocks found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
