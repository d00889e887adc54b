"""tools/vs-perftest's rounds (rdmabench_guest/vs_perftest_guest.py) when a tool measures
nothing in one of them: perftest's ib_send_lat on siw once printed `inf` for every latency
(2026-12-04, ordinary guest, round 1 of 9), and the script stopped with a traceback, losing
the rounds already measured. Such a round is left out of its case and said; the rest go on."""
import math
import subprocess
import tempfile

import pytest

from rdmabench_guest import vs_perftest_guest as vs

CASE = vs.Case("send lat 2B", "ib_send_lat", "send", "lat", "busy", 2)
INF_LINE = (" 2       2000          inf            inf          inf      \t       inf         \t-nan"
            "   \t\tinf     \t\tinf    \n")
GOOD_LINE = " 2       2000          60.10          180.2        68.31        70.02        5.1   90.1  120.3\n"


def test_a_figure_that_is_not_a_number_is_a_failed_run_naming_what_was_printed():
    assert vs.perftest_figure(CASE, GOOD_LINE) == pytest.approx(68.31)
    with pytest.raises(vs.ToolFailed, match=r"ib_send_lat printed inf as its figure"):
        vs.perftest_figure(CASE, INF_LINE)
    with pytest.raises(vs.ToolFailed, match=r"ib_send_lat printed no result line"):
        vs.perftest_figure(CASE, "Couldn't connect to 10.99.0.1:18516\n")


def test_a_round_a_tool_failed_is_left_out_of_its_case_and_the_others_go_on(monkeypatch, capsys):
    calls = {"n": 0}

    def fake_measure(tool, case, iters):
        calls["n"] += 1
        if calls["n"] == 3:  # round 2's first run
            raise vs.ToolFailed("ib_send_lat printed inf as its figure")
        return (100.0 if tool is vs.perftest else 90.0), 10.0, 10.0

    monkeypatch.setattr(vs, "measure", fake_measure)
    args = type("Args", (), {"rounds": 3, "bw_iters": 1000, "lat_iters": 1000, "build": None})()
    results, left_out = vs.alternate_rounds(args, [CASE])
    assert len(results[CASE.label]) == 2, results
    assert [r[2][0] for r in results[CASE.label]] == [0.9, 0.9]
    assert {k: [str(m) for m in v] for k, v in left_out.items()} == \
        {CASE.label: ["round 2: ib_send_lat printed inf as its figure"]}
    assert vs.failed_ours(left_out) == 0
    assert "round 2 send lat 2B: not measured: ib_send_lat printed inf" in capsys.readouterr().out
    vs.print_ratios([CASE], results, left_out)
    out = capsys.readouterr().out
    assert "0.900 (0.900-0.900)" in out and "2 of 3 rounds" in out, out
    assert "left out: send lat 2B round 2: ib_send_lat printed inf as its figure" in out, out
    assert math.isfinite(vs.statistics.median(r[2][0] for r in results[CASE.label]))


BW_CASE = vs.Case("send bw 2B", "ib_send_bw", "send", "bw", "busy", 2)
READ_CASE = vs.Case("read bw 64K", "ib_read_bw", "read", "bw", "busy", 65536)


def test_a_bandwidth_is_read_from_whichever_column_perftest_prints_finer():
    """perftest prints MsgRate[Mpps] to 6 decimals, one message a second: at 64 KiB a step of
    0.0625 MiB/s, 0.17 % of read bw's 37 MiB/s in the deterministic guest, where the two tools
    differ by less (vs-perftest's read bw 64 KiB rounds read 37.06, 37.12 or 37.19 and nothing
    between). Its BW average[MB/sec] has 2 decimals of MiB/s: the finer above 10,486 B, while
    at 2 B it is a step of 2.5 % and the message rate the finer."""
    line = " 65536      2000             37.21              37.15                0.000594\n"
    assert vs.perftest_figure(READ_CASE, line) == pytest.approx(37.15)
    small = " 2          2000           1.27               1.25                 0.655360\n"
    assert vs.perftest_figure(BW_CASE, small) == pytest.approx(0.655360 * 1e6 * 2 / 2**20)
