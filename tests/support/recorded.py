"""Recorded runs: a test that runs a command a doc shows writes what it saw (exit status
and stderr) to a record, and the doc's test (tests/docs/doc_commands.py --recorded DIR)
takes the record instead of running the same command a second time. A long command (a
whole reproduction) then runs once in the suite and is still checked against the doc.

A record names the command as the doc writes it ("build/tessera reproduce all --html
reproduction.html") and the words it really ran: the doc's words plus options that only
add output, each from OUTPUT_ONLY with its value, never anything that changes what runs.
"""
import json
import os
import shlex
import subprocess

# Options that add output and change nothing else: --json replaces stdout's text with one
# JSON object (exit status and stderr are the same), --plots and --html write files.
OUTPUT_ONLY = {"--json": 0, "--plots": 1, "--html": 1}


def extra_is_output_only(doc_words, ran_words):
    """True when ran_words is doc_words followed by output-only options."""
    if ran_words[:len(doc_words)] != doc_words:
        return False
    rest = ran_words[len(doc_words):]
    i = 0
    while i < len(rest):
        takes = OUTPUT_ONLY.get(rest[i])
        if takes is None or rest[i] in doc_words:
            return False
        i += 1 + takes
    return i == len(rest)


def run_and_record(record_file, test_name, doc_command, extra, tessera, cwd, timeout=1200):
    """Runs doc_command (its leading build/tessera replaced by the binary tessera) with the
    extra words, in cwd, and writes the record. Returns the CompletedProcess."""
    doc_words = shlex.split(doc_command)
    if doc_words[0] != "build/tessera":
        raise ValueError(f"a recorded command starts with build/tessera: {doc_command}")
    ran = doc_words + list(extra)
    if not extra_is_output_only(doc_words, ran):
        raise ValueError(f"{extra} adds more than output to {doc_command}")
    p = subprocess.run([tessera, *ran[1:]], cwd=cwd, capture_output=True, text=True,
                       errors="replace", timeout=timeout,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    os.makedirs(os.path.dirname(os.path.abspath(record_file)), exist_ok=True)
    with open(record_file, "w", encoding="utf-8") as f:
        json.dump({"test": test_name, "command": doc_command, "ran": ran,
                   "exit": p.returncode, "stderr": p.stderr}, f)
    return p


def load_records(directory):
    """The records in directory, by the command the doc writes."""
    records = {}
    if not os.path.isdir(directory):
        return records
    for name in sorted(os.listdir(directory)):
        if name.endswith(".run.json"):
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                r = json.load(f)
            if extra_is_output_only(shlex.split(r["command"]), r["ran"]):
                records[" ".join(shlex.split(r["command"]))] = r
    return records
