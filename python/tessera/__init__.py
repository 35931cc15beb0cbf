"""Tessera from Python: collective communication on networks-on-chip (docs/python.md).

Each function runs one ``tessera`` command and returns what ``tessera <command> ...
--json`` prints, as Python objects::

    import tessera
    r = tessera.run(fabric="mesh:8x8", collective="alltoall", algorithm="pex",
                    bytes=1024, model="tlm")
    r["cycles"], r["verified"]

Keywords are the command's options: ``bytes=1024`` is ``--bytes 1024``, an underscore
a dash (``pair_sync=True`` is ``--pair-sync``), True a bare flag, False and None leave
the option out, a list or tuple repeats it (``fault=[...]``), a dict gives ``k=v`` for
each item (``param={"ts": 100}`` is ``--param ts=100``). ``--json`` is always given.

A SystemC model elaborates once per process, so every call runs in a child process of
its own (forked; the GIL is released while it runs): calls are independent of each
other, and as many as you like run in one Python process.

Errors raise :class:`Error`: :class:`InputError` (also a ValueError) for what the CLI
refuses with exit status 2, :class:`CheckFailed` for a run or check that failed (exit
1), with the CLI's one stderr line as the message.
"""

import json as _json
import os as _os
import warnings as _warnings

from . import _tessera

# Installed under a prefix (P/lib/python3/dist-packages/tessera), the package's data
# (the default tile image, the RTL `area` synthesizes) is in P/share/tessera. The
# commands look for it beside the running executable, which here is Python's, so they
# are told where it is, unless the caller already said (docs/baremetal.md, "Installing
# Tessera"). In the build tree there is no such directory and the build's paths hold.
_installed_data = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), *[_os.pardir] * 4,
                                "share", "tessera")
if _os.path.isdir(_installed_data):
    _os.environ.setdefault("TESSERA_DATA_DIR", _os.path.normpath(_installed_data))

__all__ = [
    "Error", "InputError", "CheckFailed", "Note",
    "run", "crosscheck", "sweep", "analyze", "area", "models", "command",
]

__version__ = _tessera.version


class Error(Exception):
    """A tessera command did not give its result.

    ``str(e)`` is the line the CLI wrote on stderr, without its ``tessera: ``;
    ``exit_status`` the CLI's exit status (None when the command's process did not end
    normally), ``stderr`` all it wrote there, ``argv`` the command line it ran (the
    words after ``tessera``).
    """

    def __init__(self, message, exit_status=None, stderr="", argv=None):
        super().__init__(message)
        self.message = message
        self.exit_status = exit_status
        self.stderr = stderr
        self.argv = list(argv or [])


class InputError(Error, ValueError):
    """Bad input (exit status 2): the CLI refused an option, a value or their mix,
    naming the offending one. A keyword that is not one of the command's options
    gives this too."""


class CheckFailed(Error):
    """A failed run or check (exit status 1): lost or corrupted data, a deadlock, a
    timeout, two models that disagree, a sweep with a failed run.

    ``result`` holds what the call would have returned (the run's dictionary, a
    sweep's rows), or None when the command printed no result.
    """

    def __init__(self, message, exit_status=None, stderr="", argv=None, result=None):
        super().__init__(message, exit_status, stderr, argv)
        self.result = result


class Note(UserWarning):
    """A line the CLI wrote on stderr beside a result (``tessera: note: ...``),
    given as a warning."""


_PREFIX = "tessera: "


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _words(command, positional, options):
    """The command line of a call: the command, its positional words, then one or more
    words per keyword. A sweep takes a list as its list of values, one comma list
    (--fault excepted: a sweep passes it to every run as it is, repeated as in run)."""
    value_lists = () if command != "sweep" else {k for k in options if k != "fault"}
    argv = [command] + [str(w) for w in positional]
    if command == "sweep":
        for key in ("emit_jobs", "slurm"):
            if options.get(key) not in (None, False):
                # The emitted commands name the running executable, here the Python
                # interpreter, as tessera.
                raise InputError(
                    f"{key}: the job files name the running program as tessera, and here "
                    "that is Python: write them with tessera sweep --emit-jobs (or --slurm) "
                    "in a shell, then read the rows with tessera.sweep(collect=DIR)",
                    2, "", argv)
    for key, value in options.items():
        if key == "json":
            raise InputError(
                "json: every call gives --json (its result is the JSON object); "
                "leave the keyword out", 2, "", argv)
        name = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            argv.append(name)
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, (list, tuple)):
                    v = ",".join(_value(x) for x in v)
                argv += [name, f"{k}={_value(v)}"]
        elif isinstance(value, (list, tuple)):
            if key in value_lists:
                argv += [name, ",".join(_value(x) for x in value)]
            else:
                for v in value:
                    argv += [name, _value(v)]
        else:
            argv += [name, _value(value)]
    argv.append("--json")
    return argv


