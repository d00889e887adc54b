"""tools/plot draws a `rdmabench mesh --traffic` report: one bar per host, slow hosts red and
named in the title. The report is built here on the four-host guest's real context and hosts
(tests/host/fixtures/rxe-mesh-4.json) with a traffic section in the shape
src/mesh/traffic_report.cpp writes, and checked against docs/mesh.schema.json first."""
import copy
import json

import pytest

from conftest import FIXTURE, data_pixels, run_tool, tool_module
from rdmabench_tools import validate_results

CLEAN = FIXTURE.parent / "rxe-mesh-4.json"
GBIT = 1e9 / 8


def traffic_report(slow):
    doc = json.loads(CLEAN.read_text())
    doc["context"]["schedule"] = "traffic:ring"
    doc["benchmarks"] = []
    hosts = []
    for r in range(4):
        best = (0.4 if r in slow else 2.0) * GBIT
        hosts.append({"rank": r, "flows": 2, "failed_flows": 0, "best_bytes_per_second": best,
                      "best_round": 0, "sent_at_best": best / 2, "received_at_best": best / 2,
                      "worst_bytes_per_second": best, "slow": r in slow})
    doc["traffic"] = {"pattern": "ring", "fan": 1, "streams": 1, "rounds": 1, "repetitions": 1,
                      "duration_s": 2.0, "flows": 4, "failed_flows": 0,
                      "figure": "bytes_per_second", "median": 1.2 * GBIT, "min_fraction": 0.8,
                      "threshold": 0.96 * GBIT, "hosts": hosts, "slow_hosts": sorted(slow),
                      "errors": []}
    doc["verdict"] = {"exit_code": 7 if slow else 0, "failed_pairs": 0, "slow_pairs": 0,
                      "slow_hosts": sorted(slow)}
    return doc


def test_a_traffic_report_follows_the_schema_and_a_broken_one_does_not():
    assert validate_results.problems(traffic_report({2})) == []
    broken = traffic_report({2})
    del broken["traffic"]["hosts"][0]["best_bytes_per_second"]
    assert validate_results.problems(broken)
    wrong = traffic_report(set())
    wrong["traffic"]["pattern"] = "pairs"  # pairs have no traffic section
    assert validate_results.problems(wrong)


def test_the_bars_name_the_slow_host(tmp_path, write_json):
    path = write_json(traffic_report({2}), "ring.json")
    proc = run_tool("plot", path, "--out", tmp_path, "--format", "png,svg")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(tmp_path / "traffic.png"), str(tmp_path / "traffic.svg")]
    assert data_pixels(tmp_path / "traffic.png") > 1000  # the bars
    svg = (tmp_path / "traffic.svg").read_text()
    assert "traffic ring" in svg and "slow hosts: 2" in svg
    assert "higher is better" in svg


def test_a_clean_traffic_report_names_no_host(tmp_path, write_json):
    path = write_json(traffic_report(set()), "ring.json")
    proc = run_tool("plot", path, "--out", tmp_path, "--format", "svg")
    assert proc.returncode == 0, proc.stderr
    assert "slow hosts: none" in (tmp_path / "traffic.svg").read_text()


@pytest.mark.parametrize("damage", ["no section", "no hosts key"])
def test_a_malformed_traffic_report_is_refused(tmp_path, write_json, damage):
    doc = copy.deepcopy(traffic_report({2}))
    if damage == "no section":
        doc["traffic"] = []
    else:
        del doc["traffic"]["hosts"]
    path = write_json(doc, "bad.json")
    proc = run_tool("plot", path, "--out", tmp_path)
    assert proc.returncode == 13, proc.stderr
    assert "mesh.schema.json" in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def test_no_text_of_a_traffic_figure_is_cut_or_on_other_text():
    """The traffic figure was left out of the text check, and its title ran 10 px past its
    panel; drawn as tools/plot draws it, measured by figure_text.text_problems."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rdmabench_tools import figure_text

    for slow in (set(), {2}):
        doc = traffic_report(slow)
        for host in doc["hosts"]:  # the guest's line under the title as well
            host["acceleration"] = "tcg-icount"
        fig = tool_module("plot").finished_mesh_figure(plt, doc)
        assert figure_text.text_problems(fig) == [], slow
        assert "deterministic guest" in fig.axes[0].get_title(), fig.axes[0].get_title()
        plt.close(fig)
