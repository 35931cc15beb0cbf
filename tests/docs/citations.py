#!/usr/bin/env python3
"""Papers are cited by key and section (docs/development.md, "Citing the papers").

Fails, naming file:line, on
  - a citation by the project's own copies of the papers: a copy's file name (its
    two-digit number, an underscore and a 16-digit hex hash), or its three-digit
    number used as a citation (before a section sign, before an author's name or
    a section, slide, table or figure, or standing alone in parentheses or before a
    colon);
  - a link to an anchor of docs/references.md that the page does not define;
  - a key of the rule that docs/references.md does not define.
Every tracked file is read (git ls-files), except binary ones.

usage: citations.py REPO
"""
import os
import re
import subprocess
import sys

KEYS = ("Thakur93", "Bokhari91", "Bermond92", "Grama", "Boppana90")

# The copies' numbers are 000 to 004. A number here is never preceded by a digit,
# a word character or an apostrophe (1'000), nor followed by one.
NUM = r"(?<![\w'.,])00[0-4](?![\w'])"
AUTHORS = r"(?:Thakur|Bokhari|Bermond|Grama|Boppana)"
FILE_CITATIONS = [
    ("a paper file's name", re.compile(r"0[0-4]_[0-9a-f]{16}")),
    ("a paper file's number before a section sign",
     re.compile(NUM + r" ?(?:\u00a7|\\u00a7)")),
    ("a paper file's number as a citation",
     re.compile(NUM + r",? (?:" + AUTHORS + r"|[Ss]ections?|[Ss]lides?|Tables?|Fig(?:ure|s?\.)|et al)\b")),
    ("a paper file's number after an author",
     re.compile(AUTHORS + r"[\w.,' ]{0,24}\(" + NUM + r"\)")),
    ("a paper file's number standing alone",
     re.compile(r"\(" + NUM + r"[,:)]|" + NUM + r":\s|\b(?:of|in|see|per) " + NUM + r"\b")),
]
LINK = re.compile(r"references\.md#([\w-]+)")
SELF_LINK = re.compile(r"\]\(#([\w-]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def tracked(repo):
    try:
        out = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        # Not a git checkout (an unpacked archive): every file, but no build tree.
        files = []
        for root, dirs, names in os.walk(repo):
            dirs[:] = [d for d in dirs if not d.startswith(".") and
                       not os.path.exists(os.path.join(root, d, "CMakeCache.txt"))]
            files += [os.path.relpath(os.path.join(root, n), repo) for n in names]
        return files


def text_of(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None  # listed by git but deleted in the work tree
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    s = re.sub(r"[`*_]", "", heading).strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(text):
    found = set()
    in_code = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = HEADING.match(line)
        if m:
            found.add(slug(m.group(1)))
        found.update(HTML_ID.findall(line))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    repo = sys.argv[1]
    problems = []
    ref_path = os.path.join("docs", "references.md")
    ref_text = text_of(os.path.join(repo, ref_path))
    if ref_text is None:
        problems.append(f"{ref_path}: missing")
        defined = set()
    else:
        defined = anchors(ref_text)
        for key in KEYS:
            if key.lower() not in defined:
                problems.append(f"{ref_path}: no entry for the key {key}")
    files = tracked(repo)
    for rel in files:
        text = text_of(os.path.join(repo, rel))
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            for what, pattern in FILE_CITATIONS:
                m = pattern.search(line)
                if m:
                    problems.append(f"{rel}:{n}: {what} ({m.group(0)!r}); cite by key "
                                    f"and section, keys in {ref_path}")
                    break
            links = LINK.findall(line)
            if rel == ref_path:
                links += SELF_LINK.findall(line)
            for a in links:
                if a not in defined:
                    problems.append(f"{rel}:{n}: {ref_path} has no anchor #{a}")
    for p in problems:
        print(p)
    print(f"{len(files)} files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
