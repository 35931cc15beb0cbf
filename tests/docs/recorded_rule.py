#!/usr/bin/env python3
"""The rule that lets a doc's command take another test's run (tests/support/recorded.py):
only the same words plus options that add output; anything else runs the command."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from recorded import extra_is_output_only, load_records  # noqa: E402

doc = ["build/tessera", "reproduce", "all", "--html", "page.html"]
cases = [
    (doc, True),
    (doc + ["--json"], True),
    (doc + ["--plots", "figures", "--json"], True),
    (doc + ["--model", "rtl"], False),          # changes what runs
    (doc + ["--plots"], False),                 # an option without its value
    (doc + ["--html", "other.html"], False),    # the doc already gives --html
    (["build/tessera", "reproduce", "grama", "--json"], False),  # other words
    (doc[:-1] + ["--json"], False),
]
problems = [f"{ran}: {not ok} expected {ok}" for ran, ok in cases
            if extra_is_output_only(doc, ran) != ok]
with tempfile.TemporaryDirectory() as d:
    for i, (ran, _) in enumerate(cases):
        with open(f"{d}/{i}.run.json", "w", encoding="utf-8") as f:
            json.dump({"test": "t", "command": " ".join(doc), "ran": ran, "exit": 0,
                       "stderr": ""}, f)
    kept = load_records(d)
    # Every acceptable record is kept under the doc's command, the others never.
    if list(kept) != [" ".join(doc)] or kept[" ".join(doc)]["ran"] not in \
            [ran for ran, ok in cases if ok]:
        problems.append(f"load_records kept {kept}")
for p in problems:
    print("FAIL", p)
print("ok" if not problems else f"{len(problems)} problems")
sys.exit(1 if problems else 0)
