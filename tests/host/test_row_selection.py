"""tools/rdmabench_gate/row_selection.py: which rows the gate and the demo run, decided from what the engine
says of its patterns and strategies (here from this tree's build, and from made-up ones)."""
import json
import os
import re
from pathlib import Path

import pytest
from conftest import ROOT, registered_in_source, run_tool

from rdmabench_gate import row_selection as rs

RDMABENCH = Path(os.environ.get("RDMABENCH_BUILD", ROOT / "build")) / "rdmabench"
BUSY = {"name": "busy", "blocks": False}
EVENT = {"name": "event", "blocks": True}


def pattern(name, arrival, passive_bw, passive_lat):
    return {"name": name, "arrival": arrival, "passive_target": {"bw": passive_bw, "lat": passive_lat}}


@pytest.fixture(scope="module")
def registry():
    assert RDMABENCH.exists(), f"{RDMABENCH} is built before the host tests"
    return rs.registry(str(RDMABENCH))


def test_the_deterministic_suite_is_what_the_guest_can_measure(registry):
    kept, left_out = rs.deterministic_rows(registry)
    kept = {f"{p}/{m}/{c}": limit for p, m, c, limit in kept}
    # Blocking on both sides: every pattern but write lat, whose arrival spins on memory.
    names = [p["name"] for p in registry["patterns"]]
    assert len(set(names)) == len(names) == registered_in_source("bench/pattern_registry.h", "RegisteredPatterns"), names
    assert {"send", "write", "read"} <= set(names), names
    for p in names:
        assert f"{p}/bw/event" in kept and kept[f"{p}/bw/event"] is None
        assert (f"{p}/lat/event" in kept) == (p != "write"), p
    # Busy against a passive target, up to 64 KiB; busy where the peer acts, never.
    assert kept["write/bw/busy"] == kept["read/bw/busy"] == kept["read/lat/busy"] == 65536
    for row in ("send/bw/busy", "send/lat/busy", "write/lat/busy", "write_imm/bw/busy"):
        assert row not in kept and row in dict(left_out), row
    assert "time slice" in dict(left_out)["send/lat/busy"]


def test_the_filter_selects_exactly_the_kept_rows(registry):
    flt = re.compile(rs.deterministic_filter(registry))
    assert flt.match("read/bw/busy/65536/iterations:200/manual_time")
    assert not flt.match("read/bw/busy/131072/iterations:200/manual_time")
    assert flt.match("send/bw/event/1048576/iterations:200")
    assert not flt.match("send/bw/busy/2/iterations:200")
    sized = re.compile(rs.deterministic_filter(registry, 65536, 2))
    assert sized.match("send/lat/event/2/") and not sized.match("send/lat/event/4/")
    # A pattern that refuses the sizes runs at the nearest it accepts: the atomics at 8 bytes,
    # so that the gate has atomic rows.
    assert sized.match("fetch_add/bw/busy/8/") and sized.match("compare_swap/lat/event/8/")
    assert not sized.match("fetch_add/bw/busy/65536/")
    assert rs.deterministic_sizes(registry, 65536, 2) == [2, 8, 65536]


def test_the_bw_rows_of_a_pattern_that_cannot_carry_the_size_run_apart(registry):
    """The atomics' bw rows (8 bytes a message) run with SHORT_BW_MESSAGES messages, apart: the
    two filters split the sized suite, every row in exactly one."""
    every = rs.deterministic_filter(registry, 65536, 2)[len("^("):-len(")/")].split("|")
    short = rs.deterministic_filter(registry, 65536, 2, short=True)[len("^("):-len(")/")].split("|")
    rest = rs.deterministic_filter(registry, 65536, 2, short=False)[len("^("):-len(")/")].split("|")
    small = [p["name"] for p in registry["patterns"] if rs.size_for(p, 65536) < 65536]
    assert {"fetch_add", "compare_swap"} <= set(small), small
    assert sorted(short) == sorted(f"{p}/bw/{c}/8" for p in small for c in ("busy", "event")), short
    assert sorted(short + rest) == sorted(every) and not set(short) & set(rest)
    # Over a transport without them (ud carries no atomics) there is no such row: no filter.
    assert rs.deterministic_filter(registry, 4096, 2, "ud", short=True) == ""
    assert rs.SHORT_BW_MESSAGES > 200