def _message(stderr, status):
    """The CLI's line about the failure: its last stderr line that starts with
    "tessera: " and is not a note or a SystemC report."""
    lines = [l for l in stderr.splitlines() if l.strip()]
    said = [l for l in lines if l.startswith(_PREFIX)
            and not l.startswith(_PREFIX + "note: ") and not l.startswith(_PREFIX + "systemc ")]
    line = (said or lines or [f"{_PREFIX}exit status {status}"])[-1]
    return line[len(_PREFIX):] if line.startswith(_PREFIX) else line


def _call(argv):
    """Runs the command line in a child process: its JSON object, or an exception."""
    status, out, err, failure = _tessera.call(argv)
    out = out.decode("utf-8", errors="replace")
    err = err.decode("utf-8", errors="replace")
    if failure:
        raise Error(failure, None, err, argv)
    try:
        result = _json.loads(out) if out.strip() else None
    except ValueError:
        result = None
        if status == 0:
            raise Error(f"the output of tessera {argv[0]} is not one JSON object", status,
                        err, argv) from None
    if status == 0:
        if result is None:
            raise Error(f"tessera {argv[0]} printed nothing", status, err, argv)
        for line in err.splitlines():
            if line.strip():
                _warnings.warn(line[len(_PREFIX):] if line.startswith(_PREFIX) else line,
                               Note, stacklevel=3)
        return result
    if status == 2:
        # Under --json the refusal is also the object's "error", word for word.
        message = result.get("error") if isinstance(result, dict) else None
        raise InputError(message or _message(err, status), status, err, argv)
    raise CheckFailed(_message(err, status), status, err, argv, result)


def command(name, *words, **options):
    """``tessera <name> <words> <options> --json``: the whole JSON object it prints.

    For any command, e.g. ``command("reproduce", "bokhari")`` or ``command("trees",
    fabric="torus:4x4", algorithm="edst-simmen")``; a sweep's object here keeps its
    ``saturation`` and ``failed`` beside the rows.
    """
    return _call(_words(name, words, options))


def run(**options):
    """``tessera run``: simulate a collective, a schedule, a pattern or synthetic
    traffic on a model and check every byte. Returns the run's dictionary (``cycles``,
    ``verified``, ``bytes_checked``, per-step timings, link statistics, ...).
    Raises CheckFailed (with ``result``) when the run fails its check."""
    return _call(_words("run", (), options))


def crosscheck(**options):
    """``tessera crosscheck``: one workload on two models (``models="tlm,rtl"``),
    compared message by message: ``models[]``, ``messages``, ``identical``,
    ``max_delta_cycles``, ``agree``, ``first_divergence``. Raises CheckFailed when
    they disagree or a run fails."""
    return _call(_words("crosscheck", (), options))


def sweep(**options):
    """``tessera sweep``: ``tessera run`` over every combination of the values given,
    one row per run. Returns the list of rows (dicts), which ``pandas.DataFrame``
    takes as it is.

    A list value is the sweep's list of values (``rate=[0.01, 0.02]`` is ``--rate
    0.01,0.02``; in a dict, ``param={"ts": [1, 10]}`` is ``--param ts=1,10``); a
    string is passed as it is, so ranges work too (``rate="0.002:0.1:log8"``). A
    list of ``fault`` values repeats ``--fault``, as in run. Raises CheckFailed, with
    the rows as ``result``, when a run fails; ``command("sweep", ...)`` gives the
    whole object (``saturation``, ``failed``, ``axes``). ``emit_jobs`` and ``slurm``
    are refused (their job files would run Python as tessera): emit the jobs with the
    CLI, then ``sweep(collect=DIR)`` merges their rows."""
    try:
        result = _call(_words("sweep", (), options))
    except CheckFailed as e:
        if isinstance(e.result, dict):
            e.result = e.result.get("rows")
        raise
    return result["rows"]


def analyze(**options):
    """``tessera analyze``: static analysis of a collective's schedule, no
    simulation: ``steps``, ``max_link_load``, ``per_step[]``,
    ``delivers_all_blocks``, the closed-form ``estimates``."""
    return _call(_words("analyze", (), options))


def area(**options):
    """``tessera area``: the area of a router (``router="mesh"``) or a fabric
    (``fabric="mesh:2x2"``) from Yosys synthesis of the RTL, cached per
    configuration: iCE40 and Xilinx resources and NAND2 equivalents."""
    return _call(_words("area", (), options))


def models(**options):
    """``tessera models``: the models, their timing engines and every parameter with
    its default, range and unit."""
    return _call(_words("models", (), options))
