"""vs-perftest --cost (tools/rdmabench_guest/cost_guest.py), off the guest: it reads the counts
valgrind (cachegrind) and strace leave, turns N and 2N runs into a count per message, and
reports a difference below 0 as a failed measurement, never as a figure; its ratios are
rdmabench/perftest and say which way is better."""
from rdmabench_guest import cost_guest as cost
from rdmabench_tools import ratio_words

CACHEGRIND = "desc: I1 cache: ...\ncmd: /bin/true\nevents: Ir\nfl=???\n0 12\nsummary: 128234\n"
STRACE = """% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 33.33    0.000010          10         1           write
  0.00    0.000000           0         1           rseq
------ ----------- ----------- --------- --------- ----------------
100.00    0.000030           1        29         1 total
"""
STRACE_NO_ERRORS = STRACE.replace("        29         1 total", "       552           total")


def test_the_counters_read_what_the_tools_leave(tmp_path):
    instructions, syscalls = cost.COUNTERS
    (tmp_path / "cg").write_text(CACHEGRIND)
    (tmp_path / "st").write_text(STRACE)
    (tmp_path / "st2").write_text(STRACE_NO_ERRORS)
    assert instructions.read(tmp_path / "cg") == 128234
    assert syscalls.read(tmp_path / "st") == 29
    assert syscalls.read(tmp_path / "st2") == 552
    assert instructions.prefix("F")[:2] == ["valgrind", "--tool=cachegrind"]
    assert syscalls.prefix("F")[:3] == ["strace", "-c", "-f"]


def test_a_count_that_fell_is_a_failed_measurement(monkeypatch):
    counts = iter([{"client": 5000, "server": 900}, {"client": 3000, "server": 1000}])
    monkeypatch.setattr(cost, "counted_run", lambda *a: next(counts))
    case = cost.SMALL_SENDS[0]
    got = cost.per_message(None, case, 64, cost.COUNTERS[0])
    assert got == {"client": 2000 / 64, "server": cost.Failed(100 / 64)}
    assert cost.cell(got["server"]) == "measurement failed (2N below N by 1.56/msg)"


def test_the_table_says_which_way_its_ratios_point():
    figures = {"perftest": {"client": 100.0, "server": 50.0},
               "rdmabench": {"client": 80.0, "server": cost.Failed(0.5)},
               "rdmabench classic": {"client": 90.0, "server": 60.0}}
    results = {"send bw 2B": {c.name: figures for c in cost.COUNTERS}}
    text = cost.table(results, ["perftest", "rdmabench", "rdmabench classic"])
    assert f"rdmabench/perftest ({ratio_words.BELOW})" in text
    client = next(line for line in text.splitlines() if " client " in line)
    assert "0.800" in client and "0.889" in client
    server = next(line for line in text.splitlines() if " server " in line)
    assert "measurement failed" in server and "-" in server.split()[-1]
