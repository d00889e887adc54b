"""vs-perftest --cost (tools/rdmabench_guest/cost_guest.py), off the guest: it reads the counts
valgrind (cachegrind) and perf stat leave, turns N and 2N runs into a count per message, and
reports a difference below 0 as a failed measurement, never as a figure; its ratios are
rdmabench/perftest and say which way is better."""
import json
from pathlib import Path

import pytest

from rdmabench_guest import cost_boots as boots
from rdmabench_guest import cost_guest as cost
from rdmabench_tools import exit_codes, ratio_words

CACHEGRIND = "desc: I1 cache: ...\ncmd: /bin/true\nevents: Ir\nfl=???\n0 12\nsummary: 128234\n"
# perf stat -x , as it writes its file (linux-perf 6.1): the total, then the calls by name.
PERF_STAT = """# started on Sun Dec  6 10:05:43 2026

6353,,raw_syscalls:sys_enter,8799605,100.00,,
6324,,syscalls:sys_enter_gettimeofday,8799605,100.00,,
7,,syscalls:sys_enter_read,8799605,100.00,,
1,,syscalls:sys_enter_write,8799605,100.00,,
"""
PERF_STAT_NOT_COUNTED = PERF_STAT.replace("6353,,raw_syscalls", "<not counted>,,raw_syscalls")


def test_the_counters_read_what_the_tools_leave(tmp_path):
    instructions, syscalls = cost.COUNTERS
    (tmp_path / "cg").write_text(CACHEGRIND)
    (tmp_path / "ps").write_text(PERF_STAT)
    assert instructions.read(tmp_path / "cg") == 128234
    # Every call but gettimeofday: perftest's clock calibration at start reads it in a loop for
    # a fixed 0.2 s (get_clock.c), about 42,000 calls a run in the deterministic guest, as many
    # as the guest's speed allows, whatever the messages (rdmabench never calls it).
    assert syscalls.read(tmp_path / "ps") == 29
    assert instructions.prefix("F")[:2] == ["valgrind", "--tool=cachegrind"]
    # System calls counted by the kernel's tracepoints, every thread, the process never stopped
    # (strace stops it at each call, and moved how a blocking receiver's completions batch).
    prefix = syscalls.prefix("F")
    assert prefix[:2] == ["perf", "stat"] and prefix[-1] == "--", prefix
    assert prefix[prefix.index("-o") + 1] == "F" and "-i" not in prefix  # children inherit
    assert prefix[prefix.index("-e") + 1] == "raw_syscalls:sys_enter", prefix


def test_a_count_perf_could_not_take_is_an_error_not_a_figure(tmp_path):
    syscalls = cost.COUNTERS[1]
    (tmp_path / "ps").write_text(PERF_STAT_NOT_COUNTED)
    with pytest.raises(RuntimeError, match="no total"):
        syscalls.read(tmp_path / "ps")
    (tmp_path / "empty").write_text("")
    with pytest.raises(RuntimeError, match="no total"):
        syscalls.read(tmp_path / "empty")
    (tmp_path / "no-gtod").write_text(PERF_STAT.replace("syscalls:sys_enter_gettimeofday", "x"))
    with pytest.raises(RuntimeError, match="gettimeofday"):
        syscalls.read(tmp_path / "no-gtod")


def test_a_count_that_fell_is_a_failed_measurement(monkeypatch):
    counts = iter([{"client": 5000, "server": 900}, {"client": 3000, "server": 1000}])
    monkeypatch.setattr(cost, "counted_run", lambda *a: next(counts))
    case = cost.SMALL_SENDS[0]
    got = cost.per_message(None, case, 64, cost.COUNTERS[0])
    assert got == {"client": 2000 / 64, "server": cost.Failed(100 / 64, 100)}
    assert cost.cell(got["server"]) == "measurement failed (2N counted 100 fewer than N, 1.6/msg)"


def test_a_few_whole_calls_fewer_are_said_as_calls_not_as_a_rounded_zero(monkeypatch):
    """A passive server's system calls between N and 2N: a futex or two more in the N run
    printed as "2N below N by 0.00/msg", a figure that told nothing."""
    counts = iter([{"client": 8215, "server": 50}, {"client": 4119, "server": 53}])
    monkeypatch.setattr(cost, "counted_run", lambda *a: next(counts))
    got = cost.per_message(None, cost.SMALL_SENDS[0], 4096, cost.COUNTERS[1])
    assert got["client"] == 1.0
    assert cost.cell(got["server"]) == "measurement failed (2N counted 3 fewer than N, 0.000732/msg)"


def test_the_table_says_which_way_its_ratios_point():
    figures = {"perftest": {"client": 100.0, "server": 50.0},
               "rdmabench": {"client": 80.0, "server": cost.Failed(0.5, 32)},
               "rdmabench classic": {"client": 90.0, "server": 60.0}}
    results = {"send bw 2B": {c.name: figures for c in cost.COUNTERS}}
    text = cost.table(results, ["perftest", "rdmabench", "rdmabench classic"])
    assert f"rdmabench/perftest ({ratio_words.BELOW})" in text
    client = next(line for line in text.splitlines() if " client " in line)
    assert "0.800" in client and "0.889" in client
    server = next(line for line in text.splitlines() if " server " in line)
    assert "measurement failed" in server and "-" in server.split()[-1]