ZERO_BW_LINE = " 2          1000           0.00               0.00                 0.000000\n"


def test_a_figure_of_zero_is_a_failed_run_not_a_rate():
    """ib_send_bw once printed a message rate of 0 in a --message-rate round (2026-12-04): a
    rate of 0 is nothing measured, as inf is."""
    with pytest.raises(vs.ToolFailed, match=r"ib_send_bw printed 0.0 as its figure"):
        vs.perftest_figure(BW_CASE, ZERO_BW_LINE)


def test_a_message_rate_round_a_tool_failed_is_left_out_and_said(monkeypatch, capsys):
    """The same round then stopped --message-rate with ZeroDivisionError after five rounds,
    every rate lost. A round that failed is left out of its workload, said, and the rest
    reported; a workload no round measured says so."""
    from rdmabench_guest import message_rate_guest as mr
    setting = {"perftest": mr.Setting("perftest", BW_CASE, 1, 1),
               "rdmabench": mr.Setting("rdmabench", BW_CASE, 1, 1)}
    calls = {"n": 0}

    def fake_sample(build, s, messages):
        calls["n"] += 1
        if calls["n"] == 3:  # round 2's first run
            raise vs.ToolFailed("ib_send_bw printed 0.0 as its figure")
        rate = 100.0 if s.tool == "perftest" else 150.0
        return mr.Sample(rate, 1.0, 1.0, {k: 1.0 for k in mr.KINDS}, (None, None), (1.0, 1.0))

    monkeypatch.setattr(mr, "sample", fake_sample)
    samples, left_out = mr.alternate_rounds(None, {"send bw 2B": tuple(setting.values())}, 3, 1000)
    assert [s.rate for s in samples["send bw 2B"]["perftest"]] == [100.0, 100.0]
    assert [str(m) for m in left_out["send bw 2B"]] == \
        ["round 2: ib_send_bw printed 0.0 as its figure"]
    assert "round 2 send bw 2B: not measured: ib_send_bw printed 0.0" in capsys.readouterr().out
    mr.report_workload("send bw 2B", tuple(setting.values()), samples["send bw 2B"],
                       left_out["send bw 2B"], 3)
    out = capsys.readouterr().out
    assert "1.500 (1.500-1.500)" in out and "2 of 3 rounds" in out, out
    assert "left out: round 2: ib_send_bw printed 0.0 as its figure" in out, out
    mr.report_workload("send bw 2B", tuple(setting.values()), {"perftest": [], "rdmabench": []},
                       ["round 1: x", "round 2: y"], 2)
    assert "not measured in any round" in capsys.readouterr().out


def pair_whose_client_fails(script):
    """A run_pair whose client is `sh -c script`, waited for as run_pair waits (cpu_seconds),
    which must raise for the script's exit status."""
    def failing_pair(server_cmd, client_cmd, port, ready_timeout=10.0):
        with tempfile.TemporaryFile(mode="w+") as errors:
            proc = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, stderr=errors,
                                    text=True)
            proc.stdout.read()
            vs.cpu_seconds(proc, errors)
        raise AssertionError(f"cpu_seconds took the exit status of {script!r} for a run")
    return failing_pair


