"""Issue 36 on real rxe: `rdmabench search` against a server, in a small space and budget. It
measures through `rdmabench run`'s own parsing (a combination run refuses is a failed point,
and the search goes on), writes a report that follows docs/search.schema.json with commands
that are `rdmabench run` command lines, keeps a state file of every point, and resumes it:
a second search over the same state measures none of them again. What it finds depends on
the guest and is not asserted here; the simulated target's unit tests hold the finding."""
import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from conftest import free_port, Server, server_address
from rdmabench_tools.command_words import replacing

pytestmark = pytest.mark.layout("lo")

FOUND = Path(__file__).resolve().parents[1] / "host" / "fixtures" / "search" / "rxe-lo.json"
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "search.schema.json").read_text())
SPACE = ("pattern=write,read mode=bw transport=rc,ud cq=busy sizes=1K:8K qps=1:2 post-list=1 "
         "tx-depth=128 mtu=4096 qp-timeout=14 bidir=off srq=off inline=auto outs=most "
         "rate=unpaced")


# The points searched (--points): the base and its one-option changes, which hold read's and
# write's refusal over ud; a time budget the guest may not reach (what a busy host leaves this
# emulated guest must not change what the search reaches).
POINTS = 12


def search(rdmabench, layout, server, tmp_path):
    host, _ = server_address(layout)
    return subprocess.run(
        [rdmabench, "search", host, "--port", str(server.port), "--budget", "20m", "--points",
         str(POINTS),
         "--space", SPACE, "--repetitions", "2", "--duration", "0.05", "--margin", "0.01",
         "--state", str(tmp_path / "state.json"), "--out", str(tmp_path / "report.json")],
        capture_output=True, text=True, timeout=600)


def test_a_search_reports_resumes_and_goes_on_past_refused_points(rdmabench, layout, server,
                                                                   tmp_path):
    proc = search(rdmabench, layout, server, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    jsonschema.validate(report, SCHEMA)
    state = json.loads((tmp_path / "state.json").read_text())
    points = state["points"]
    # Searching stopped at its points; shrinking what it found may have measured more.
    assert report["settings"]["points"] == POINTS and len(points) >= POINTS, len(points)
    assert report["measurements"] == len(points)
    # Every point ran the same timed window (a finding's command says so: unit tests).
    assert (report["settings"]["duration_s"], report["settings"]["margin_s"]) == (0.05, 0.01)
    assert "iters" not in report["settings"], report["settings"]
    assert report["settings"]["cm"] == "oob", report["settings"]  # a loopback address
    # Read over ud is refused by run's own checks: failed points, and the search went on.
    refused = [p for p in points if p.get("exit_code") == 2]
    assert refused and all(p["point"]["transport"] == "ud" for p in refused), refused[:2]
    assert any(p["runs"] and "bytes_per_second" in p["runs"][0] for p in points)
    # What this search found depends on the guest (none, often, in 12 points): what a finding's
    # command says is held by the replay of a report with findings, below.

    again = search(rdmabench, layout, server, tmp_path)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert f"resuming {tmp_path / 'state.json'}: {len(points)} points" in again.stderr
    resumed = json.loads((tmp_path / "state.json").read_text())["points"]
    assert len(resumed) == len(points), "the resumed search measured points again"

    # A replay measures each finding again and says so in the report, which still follows
    # its schema: the lo guest's 25-minute search (3 findings, replayed once already), as a
    # report with findings that this one may not have.
    found = tmp_path / "found.json"
    found.write_text(FOUND.read_text())
    before = json.loads(FOUND.read_text())["findings"]
    assert len(before) == 3 and all(len(f["replays"]) == 1 for f in before), before
    host, _ = server_address(layout)
    replay = subprocess.run([rdmabench, "search", host, "--port", str(server.port), "--replay",
                             str(found), "--replay-label", "again", "--repetitions", "2",
                             "--iters", "200"], capture_output=True, text=True, timeout=600)
    assert replay.returncode == 0, replay.stdout[-3000:] + replay.stderr[-3000:]
    replayed = json.loads(found.read_text())
    jsonschema.validate(replayed, SCHEMA)
    assert len(replayed["findings"]) == 3, replayed["findings"]
    for f, was in zip(replayed["findings"], before):
        assert [r["label"] for r in f["replays"]] == [r["label"] for r in was["replays"]] + ["again"]
        assert f["low"]["command"].startswith("rdmabench run 127.0.0.1 "), f["low"]["command"]


def test_a_search_proves_the_key_of_a_keyed_server(rdmabench, layout, tmp_path):
    """`search` had no --key: a keyed server could not be searched at all."""
    key = tmp_path / "key"
    key.write_text("an operator's secret of enough length, for the test\n")
    key.chmod(0o600)
    host, _ = server_address(layout)
    with Server(rdmabench, free_port(), tmp_path, "--key", str(key)) as srv:
        def keyed_search(*extra):
            return subprocess.run(
                [rdmabench, "search", host, *replacing(
                    ["--port", srv.port, "--budget", "2m", "--points", "1", "--space",
                     "pattern=write mode=bw sizes=4K", "--repetitions", "2", "--iters", "100",
                     "--state", tmp_path / "state.json", "--out", tmp_path / "report.json"],
                    extra)],
                capture_output=True, text=True, timeout=600)
        refused = keyed_search()
        assert refused.returncode == 4 and "asks for a key" in refused.stderr, refused.stderr[-2000:]
        (tmp_path / "state.json").unlink(missing_ok=True)
        proc = keyed_search("--key", str(key))
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        points = json.loads((tmp_path / "state.json").read_text())["points"]
        assert [p for p in points if p["runs"]], points[:2]
        assert not [p for p in points if "key" in p.get("error", "")], points[:2]


def test_the_budget_bounds_the_whole_search_and_cuts_a_point_that_outlasts_it(rdmabench, layout,
                                                                              server, tmp_path):
    """--budget counted only the seconds spent measuring, and a point ran to its end whatever
    was left: in the deterministic guest a 15-minute search was at 12:43 of its budget after
    25 minutes (issue 67). Now the budget is wall-clock time from the search's start, and no
    point measures past it. Here no point fits in it at all: three timed runs of 10 s (and
    their margins) are more than the 20 s budget however fast the guest, so the first point is
    cut at the budget's end, recorded as failed saying so, and the search reports."""
    host, _ = server_address(layout)
    budget = 20
    proc = subprocess.run(
        [rdmabench, "search", host, "--port", str(server.port), "--budget", f"{budget}s",
         "--space", "pattern=write mode=bw sizes=4K", "--repetitions", "3", "--duration", "10",
         "--margin", "0.1", "--state", str(tmp_path / "state.json"),
         "--out", str(tmp_path / "report.json")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    points = json.loads((tmp_path / "state.json").read_text())["points"]
    assert len(points) >= 1, proc.stderr[-3000:]
    for p in points:
        assert not p["runs"] and p["exit_code"] == 5, p
        assert "the search's --budget ended while this point was measured" in p["error"], p
    report = json.loads((tmp_path / "report.json").read_text())
    jsonschema.validate(report, SCHEMA)
    # The point was cut at the budget's end: what is after it is closing its session and
    # writing the report, not another run of 10 s (the old search spent 30.6 s and more).
    assert budget <= report["spent_s"] < budget + 5, report["spent_s"]