def test_each_boot_turns_the_tools_order():
    named = [("perftest", 0), ("rdmabench", 1), ("rdmabench classic", 2)]
    firsts = [cost.rotated(named, boot)[0][0] for boot in range(3)]
    assert firsts == ["perftest", "rdmabench", "rdmabench classic"]
    assert sorted(cost.rotated(named, 4)) == sorted(named)


def boot_file(tmp_path, boot, perftest, rdmabench, classic):
    sides = lambda v: {"client": v, "server": 10.0}  # noqa: E731
    doc = {"boot": boot, "messages": 1000, "cases": {"send bw 2B": {"instructions": {
        "perftest": sides(perftest), "rdmabench": sides(rdmabench),
        "rdmabench classic": sides(classic)}}}}
    path = tmp_path / f"boot-{boot}.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_boots_give_medians_with_their_range_and_ratios_taken_within_each_boot(tmp_path, capsys):
    files = [boot_file(tmp_path, 0, 100.0, 90.0, 80.0),
             boot_file(tmp_path, 1, 120.0, 132.0, 120.0),
             boot_file(tmp_path, 2, 200.0, 160.0, 100.0)]
    assert boots.main(files) == 0
    out = capsys.readouterr().out
    client = next(line for line in out.splitlines() if " client " in line)
    assert "120.0 (100.0-200.0)" in client and "132.0 (90.0-160.0)" in client
    # rdmabench/perftest per boot: 0.9, 1.1, 0.8 -> median 0.9 (not 132/120 = 1.1)
    assert "0.900 (0.800-1.100)" in client
    assert f"({ratio_words.BELOW})" in out and "Medians over 3 boots" in out


def test_a_failed_boot_is_left_out_of_its_cell_and_said(tmp_path, capsys):
    files = [boot_file(tmp_path, 0, 100.0, 90.0, 80.0),
             boot_file(tmp_path, 1, 120.0, cost.saved(cost.Failed(0.5, 32)), 120.0)]
    assert boots.main(files) == 0
    client = next(line for line in capsys.readouterr().out.splitlines() if " client " in line)
    assert "90.0 (90.0-90.0), 1 of 2 boots" in client


def test_a_file_that_is_not_a_boots_counts_is_refused_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"cases": {"x\x1b[31m": {"instructions": [1]}}}))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    for path in (bad, deep):
        assert boots.main([str(path)]) == exit_codes.USAGE
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "\x1b" not in err


def test_a_count_below_one_a_message_keeps_its_digits():
    """A side that made 15 system calls more over 4,096 messages printed 0.0 beside a ratio of
    3.692 to perftest's 0.0: a count below 1 a message prints in three significant digits."""
    assert cost.cell(0.003692) == "0.00369"
    assert cost.cell(0.0) == "0.0" and cost.cell(232.84) == "232.8" and cost.cell(1.0) == "1.0"
    assert boots.spread([0.0037, 0.001, 0.002], cost.count_text, 3) == "0.002 (0.001-0.0037)"
    assert boots.spread([232.84, 230.0, 240.0], cost.count_text, 3) == "232.8 (230.0-240.0)"
    assert boots.spread([1.0764, 3.692], cost.ratio_text, 3) == "2.384 (1.076-3.692), 2 of 3 boots"


def test_kept_profiles_hold_each_counters_file_by_case_tool_side_and_count(tmp_path, monkeypatch):
    """--keep-profiles: cachegrind's file for cg_annotate, and perf stat's counts beside it (the
    system calls in all and by name), named by case, tool, side and message count."""
    def counted_pair(server, client, port, ready_timeout):
        for cmd in (server, client):
            if cmd[2] == "valgrind":  # after "timeout 1200"
                out = next(a.split("=", 1)[1] for a in cmd if a.startswith("--cachegrind-out-file="))
                Path(out).write_text(CACHEGRIND)
            else:
                Path(cmd[cmd.index("-o") + 1]).write_text(PERF_STAT)
    monkeypatch.setattr(cost.vs, "run_pair", counted_pair)
    commands = lambda case, iters, tmp: (["srv"], ["cli"], 1)  # noqa: E731
    case = cost.SMALL_SENDS[0]
    assert len(cost.COUNTERS) == 2, cost.COUNTERS  # instructions, then system calls
    for counter, count in zip(cost.COUNTERS, (128234, 29)):
        got = cost.counted_run(commands, case, 64, counter, (tmp_path, "rdmabench classic"))
        assert got == {"client": count, "server": count}, (counter.name, got)
    kept = sorted(p.name for p in (tmp_path / cost.slug(case.label)).iterdir())
    assert kept == ["rdmabench-classic-client-64", "rdmabench-classic-client-64.syscalls",
                    "rdmabench-classic-server-64", "rdmabench-classic-server-64.syscalls"], kept
    assert "sys_enter_read" in (tmp_path / cost.slug(case.label) / "rdmabench-classic-server-64.syscalls").read_text()
