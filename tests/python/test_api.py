"""The Python module against its contract (docs/python.md): each function returns what
`tessera <command> ... --json` prints, errors raise the exception of the CLI's exit
class with its stderr line, and every call runs in a child process of its own.

The expected values come from the papers' formulas (Grama's ts + tw m costs, the
all-to-all's block count) or from the tessera executable run on the same options
(TESSERA_CLI): equality with the CLI is the contract.

Run by ctest (label python) with PYTHONPATH at the build tree's package.
"""
import json
import os
import shutil
import subprocess
import threading
import time

import pandas
import pytest

import tessera

CLI = os.environ.get("TESSERA_CLI", "")


def cli(*words):
    """The tessera executable on these words: (exit status, its JSON or None, stderr)."""
    assert os.access(CLI, os.X_OK), f"TESSERA_CLI is not the tessera executable: {CLI!r}"
    r = subprocess.run([CLI, *words], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    out = json.loads(r.stdout) if r.stdout.strip().startswith("{") else None
    return r.returncode, out, r.stderr


def stderr_lines(stderr):
    return [line.strip() for line in stderr.splitlines()]


# --- results equal the CLI's, and the formulas ---------------------------------------

def test_tlm_run_verifies_every_block_and_equals_the_cli():
    p, m = 16, 256
    r = tessera.run(fabric="mesh:4x4", collective="alltoall", algorithm="pex", bytes=m,
                    model="tlm")
    assert r["verified"] is True and r["completed"] is True
    # A complete exchange ends with every tile holding one m-byte block from each of
    # the p tiles, its own included: p * p blocks are checked.
    assert r["bytes_checked"] == p * p * m
    status, out, _ = cli("run", "--fabric", "mesh:4x4", "--collective", "alltoall",
                         "--algorithm", "pex", "--bytes", str(m), "--model", "tlm", "--json")
    assert status == 0
    assert r == out


def test_two_platform_runs_in_one_process():
    # SystemC elaborates once per process: the second run works only because each call
    # runs in a child of its own.
    first = tessera.run(fabric="ring:4", collective="allgather", bytes=64, model="tlm")
    second = tessera.run(fabric="ring:4", collective="allgather", bytes=512, model="tlm")
    # An allgather leaves every tile with the p blocks of m bytes.
    assert first["verified"] and first["bytes_checked"] == 4 * 4 * 64
    assert second["verified"] and second["bytes_checked"] == 4 * 4 * 512
    assert second["cycles"] > first["cycles"]


def test_alphabeta_run_is_gramas_cost():
    ts, tw, m, p = 30, 3, 256, 8
    r = tessera.run(model="alphabeta", fabric=f"ring:{p}", collective="allgather", bytes=m,
                    param={"ts": ts, "tw": tw})
    # Grama slide 34: an all-gather on a ring of p tiles is p - 1 steps of ts + tw m.
    assert r["cycles"] == (ts + tw * m) * (p - 1)


def test_analyze_is_the_closed_form_and_equals_the_cli():
    alpha, beta, m, p = 50, 2, 64, 8
    a = tessera.analyze(fabric="hypercube:3", collective="alltoall", algorithm="pairwise",
                        bytes=m, param={"alpha": alpha, "beta": beta})
    # Grama eq. 7, pairwise exchange on a hypercube: (ts + tw m)(p - 1).
    assert a["estimates"]["alphabeta_cycles"] == (alpha + beta * m) * (p - 1)
    assert a["delivers_all_blocks"] is True
    status, out, _ = cli("analyze", "--fabric", "hypercube:3", "--collective", "alltoall",
                         "--algorithm", "pairwise", "--bytes", str(m), "--param",
                         f"alpha={alpha}", "--param", f"beta={beta}", "--json")
    assert status == 0 and a == out


def test_flags_true_given_false_left_out():
    common = dict(fabric="mesh:2x2", collective="alltoall", algorithm="pairwise", bytes=16)
    assert "chart" in tessera.analyze(chart=True, **common)
    assert "chart" not in tessera.analyze(chart=False, **common)
    assert "chart" not in tessera.analyze(chart=None, **common)


def test_crosscheck_alphabeta_and_the_ideal_engine_agree():
    ts, tw, m, p = 40, 2, 64, 8
    c = tessera.crosscheck(models="alphabeta,tlm", switching="ideal", fabric="hypercube:3",
                           collective="alltoall", algorithm="pairwise", bytes=m,
                           param={"ts": ts, "tw": tw})
    assert c["agree"] is True and c["identical"] is True
    # Pairwise exchange: every tile sends one message to each of the others.
    assert c["messages"] == p * (p - 1)
    for run in c["models"]:
        assert run["verified"] is True
        assert run["cycles"] == (ts + tw * m) * (p - 1)


def test_crosscheck_that_differs_fails_with_the_clis_line():
    with pytest.raises(tessera.CheckFailed) as e:
        tessera.crosscheck(models="alphabeta,tlm", fabric="hypercube:3", collective="alltoall",
                           bytes=64)
    status, out, err = cli("crosscheck", "--models", "alphabeta,tlm", "--fabric", "hypercube:3",
                           "--collective", "alltoall", "--bytes", "64", "--json")
    assert status == 1 and e.value.exit_status == 1
    assert "tessera: " + str(e.value) in stderr_lines(err)
    assert e.value.result == out and e.value.result["agree"] is False


def test_sweep_rows_load_into_pandas():
    ts_values, m_values, tw = [1, 1000], [256, 4096], 1
    rows = tessera.sweep(fabric="ring:4", collective="bcast", param={"ts": ts_values, "tw": tw},
                         bytes=m_values, jobs=2)
    df = pandas.DataFrame(rows)
    # One row per combination, a column per option and result, as the CLI's CSV has them.
    assert len(df) == len(ts_values) * len(m_values)
    r = subprocess.run([CLI, "sweep", "--fabric", "ring:4", "--collective", "bcast", "--param",
                        "ts=1,1000", "--param", "tw=1", "--bytes", "256,4096"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0
    header = r.stdout.splitlines()[0].split(",")
    assert sorted(df.columns) == sorted(header)
    assert df.shape == (len(ts_values) * len(m_values), len(header))
    # Grama's binomial broadcast on 4 tiles: log2 4 = 2 rounds of ts + tw m.
    for _, row in df.iterrows():
        ts, m = int(row["--param ts"]), int(row["--bytes"])
        assert row["verified"] and row["cycles"] == 2 * (ts + tw * m)


def test_sweep_with_a_failed_run_carries_the_rows():
    with pytest.raises(tessera.CheckFailed) as e:
        tessera.sweep(fabric="hypercube:3", collective="alltoall", algorithm="pairwise",
                      bytes=64, fault="drop=0->1#1", protocol=["raw", "reliable"])
    rows = e.value.result
    assert [r["--protocol"] for r in rows] == ["raw", "reliable"]
    assert [r["verified"] for r in rows] == [False, True]


def test_emitted_sweep_is_collected_from_python(tmp_path):
    jobs, spec_dir = tmp_path / "jobs.txt", tmp_path / "sweep-jobs"
    with pytest.raises(tessera.InputError):
        tessera.sweep(fabric="ring:4", collective="bcast", bytes=[64, 128], emit_jobs=jobs)
    status, _, _ = cli("sweep", "--fabric", "ring:4", "--collective", "bcast", "--bytes",
                       "64,128", "--emit-jobs", str(jobs), "--job-dir", str(spec_dir))
    assert status == 0
    lines = jobs.read_text().splitlines()
    assert len(lines) == 2
    for i in range(len(lines)):
        assert cli("sweep", "--job", str(spec_dir / "sweep.json"), "--index", str(i))[0] == 0
    rows = tessera.sweep(collect=spec_dir)
    status, out, _ = cli("sweep", "--collect", str(spec_dir), "--json")
    assert status == 0 and rows == out["rows"]
    assert [int(r["--bytes"]) for r in rows] == [64, 128]


def test_models_equals_the_cli():
    m = tessera.models()
    names = [x["name"] for x in m["models"]]
    assert {"alphabeta", "tlm", "rtl"} <= set(names)
    status, out, _ = cli("models", "--json")
    assert status == 0 and m == out


@pytest.mark.skipif(shutil.which("yosys") is None, reason="tessera area needs Yosys")
def test_area_synthesizes_and_the_cli_reads_its_cache(tmp_path):
    a = tessera.area(router="cube-ni", param={"dims": 2}, target="gates", cache=tmp_path)
    assert a["cached"] == []
    # NAND2 equivalents are the transistor estimate over a NAND2's 4 transistors.
    assert a["gates"]["nand2_eq"] == a["gates"]["transistors"] / 4
    status, out, _ = cli("area", "--router", "cube-ni", "--param", "dims=2", "--target", "gates",
                         "--cache", str(tmp_path), "--json")
    assert status == 0 and out["cached"] == ["gates"]
    for key in ("router", "top", "params", "gates", "storage_bits"):
        assert a[key] == out[key]


# --- errors ---------------------------------------------------------------------------

def test_bad_fabric_is_input_error_with_the_clis_message():
    with pytest.raises(tessera.InputError) as e:
        tessera.run(fabric="mesh:0x4", collective="bcast")
    assert isinstance(e.value, ValueError) and isinstance(e.value, tessera.Error)
    assert e.value.exit_status == 2
    status, out, err = cli("run", "--fabric", "mesh:0x4", "--collective", "bcast", "--json")
    assert status == 2
    assert str(e.value) == out["error"]
    assert "tessera: " + str(e.value) in stderr_lines(err)


def test_keyword_that_is_no_option_is_input_error():
    with pytest.raises(tessera.InputError) as e:
        tessera.run(fabric="ring:4", collective="bcast", frobnicate=1)
    _, _, err = cli("run", "--fabric", "ring:4", "--collective", "bcast", "--frobnicate", "1",
                    "--json")
    assert "tessera: " + str(e.value) in stderr_lines(err)
    assert "--frobnicate" in str(e.value)


def test_bad_area_design_is_input_error():
    with pytest.raises(tessera.InputError) as e:
        tessera.area(router="bogus")
    _, out, _ = cli("area", "--router", "bogus", "--json")
    assert str(e.value) == out["error"]


def test_json_keyword_is_refused():
    with pytest.raises(tessera.InputError):
        tessera.models(json=True)


def test_lost_block_is_check_failed_with_the_result():
    words = ["run", "--fabric", "hypercube:3", "--collective", "alltoall", "--algorithm",
             "pairwise", "--bytes", "64", "--fault", "drop=0->1#1", "--json"]
    with pytest.raises(tessera.CheckFailed) as e:
        tessera.run(fabric="hypercube:3", collective="alltoall", algorithm="pairwise", bytes=64,
                    fault="drop=0->1#1")
    status, out, err = cli(*words)
    assert status == 1 and e.value.exit_status == 1
    assert not isinstance(e.value, ValueError)
    assert "tessera: " + str(e.value) in stderr_lines(err)
    assert e.value.result == out
    assert e.value.result["verified"] is False
    assert [(x["tile"], x["source"]) for x in e.value.result["lost"]] == [(1, 0)]


def test_fault_list_repeats_the_option_and_reliable_survives():
    # Two faults on the same message: the list gives --fault twice.
    faults = ["corrupt=0->1#1", "drop=0->1#1"]
    r = tessera.run(fabric="hypercube:3", collective="alltoall", algorithm="pairwise", bytes=64,
                    fault=faults, protocol="reliable")
    assert r["verified"] is True and r["bytes_checked"] == 8 * 8 * 64
    assert sorted(f["fault"] for f in r["faults"]) == sorted(faults)


def test_timeout_is_check_failed():
    with pytest.raises(tessera.CheckFailed) as e:
        tessera.run(fabric="mesh:4x4", collective="alltoall", bytes=256, model="tlm",
                    param={"max_cycles": 10})
    status, _, err = cli("run", "--fabric", "mesh:4x4", "--collective", "alltoall", "--bytes",
                         "256", "--model", "tlm", "--param", "max_cycles=10", "--json")
    assert status == 1
    assert "tessera: " + str(e.value) in stderr_lines(err)


# --- the process around a call --------------------------------------------------------

def test_the_gil_is_released_while_the_child_runs():
    stamps = []
    stop = threading.Event()

    def spin():
        n = 0
        while not stop.is_set():
            n += 1
            if n % 1000 == 0:
                stamps.append(time.monotonic())

    t = threading.Thread(target=spin)
    t.start()
    try:
        begin = time.monotonic()
        # Most of a second of simulation in the child.
        tessera.run(model="tlm", fabric="mesh:8x8", traffic="uniform", rate=0.02,
                    cycles=100000)
        end = time.monotonic()
    finally:
        stop.set()
        t.join()
    assert end - begin > 0.1, "the call was too short to tell"
    # While the main thread waits for the child the other thread runs Python code
    # throughout, not only at the edges of the call.
    inside = [s for s in stamps if begin + 0.02 < s < end - 0.02]
    assert len(inside) > 10


def test_functions_and_version():
    assert tessera.__version__
    status, out, _ = cli("--version", "--json")
    assert status == 0 and out["version"] == tessera.__version__
    assert set(tessera._tessera.commands()) >= {"run", "crosscheck", "sweep", "analyze", "area",
                                                "models"}
