"""docs/python.md's Python blocks run as the page shows them, so the page cannot drift
from the module: every ```python block, in order, in one namespace (as a reader pastes
them into one session), in a scratch directory, with matplotlib drawing to files.
Tracebacks name the page's lines. Then the worked example's results are checked
against what a load-latency sweep must give.

Run by ctest (label python) with PYTHONPATH at the build tree's package.
"""
import os
import re

import pytest

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def python_blocks(text):
    """(first line number, source) of each ```python block."""
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in BLOCK.finditer(text)]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The namespace the page's blocks leave, and the directory they ran in."""
    with open(DOC, encoding="utf-8") as f:
        blocks = python_blocks(f.read())
    assert blocks, f"{DOC} has no ```python block"
    scratch = tmp_path_factory.mktemp("python_md")
    was = os.getcwd()
    mp = pytest.MonkeyPatch()
    mp.setenv("MPLBACKEND", "Agg")
    # tessera.area caches its synthesis here, not in the user's cache.
    mp.setenv("TESSERA_AREA_CACHE", str(scratch / "area-cache"))
    os.chdir(scratch)
    names = {"__name__": "__python_md__"}
    try:
        for line, source in blocks:
            # Padded so a traceback's line number is the page's.
            code = compile("\n" * (line - 1) + source, os.path.abspath(DOC), "exec")
            exec(code, names)  # noqa: S102 - the page's own examples
    finally:
        os.chdir(was)
        mp.undo()
    return names, scratch


def test_the_page_has_blocks_for_every_function():
    with open(DOC, encoding="utf-8") as f:
        text = "".join(source for _, source in python_blocks(f.read()))
    for name in ("run", "analyze", "crosscheck", "sweep", "area", "models"):
        assert f"tessera.{name}(" in text, f"no example of tessera.{name}"


def test_worked_example_draws_the_load_latency_plot(page):
    names, scratch = page
    picture = scratch / "load-latency.png"
    assert picture.is_file()
    with open(picture, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_worked_example_rows(page):
    names, _ = page
    df, rates = names["df"], names["rates"]
    # One row per rate, in the order given (the sweep's only axis).
    assert len(df) == len(rates)
    assert list(df["rate"]) == rates
    assert (df["exit_status"] == 0).all() and df["verified"].all()
    lowest = df.iloc[0]
    # --rate is packets per tile per cycle (Bernoulli injection): far below saturation
    # the fabric is offered about that and accepts what it is offered.
    assert not lowest["saturated"]
    assert abs(lowest["offered"] - rates[0]) < 0.25 * rates[0]
    assert abs(lowest["accepted.packets"] - lowest["offered"]) < 0.05 * lowest["offered"]
    # The range reaches past saturation: a run that saturated reports no bounded latency,
    # and none accepts more than it was offered (5 % for packets still in flight).
    assert df["saturated"].any()
    assert df.loc[df["saturated"], "latency.average"].isna().all()
    assert (df["accepted.packets"] <= df["offered"] * 1.05).all()