def test_a_perftest_that_exits_with_an_error_is_a_failed_run_naming_its_exit_and_last_words(
        monkeypatch, tmp_path):
    """ib_read_lat -e on siw exited 1 in round 9 of 9 (2026-12-05, deterministic guest: "Bad wc
    status 2"), and the script stopped with a traceback, losing the eight rounds measured. A
    perftest run that exits with an error measured nothing: its round is left out, said with
    its exit status and the last of what it wrote, made printable."""
    monkeypatch.setattr(vs, "run_pair", pair_whose_client_fails(
        "printf ' Bad wc status 2\\n\\033[31mUnable to write to socket/rdma_cm\\n' >&2; exit 1"))
    read_lat = vs.Case("read lat 2B -e", "ib_read_lat", "read", "lat", "event", 2)
    with pytest.raises(vs.ToolFailed) as failed:
        vs.perftest(read_lat, 2000)
    said = str(failed.value)
    assert said.startswith("ib_read_lat exited 1"), said
    assert "Unable to write to socket/rdma_cm" in said and "\033" not in said, said


def test_a_round_rdmabench_failed_is_left_out_and_said_and_the_script_ends_in_error(
        monkeypatch, tmp_path, capsys):
    """An rdmabench run that failed in round 9 stopped vs-perftest with a traceback
    (RuntimeError from its result row), losing the eight rounds measured. Its round is left out
    and said as perftest's are, the table printed, and the script then exits in error: a failure
    of ours is a bug to look at, not noise."""
    monkeypatch.setattr(vs, "run_pair", pair_whose_client_fails(
        "printf 'rdmabench: send lat 2B: no completion within 60000 ms\\n\\033[0m' >&2; exit 5"))
    with pytest.raises(vs.RdmabenchFailed) as failed:
        vs.ours(tmp_path, CASE, 2000)
    said = str(failed.value)
    assert said.startswith("rdmabench exited 5: rdmabench: send lat 2B: no completion"), said
    assert "\033" not in said, said

    calls = {"n": 0}

    def fake_measure(tool, case, iters):
        calls["n"] += 1
        if calls["n"] == 3 and tool is not vs.perftest:  # round 2's first run, rdmabench's
            raise vs.RdmabenchFailed("rdmabench exited 5: no completion within 60000 ms")
        return (100.0 if tool is vs.perftest else 90.0), 10.0, 10.0

    monkeypatch.setattr(vs, "measure", fake_measure)
    monkeypatch.setattr(vs, "parse_args", lambda: type("Args", (), {
        "rounds": 3, "bw_iters": 1000, "lat_iters": 1000, "build": tmp_path, "fabric": "rxe",
        "match": "^send lat 2B$", "post_list_curve": False, "scale_out": False})())
    monkeypatch.setattr(vs, "deterministic_guest", lambda: False)
    monkeypatch.setattr(vs, "perftest", lambda case, iters: (1.0, 1.0, 1.0))
    monkeypatch.setattr(vs, "ours", lambda build, case, iters: (1.0, 1.0, 1.0))
    with pytest.raises(SystemExit, match=r"rdmabench failed in 1 round"):
        vs.main()
    out = capsys.readouterr().out
    assert "round 2 send lat 2B: not measured: rdmabench exited 5" in out, out
    assert "2 of 3 rounds" in out and "0.900 (0.900-0.900)" in out, out
    assert "left out: send lat 2B round 2: rdmabench exited 5" in out, out


def test_a_warm_up_that_failed_is_said_and_the_rounds_go_on(monkeypatch, tmp_path, capsys):
    """ib_send_bw -R's client on siw exited -11 ("Connection refused") in the unmeasured
    warm-up run (2026-12-06, ordinary guest) and the script stopped with a traceback before its
    first round. A warm-up is no figure: its failure is said, and the rounds go on."""
    def refused(case, iters):
        raise vs.ToolFailed("ib_send_bw exited -11: ERRNO: Connection refused.")

    measured = []
    monkeypatch.setattr(vs, "perftest", refused)
    monkeypatch.setattr(vs, "ours", lambda build, case, iters: measured.append(iters))
    vs.warm_up(tmp_path, [CASE, BW_CASE])
    out = capsys.readouterr().out
    assert "warm-up send lat 2B: perftest measured nothing: ib_send_bw exited -11" in out, out
    assert "warm-up send bw 2B: perftest measured nothing" in out, out
    assert measured == [50, 50]