def test_the_short_rows_are_those_of_patterns_the_device_ran(registry, tmp_path):
    """siw has no atomics: the engine leaves them out of the suite's run, so the gate's run of
    their bw rows is asked of the patterns that run's results file holds (none here: no filter,
    no run), and a file that is no results file is a clear error, printed escaped."""
    ran = ROOT / "results" / "siw-baseline-deterministic.json"  # send, write and read
    ask = (RDMABENCH, "deterministic", "--bw-size", "65536", "--lat-size", "2", "--short-bw", "yes")
    proc = run_tool("rdmabench_gate.row_selection", *ask, "--ran", ran)
    assert proc.returncode == 0 and proc.stdout.strip() == "", proc.stdout + proc.stderr
    rxe = ROOT / "results" / "rxe-baseline-deterministic.json"
    assert "fetch_add/bw/event/8" in run_tool("rdmabench_gate.row_selection", *ask, "--ran", rxe).stdout
    bad = tmp_path / "bad\x1b.json"
    bad.write_text('{"benchmarks": [[[')
    proc = run_tool("rdmabench_gate.row_selection", *ask, "--ran", bad)
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr and "\x1b" not in proc.stderr.replace("\\x1b", ""), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr


def test_a_new_pattern_is_judged_by_its_description():
    registry = {"patterns": [pattern("fadd", "completion", True, True), pattern("memo", "marker", False, False)],
                "strategies": [BUSY, EVENT]}
    kept, left_out = rs.deterministic_rows(registry)
    assert ("fadd", "lat", "busy", 65536) in kept and ("fadd", "bw", "event", None) in kept
    assert ("memo", "bw", "event", None) in kept
    assert {row for row, _ in left_out} == {"memo/bw/busy", "memo/lat/busy", "memo/lat/event"}


def test_the_ordinary_gate_runs_every_pattern_at_two_sizes(registry):
    flt = re.compile(rs.sizes_filter(registry, 65536, 2))
    names = [p["name"] for p in registry["patterns"]]
    assert len(set(names)) == len(names) == registered_in_source("bench/pattern_registry.h", "RegisteredPatterns"), names
    assert {"send", "write", "read"} <= set(names), names
    for p in names:
        assert flt.match(f"{p}/bw/client=busy,server=event/65536/iterations:200")
        assert flt.match(f"{p}/lat/hybrid:20/2/iterations:200") and not flt.match(f"{p}/lat/busy/65536/")


def test_bad_arguments_exit_2():
    proc = run_tool("rdmabench_gate.row_selection", RDMABENCH, "deterministic", "--bw-size", "65536")
    assert proc.returncode == 2 and "together" in proc.stderr
    proc = run_tool("rdmabench_gate.row_selection", RDMABENCH, "deterministic", "--bw-size", "1048576", "--lat-size", "2")
    assert proc.returncode == 2 and "65536" in proc.stderr


def test_a_transport_takes_only_the_patterns_that_run_over_it(registry):
    """The gate's datagram rows: what the registry says runs over ud (send, send_imm), at a
    bw size one packet holds; an unknown transport is bad input (exit 2)."""
    datagram = [t["name"] for t in registry["transports"] if not t["connected"]]
    assert run_tool("rdmabench_gate.row_selection", str(RDMABENCH), "datagram-transports").stdout.split() == datagram
    for t in datagram:
        over = {p["name"] for p in registry["patterns"] if t in p["transports"]}
        rows = {f"{p}/{m}/{c}" for p, m, c, _ in rs.deterministic_rows(registry, t)[0]}
        assert {r.split("/")[0] for r in rows} == over and "send/bw/event" in rows, rows
        # Its event lat is bimodal in the deterministic guest: left out, with the reason.
        assert not [r for r in rows if "/lat/" in r], rows
        left = dict(rs.deterministic_rows(registry, t)[1])
        assert left["send/lat/event"] == rs.DATAGRAM_LAT
        assert rs.deterministic_sizes(registry, 4096, 2, t) == [4096]
    proc = run_tool("rdmabench_gate.row_selection", str(RDMABENCH), "deterministic", "--transport", "xrc")
    assert proc.returncode == 2 and "no transport 'xrc'" in proc.stderr, proc.stderr


def test_a_device_that_sends_from_a_kernel_thread_keeps_no_spinning_row(registry):
    """siw sends from a kernel thread on the sender's CPU: a spinning side holds it off, passive
    target or not, so only rows in which no side spins are kept."""
    kept, left_out = rs.deterministic_rows(registry, None, kernel_sender=True)
    assert kept and all(cq == "event" and limit is None for _, _, cq, limit in kept), kept
    assert {f"{p}/{m}" for p, m, _, _ in kept} == {
        f"{p}/{m}" for p, m, c, _ in rs.deterministic_rows(registry)[0] if c == "event"}
    for row in ("write/bw/busy", "read/bw/busy", "read/lat/busy"):
        assert dict(left_out)[row] == rs.KERNEL_SENDER, row
    assert rs.deterministic_sizes(registry, 65536, 2, None, True) == [2, 8, 65536]


