"""Issue 35 item 5: every ratio the tools print and the documentation quotes says which way it
points, in the same words (tools/rdmabench_tools/ratio_words.py). The README once printed
"ours/perftest: ... send lat 1.077" where the tool had printed perftest/ours, the opposite of
what was measured. And item 4: a per-message figure that cannot be right (below 0, a rate past
its floor) is reported as a failed measurement, never printed as a figure."""
import math
import re

import pytest

from conftest import ROOT
from rdmabench_guest import message_rate_guest as mr
from rdmabench_tools import ratio_words
from rdmabench_guest import vs_perftest_guest as vs

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A ratio between the two tools, in any order or spelling; and a factor ("1.85x") quoted in a
# paragraph that speaks of perftest.
TOOL_RATIO = re.compile(r"\b(rdmabench|ours|perftest)/(rdmabench|ours|perftest)\b")
FACTOR = re.compile(r"\b\d+(\.\d+)?x\b")


def paragraphs(path):
    return [p for p in re.split(r"\n\s*\n", path.read_text()) if p.strip()]


def test_the_documentation_quotes_tool_ratios_one_way_with_their_direction():
    wrong_way, undirected = [], []
    for path in DOCS:
        for para in paragraphs(path):
            for m in TOOL_RATIO.finditer(para):
                where = f"{path.relative_to(ROOT)}: ...{para[max(0, m.start() - 40):m.end() + 40]}..."
                if m.group(0) not in ("rdmabench/perftest", "rdmabench/rdmabench"):
                    wrong_way.append(where)
                elif not any(d in para for d in ratio_words.DIRECTIONS):
                    undirected.append(where)
            if "perftest" in para and FACTOR.search(para) and \
                    not any(d in para for d in ratio_words.DIRECTIONS):
                undirected.append(f"{path.relative_to(ROOT)}: ...{para[:80]}...")
    assert not wrong_way, "a ratio the tools never print (they print rdmabench/perftest, and " \
        "--cost rdmabench/rdmabench classic):\n" + \
        "\n".join(wrong_way)
    assert not undirected, "a ratio without 'above/below 1 is better' in its paragraph:\n" + \
        "\n".join(undirected)


def test_the_finder_sees_the_old_mislabelled_sentence(tmp_path):
    old = tmp_path / "old.md"
    old.write_text("Measured so, ours/perftest: send lat 1.077, read lat 1.188.\n")
    assert [m.group(0) for p in paragraphs(old) for m in TOOL_RATIO.finditer(p)] == \
        ["ours/perftest"]


def case(mode):
    return vs.Case(f"send {mode} 2B", "ib_send_" + mode, "send", mode, "event", 2)


def test_every_ratio_vs_perftest_prints_is_rdmabench_over_perftest_with_its_direction(capsys):
    bw, lat = case("bw"), case("lat")
    # (perftest's figures, ours, ratios) per round: figure, client CPU us/msg, server CPU us/msg
    results = {}
    for c, theirs, mine in ((bw, (100.0, 20.0, 10.0), (110.0, 18.0, 12.0)),
                            (lat, (90.0, 30.0, 30.0), (81.0, 27.0, 36.0))):
        results[c.label] = [(theirs, mine, vs.ratios(c, theirs, mine))]
    vs.print_ratios([bw, lat], results)
    out = capsys.readouterr().out
    assert "rdmabench/perftest" in out and "perftest/rdmabench" not in out and "ours/" not in out
    line = {c.label: next(ln for ln in out.splitlines() if ln.startswith(c.label)) for c in (bw, lat)}
    assert "1.100 (1.100-1.100)" in line[bw.label] and ratio_words.ABOVE in line[bw.label]
    assert "0.900 (0.900-0.900)" in line[lat.label] and ratio_words.BELOW in line[lat.label]
    # CPU: rdmabench/perftest, below 1 is better (client 27/30, server 36/30 on the lat row)
    assert "0.900" in line[lat.label].split(ratio_words.BELOW, 1)[1]
    assert "1.200" in line[lat.label]


def test_a_negative_cpu_difference_is_a_failed_measurement_not_a_figure(capsys):
    assert math.isnan(vs.per_message(1.0, 2.0, 1000))  # FAILED is NaN
    assert vs.per_message(2.0, 1.0, 1000) == pytest.approx(1000.0)
    c = case("lat")
    theirs, mine = (90.0, 30.0, 30.0), (81.0, vs.per_message(1.0, 2.0, 1000), 36.0)
    results = {c.label: [(theirs, mine, vs.ratios(c, theirs, mine))]}
    vs.print_ratios([c], results)
    vs.print_rates_and_cpu([c], results)
    out = capsys.readouterr().out
    assert "measurement failed" in out and "client 30.00 and failed" in out
    assert not re.search(r"(?<![\d])-\d", out), out  # no negative figure (a range is a-b)


def sample(rate, client_us, guest_us, whole=(30.0, 40.0), engine=(None, None)):
    return mr.Sample(rate, client_us, 5.0, guest_us, engine, whole)


def test_the_message_rate_report_refuses_impossible_figures(capsys):
    ok = {"user": 1.0, "system": 10.0, "softirq": 5.0, "idle": 2.0}
    negative_idle = dict(ok, idle=-5.3)
    theirs = [sample(50e3, 20.0, ok), sample(52e3, 21.0, ok)]
    # rdmabench: a negative server difference, a negative idle, and a rate past its floor
    # (2 CPUs over 15 us of kernel work a message: 133k msg/s at most)
    mine = [sample(60e3, -4.9, negative_idle), sample(150e3, 19.0, ok)]
    mr.report_workload("send bw 2B", (mr.Setting("perftest", case("bw")),
                                      mr.Setting("rdmabench", case("bw"))),
                       {"perftest": theirs, "rdmabench": mine})
    out = capsys.readouterr().out
    assert ratio_words.label("message rate", True) in out
    assert out.count("measurement failed") >= 3, out
    assert "-4.9" not in out and "-5.3" not in out and "reached 1" not in out
    assert re.search(r"perftest\s*: .*kernel floor [\d.]+k msg/s, reached", out), out