def fake_rdmabench(tmp_path, device):
    """An rdmabench whose `version --json` is this build's and whose `devices --json` lists
    `device` alone (the first, which run takes)."""
    doc = tmp_path / "devices.json"
    doc.write_text(json.dumps({"schema": 1, "rdmabench_version": "0", "devices": [device]}))
    fake = tmp_path / "rdmabench"
    fake.write_text(f'#!/bin/sh\n[ "$1" = devices ] && exec cat {doc}\nexec {RDMABENCH} "$@"\n')
    fake.chmod(0o755)
    return str(fake)


def device(fabric, kernel_sender, state="ACTIVE"):
    return {"name": "dev0", "sends_from_kernel_thread": kernel_sender,
            "ports": [{"port": 1, "state": "DOWN", "fabric": "RoCE v2"},
                      {"port": 2, "state": state, "fabric": fabric}]}


def test_this_device_judges_by_the_facts_rdmabench_reports_of_it(tmp_path, registry):
    """--this-device: the first device's first ACTIVE port's fabric says which datagram
    transports the gate runs (none on iWARP, from the engine's "fabrics"), and its
    sends_from_kernel_thread which rows."""
    siw = fake_rdmabench(tmp_path, device("iWARP", True))
    assert run_tool("rdmabench_gate.row_selection", siw, "datagram-transports", "--this-device").stdout.split() == []
    flt = run_tool("rdmabench_gate.row_selection", siw, "deterministic", "--bw-size", "65536", "--lat-size", "2",
                   "--this-device").stdout.strip()
    assert re.match(flt, "write/bw/event/65536/") and not re.match(flt, "write/bw/busy/65536/")
    left = run_tool("rdmabench_gate.row_selection", siw, "left-out", "--this-device").stdout
    assert f"read/bw/busy: {rs.KERNEL_SENDER}" in left, left
    roce = fake_rdmabench(tmp_path, device("RoCE v2", False))
    datagram = [t["name"] for t in registry["transports"] if not t["connected"]]
    assert run_tool("rdmabench_gate.row_selection", roce, "datagram-transports", "--this-device").stdout.split() == datagram
    flt = run_tool("rdmabench_gate.row_selection", roce, "deterministic", "--bw-size", "65536", "--lat-size", "2",
                   "--this-device").stdout.strip()
    assert re.match(flt, "write/bw/busy/65536/")


def test_every_transport_names_the_fabrics_that_carry_it(registry):
    fabrics = {t["name"]: t["fabrics"] for t in registry["transports"]}
    assert fabrics["rc"] == ["InfiniBand", "RoCE v1", "RoCE v2", "iWARP"]
    assert sorted(fabrics) == ["rc", "uc", "ud"], sorted(fabrics)
    unreliable = [t for t in registry["transports"] if not (t["reliable"] and t["connected"])]
    assert sorted(t["name"] for t in unreliable) == ["uc", "ud"], unreliable
    for t in unreliable:
        assert "iWARP" not in t["fabrics"] and "RoCE v2" in t["fabrics"], t


def test_the_deterministic_polling_study_keeps_the_strategies_that_block(registry):
    """Issue 66: without KVM the demo's polling study runs in the deterministic guest, with the
    study's own CQ choices (as the engine reports them) that guest can measure for its patterns;
    a choice with a spinning side is left out, with its reason."""
    made_up = {"patterns": [pattern("send", "receive", False, False),
                            pattern("write", "marker", True, False)],
               "strategies": [BUSY, EVENT],
               "polling_study": {"patterns": ["send"], "cq": [
                   {"choice": "busy", "client": "busy", "server": "busy"},
                   {"choice": "event", "client": "event", "server": "event"},
                   {"choice": "client=event,server=busy", "client": "event", "server": "busy"}]}}
    busy_why = rs.judge(made_up["patterns"][0], "lat", BUSY)[2]
    assert rs.study_strategies(made_up) == (
        ["event"], [("busy", busy_why), ("client=event,server=busy", busy_why)])
    # write lat polls memory for its marker whatever --cq: no choice can be studied with it
    assert rs.study_strategies(made_up, ["send", "write"])[0] == []
    study = registry["polling_study"]
    assert study["patterns"] and study["cq"], study
    blocks = {s["name"]: s["blocks"] for s in registry["strategies"]}
    kept, left_out = rs.study_strategies(registry)
    assert kept == [c["choice"] for c in study["cq"] if blocks[c["client"]] and blocks[c["server"]]]
    assert kept and "busy" not in kept and len(kept) + len(left_out) == len(study["cq"]), left_out
    proc = run_tool("rdmabench_gate.row_selection", RDMABENCH, "study-strategies")
    assert proc.returncode == 0 and proc.stdout == ";".join(kept) + "\n", proc
    assert "busy: " in proc.stderr, proc.stderr
    proc = run_tool("rdmabench_gate.row_selection", RDMABENCH, "study-strategies", "--patterns",
                    "send,nothing")
    assert proc.returncode == 2 and "no pattern nothing" in proc.stderr, proc
