"""rdmabench's own option checks, which come before any device is needed (so they run here)."""
import json
import re
import resource
import subprocess

import pytest

from conftest import commands_in_help, RDMABENCH_EXE as EXE, run_rdmabench as rdmabench


@pytest.mark.parametrize("value", ["0", "-1", "1e9", "abc"])
def test_serve_refuses_a_timeout_it_cannot_keep(value):
    proc = rdmabench("serve", "--timeout", value)
    assert proc.returncode == 2, proc.stderr
    assert "--timeout" in proc.stderr or "abc" in proc.stderr


@pytest.mark.parametrize("args", [("--timeout", "0"), ("--wait", "-1"), ("--signal-every", "0"),
                                  ("--tx-depth", "0"), ("--signal-every", "200"), ("--mtu", "1000"),
                                  ("--qp-timeout", "32"), ("--qp-timeout", "-1"),
                                  ("--cq", "spin"), ("--cq", "hybrid"), ("--cq", "client=busy"),
                                  ("--cq", "moderated:1"), ("--poll-batch", "0"),
                                  ("--poll-batch", "65"), ("--rate", "abc"), ("--qps", "0"),
                                  ("--qps", "1,x"), ("--qps", "4", "--mode", "lat"),
                                  ("--qps", "4", "--threads", "2", "--mode", "all"),
                                  ("--bidir", "--mode", "lat"), ("--duration", "1", "--iters", "5"),
                                  ("--duration", "-1"), ("--duration", "0"), ("--margin", "-1", "--duration", "1"),
                                  ("--threads", "0"), ("--threads", "65"), ("--cpus", "99999"),
                                  ("--cpus", "1-0"), ("--cpus", "x"), ("--counters", "yes"),
                                  ("--counters", "")])
def test_run_refuses_bad_options_before_connecting(args):
    proc = rdmabench("run", "127.0.0.1", "--port", "1", *args)  # refused at once if it got that far
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.parametrize("args, says", [(("--qps", "4", "--mode", "lat"), "--threads 4"),
                                        (("--bidir", "--mode", "lat"), "bidir"),
                                        (("--duration", "1", "--iters", "5"), "not both"),
                                        (("--cpus", "99999"), "does not exist")])
def test_scale_out_mistakes_say_what_to_do(args, says):
    proc = rdmabench("run", "127.0.0.1", "--port", "1", *args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


@pytest.mark.parametrize("args, says", [
    (("--output", "speed"), "give bandwidth (Gb/s), message_rate (Mpps) or latency (usec, t_p50)"),
    (("--output", "latency", "--mode", "bw"), "none is asked for: add --mode lat"),
    (("--output", "message_rate", "--mode", "lat"), "none is asked for: add --mode bw"),
    (("--output", "bandwidth", "--json"), "both print to standard output"),
    # certificates come as three files, and not beside a key
    (("--cert", "c.pem"), "--cert-key is missing"),
    (("--key", "k", "--cert", "c.pem", "--cert-key", "c.key", "--ca", "ca.pem"), "not both"),
])
def test_output_and_channel_security_mistakes_say_what_to_do(args, says):
    """perftest's --output, one number for scripts, and TLS's options: each mistake is exit 2,
    saying what to give."""
    proc = rdmabench("run", "127.0.0.1", "--port", "1", *args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


@pytest.mark.parametrize("command, port", [("serve", "99999"), ("serve", "0"), ("serve", "-1"),
                                           ("run", "70000"), ("run", "0")])
def test_a_port_outside_1_to_65535_is_refused_not_wrapped(command, port):
    """serve --port 99999 served on 34463 (99999 mod 65536) before; run shares the option."""
    host = ("127.0.0.1",) if command == "run" else ()
    proc = rdmabench(command, *host, f"--port={port}", "--timeout", "1")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().endswith(
        f"--port '{port}': give a TCP port from 1 to 65535, in plain digits"), proc.stderr


def test_serve_refuses_a_cpu_list_it_cannot_use():
    proc = rdmabench("serve", "--port", "1", "--cpus", "0-x")
    assert proc.returncode == 2 and "--cpus" in proc.stderr, proc.stderr


def test_run_help_lists_every_registered_cq_strategy():
    proc = rdmabench("run", "--help")
    assert proc.returncode == 0
    for usage in ("busy", "event", "epoll", "hybrid:<spin budget us>", "adaptive",
                  "moderated:<count>,<us>", "client=S,server=S", "--poll-batch"):
        assert usage in proc.stdout, usage


def test_a_run_that_never_started_leaves_no_empty_results_file(tmp_path):
    # Before: checking that --out was writable created the file, so a run that failed
    # before any benchmark (here: no RDMA device) left an empty "results" file behind.
    out = tmp_path / "results.json"
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--out", str(out))
    assert proc.returncode != 0
    assert not out.exists()
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--out", str(tmp_path / "no" / "x.json"))
    assert proc.returncode == 2 and "cannot write there" in proc.stderr


def test_checking_an_output_file_follows_no_dangling_link_and_says_why_it_cannot_write(tmp_path):
    # Before: the check opened --out for append, so a dangling link's target was created (and
    # left behind), and every refusal was "cannot write there" with no reason.
    target = tmp_path / "elsewhere.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--out", str(link))
    assert proc.returncode != 0
    assert not target.exists(), "the check created the dangling link's target"
    assert link.is_symlink(), "the check removed the user's link"
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--out", str(tmp_path))
    assert proc.returncode == 2 and "is a folder: name a file in it" in proc.stderr, proc.stderr
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--out", str(tmp_path / "no" / "x.json"))
    assert proc.returncode == 2 and f"its folder {tmp_path / 'no'} does not exist" in \
        proc.stderr, proc.stderr


@pytest.mark.parametrize("args, says", [
    (("--iters", "0"), "--iters '0': give a count from 1 to"),
    (("--lat-iters", "0"), "--lat-iters '0': give a count from 1 to"),
    (("--timeout", "0"), "--timeout '0': give a time from 1ms to 24h"),
    (("--warmup", "99999999999999999"), "--warmup '99999999999999999': give a count from 0 to"),
    (("--schedule", "ring"), "--schedule: unknown 'ring' (shift, isolated, sampled)"),
    (("--schedule", "sampled"), "--schedule sampled needs --topology FILE"),
    (("--schedule", "sampled", "--topology", "t", "--partners", "0"), "--partners '0': give a count from 1 to 1024"),
    (("--schedule", "sampled", "--topology", "t", "--sample-rounds", "0"),
     "--sample-rounds '0': give a count from 1 to"),
    (("--partners", "2"), "--partners and --sample-rounds go with --schedule sampled"),
    (("--min-fraction", "0"), "--min-fraction must be above 0"),
    (("--min-fraction", "1.5"), "--min-fraction '1.5': give a number from 0 to 1"),
    (("--min-fraction", "0.8abc"), "--min-fraction '0.8abc': give a number from 0 to 1"),
    (("--max-resends", "-1"), "--max-resends '-1': give a number from 0 to 1000000"),
    (("--repetitions", "0"), "--repetitions '0': give a count from 1 to 100"),
    (("--repetitions", "101"), "--repetitions '101': give a count from 1 to 100"),
    (("--matrices", "some"), "--matrices: unknown 'some' (auto, all or heatmaps)"),
    (("--cm", "tcp"), "--cm: unknown 'tcp' (auto, oob, rdmacm)"),  # auto: settled per fabric
    (("--pattern", "atomic"), "--pattern: unknown 'atomic'"),
    (("--mode", "bw,x"), "--mode: unknown value 'x' (choices: bw, lat, or all alone)"),
    (("--size", "2,4"), "--size takes one size"),
    (("--cq", "spin"), "spin"),
    (("--qp-timeout", "32"), "--qp-timeout '32': give an exponent from 0 to 31"),
    (("--bogus",), "bogus"),
    (("somewhere",), "unexpected argument 'somewhere'"),
    (("--schedule", "isolated", "--pairs", "pairs.txt"), "give --schedule or --pairs FILE, not both"),
    (("--traffic", "star"), "--traffic: unknown 'star' (pairs, incast, fan-out, all-to-all, "
                            "bisection, ring)"),
    (("--fan", "2"), "--fan goes with --traffic incast, fan-out or all-to-all"),
    (("--traffic", "ring", "--fan", "2"), "--fan goes with --traffic incast, fan-out or all-to-all"),
    (("--traffic", "incast", "--fan", "0"), "--fan '0': give a count from 1 to 64"),
    (("--traffic", "all-to-all", "--fan", "65"), "--fan '65': give a count from 1 to 64"),
    (("--duration", "1"), "--duration goes with --traffic incast"),
    (("--margin", "1"), "--margin goes with --traffic incast"),
    (("--traffic", "ring", "--mode", "lat"), "--traffic measures bandwidth: give --mode bw"),
    (("--traffic", "ring", "--schedule", "isolated"), "leave out --schedule"),
    (("--traffic", "incast", "--iters", "5"), "leave out --iters"),
    (("--traffic", "ring", "--duration", "0"), "--duration"),
    (("--streams", "0"), "--streams '0': give a count from 1 to 64"),
    (("--streams", "65"), "--streams '65': give a count from 1 to 64"),
    (("--tx-depth", "0"), "--tx-depth '0': give a count from 1 to 4294967295")])
def test_mesh_refuses_bad_options_before_mpi_starts(args, says):
    proc = rdmabench("mesh", *args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def test_mesh_alone_says_how_to_launch_it():
    # Without mpirun, MPI starts a one-rank job (a singleton): too few ranks.
    proc = rdmabench("mesh")
    assert proc.returncode == 2, proc.stderr
    assert "mesh needs at least 2 ranks" in proc.stderr and "mpirun -np N" in proc.stderr


def test_mesh_help_gives_the_launch_lines_and_exit_codes():
    proc = rdmabench("mesh", "--help")
    assert proc.returncode == 0
    for text in ("mpirun -np N --map-by node", "srun -N N", "--schedule", "--pairs",
                 "--min-fraction", "--max-resends", "--repetitions", "--cm",
                 " 7  mesh: slow or resending pairs or hosts"):
        assert text in proc.stdout, text


def test_study_help_quotes_what_a_shell_would_split():
    """`--cq busy;event;...` pasted from the help would run `event` as a command."""
    proc = rdmabench("study", "--help")
    assert proc.returncode == 0, proc.stderr
    assert "--cq 'busy;event;epoll;hybrid:50;adaptive;dynamic;client=busy,server=event'\n" in proc.stdout
    assert "--iters 2000  (or give --duration)\n" in proc.stdout
    # Google Benchmark's flags lose a value given after a space
    assert "--benchmark_repetitions=3\n" in proc.stdout


def test_study_takes_a_duration_instead_of_its_preset_iters(tmp_path):
    """Any option given wins: --duration replaces the preset's --iters (before, the two were
    refused together). Here it gets as far as the device (none on the host: exit 3) or the
    server (none on port 1: exit 4)."""
    proc = rdmabench("study", "polling", "127.0.0.1", "--port", "1", "--duration", "5",
                     "--out", str(tmp_path / "study.json"))
    assert proc.returncode in (3, 4), proc.stderr
    assert "not both" not in proc.stderr


@pytest.mark.parametrize("value, says", [("all,foo", "--pattern: unknown value 'foo'"),
                                         ("foo,all", "--pattern: unknown value 'foo'"),
                                         ("all,send", "--pattern all,send: 'all' stands alone")])
def test_a_pattern_list_blames_the_value_that_is_wrong(value, says):
    """`--pattern all,foo` was refused as "unknown value 'all'", though all is a choice."""
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--pattern", value)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr and "'all' (" not in proc.stderr, proc.stderr
    assert "send, write" in proc.stderr  # the choices


@pytest.mark.parametrize("args, says", [
    (("--margin", "1"), "--margin needs --duration"),
    (("--no-wait", "--wait", "5"), "give --wait TIME or --no-wait, not both")])
def test_options_that_would_be_ignored_are_refused(args, says):
    """An option that the others make meaningless was accepted silently before."""
    proc = rdmabench("run", "127.0.0.1", "--port", "1", *args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


@pytest.mark.parametrize("args, names, advice", [
    (("-s", "64", "HOST"), "'-s'", "--sizes"),
    (("HOST", "--bogus"), "'--bogus'", "see rdmabench run --help"),
    (("HOST", "--iter", "100"), "'--iter'", "did you mean --iters?"),
    (("HOST", "-n", "100"), "'-n'", "perftest's -n is --iters COUNT; iperf3's is bytes to send"),
    (("HOST", "-D", "5"), "'-D'", "--duration"),
    (("HOST", "-q", "4"), "'-q'", "--qps"),
    (("HOST", "-a"), "'-a'", "--sizes 2:8M"),
    (("HOST", "-e"), "'-e'", "--cq event"),
    (("HOST", "--report_gbits"), "'--report_gbits'", "MiB/s and Gb/s"),
    (("HOST", "-i", "2"), "'-i'", "--ib-port N"),
    (("HOST", "-w", "25"), "'-w'", "--min-bw GBPS"),
    (("HOST", "-y", "20"), "'-y'", "--max-lat p99:US"),
    (("HOST", "--run_infinitely"), "'--run_infinitely'", "--report-every TIME"),
    (("HOST", "--rate_limit", "5"), "'--rate_limit'", "--rate 2.5gbps"),
    (("HOST", "--use_hugepages"), "'--use_hugepages'", "--hugepages"),
    (("HOST", "--use_old_post_send"), "'--use_old_post_send'", "--post-api classic"),
    (("HOST", "--post-api", "old"), "--post-api: unknown value 'old'", "(ex, classic or auto)"),
    (("HOST", "--ptatern", "send"), "'--ptatern'", "did you mean --pattern?"),
    (("HOST", "extra"), "'extra'", "HOST is already 'HOST'"),
    (("HOST", "--benchmark_repetitions", "3"), "'--benchmark_repetitions'",
     "--benchmark_repetitions=VALUE"),
    (("HOST", "--benchmark_repetitions=abc"), "'--benchmark_repetitions=abc'", "wrong type"),
    (("HOST", "--benchmark_bogus=1"), "'--benchmark_bogus=1'", "no such Google Benchmark flag"),
    (("HOST", "--benchmark_filter=["), "'['", "not a regular expression"),
    (("HOST", "--benchmark_filter=nothing"), "'nothing'", "selects none of the"),
    (("HOST", "--pattern", "read", "--benchmark_filter=^send/"), "'^send/'", "selects none of the"),
])
def test_run_names_a_mistaken_argument_before_device_or_server(args, names, advice):
    """Each of these reached the device and the server before (exit 3 here, 4 or 0 with a
    device): Google Benchmark judged its flags and the filter only after connecting, and an
    empty selection exited 0 with an empty results file."""
    args = tuple("10.255.255.1" if a == "HOST" else a for a in args)
    advice = advice.replace("'HOST'", "'10.255.255.1'")
    proc = rdmabench("run", *args, "--port", "1", "--timeout", "1")
    assert proc.returncode == 2, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert names in last and advice in last, last


def test_a_filter_that_selects_something_gets_as_far_as_the_device():
    proc = rdmabench("run", "10.255.255.1", "--port", "1", "--benchmark_filter=^send/bw/busy/4096",
                     "--benchmark_repetitions=2", "--benchmark_enable_random_interleaving")
    assert proc.returncode == 3 and "no RDMA device" in proc.stderr, proc.stderr


@pytest.mark.parametrize("command, args, says", [
    ("run", ("10.255.255.1", "--port", "5x"), "--port '5x': give a TCP port from 1 to 65535"),
    ("serve", ("--gid-index", "x"), "--gid-index 'x': give a GID index from 0 to 255"),
    # times, counts and decimals are read by their own parsers, which say what they take
    ("run", ("10.255.255.1", "--tx-depth", "-5"), "--tx-depth '-5': give a count from 1 to"),
    ("run", ("10.255.255.1", "--rx-depth=abc"), "--rx-depth 'abc': give a count from 1 to"),
    ("serve", ("--max-qps", "x"), "--max-qps 'x': give a count from 1 to"),
    ("mesh", ("--tx-depth", "-1"), "--tx-depth '-1': give a count from 1 to"),
    ("run", ("10.255.255.1", "--iters", "-5"), "--iters '-5': give a count from 1 to"),
    ("run", ("10.255.255.1", "--timeout=abc"), "--timeout 'abc': give a time from 1ms to 24h"),
    ("serve", ("--timeout", "x"), "--timeout 'x': give a time from 1ms to 24h"),
    ("mesh", ("--iters", "-1"), "--iters '-1': give a count from 1 to"),
])
def test_a_value_of_the_wrong_type_names_its_option(command, args, says):
    """cxxopts said "Argument ‘-5’ failed to parse", in curly quotes, naming no option."""
    proc = rdmabench(command, *args)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr and "\u2018" not in proc.stderr, proc.stderr


def test_rate_paces_bw_too_and_in_gbps_only_bw():
    """--rate paces every mode (lat round trips, bw messages a QP); a rate in Gb/s only bw's,
    and anything else is refused naming the item. Exit 3 is past the options: no device here."""
    for mode in ("bw", "all", "lat"):
        proc = rdmabench("run", "10.255.255.1", "--rate", "1000", "--mode", mode)
        assert proc.returncode == 3, proc.stderr
    for rate in ("2.5gbps", "0,1Gb/s"):
        proc = rdmabench("run", "10.255.255.1", "--rate", rate, "--mode", "bw", "--sizes", "64K")
        assert proc.returncode == 3, proc.stderr
    proc = rdmabench("run", "10.255.255.1", "--rate", "2.5gbps", "--mode", "bw", "--sizes", "2,64K")
    assert proc.returncode == 2 and "--rate 2.5gbps at 2 B is 156250000 messages a second" \
        in proc.stderr, proc.stderr
    proc = rdmabench("run", "10.255.255.1", "--rate", "2gbps", "--mode", "all")
    assert proc.returncode == 2 and "--rate in Gb/s paces bw streams only" in proc.stderr, \
        proc.stderr
    for bad in ("0gbps", "xgbps", "-1gbps", "20000gbps"):
        proc = rdmabench("run", "10.255.255.1", "--rate", bad, "--mode", "bw")
        assert proc.returncode == 2 and f"--rate '{bad}'" in proc.stderr, (bad, proc.stderr)


def test_rdma_cm_with_no_device_says_there_is_none():
    """It exited 4 with a bare 'rdma_create_event_channel failed: No such device'."""
    proc = rdmabench("run", "10.255.255.1", "--cm", "rdmacm", "--timeout", "1")
    assert proc.returncode == 3, proc.stderr
    assert "no RDMA device found" in proc.stderr, proc.stderr
    # What fits a user with a real NIC (this host's kernel has no RDMA), and no path of a
    # repository checkout, which an installed rdmabench does not have (it named tools/rxe-vm).
    assert "load your NIC's RDMA driver" in proc.stderr and "memlock" in proc.stderr, proc.stderr
    assert "tools/" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("args, says", [
    (("--min-bw", "abc"), "--min-bw 'abc': give the lowest bandwidth to pass in Gb/s"),
    (("--min-bw", "0"), "--min-bw '0'"),
    (("--min-bw", "5", "--mode", "lat"), "--min-bw judges bw runs, and --mode lat runs none"),
    (("--max-lat", "20"), "--max-lat '20': give STATISTIC:MICROSECONDS, for example p99:20"),
    (("--max-lat", "p42:20"), "(statistics: min, p50, mean, p90, p99, p99.9, max)"),
    (("--max-lat", "p99:-1"), "--max-lat 'p99:-1'"),
    (("--max-lat", "p99:20", "--mode", "bw"), "--max-lat judges lat runs, and --mode bw runs none"),
    (("--ib-port", "0"), "--ib-port '0': give a device port from 1 to 255"),
    (("--ib-port", "256"), "--ib-port '256': give a device port from 1 to 255"),
    (("--ib-port", "2", "--cm", "rdmacm"), "--ib-port is for the out-of-band bootstrap"),
    (("--report-every", "0"), "--report-every '0': give a time from 100ms to 1h"),
    (("--report-every", "1", "--mode", "lat"), "--report-every reports bw runs as they go"),
])
def test_health_check_limits_and_the_ib_port_are_checked_before_connecting(args, says):
    """--min-bw, --max-lat (perftest -w, -y) and --ib-port (perftest -i) did not exist."""
    proc = rdmabench("run", "10.255.255.1", "--port", "1", *args)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.parametrize("args", [("--min-bw", "0.5"), ("--max-lat", "p99.9:20"),
                                  ("--max-lat", "mean:3.5"), ("--ib-port", "2"), ("--json",),
                                  ("--report-every", "0.5", "--duration", "5")])
def test_well_formed_limits_get_as_far_as_the_device(args):
    proc = rdmabench("run", "10.255.255.1", "--port", "1", *args)
    assert proc.returncode == 3 and "no RDMA device" in proc.stderr, proc.stderr


def test_serve_refuses_an_ib_port_out_of_range():
    proc = rdmabench("serve", "--port", "1", "--ib-port", "0")
    assert proc.returncode == 2 and "--ib-port '0': give a device port from 1 to 255" in proc.stderr, proc.stderr


def test_version_names_the_revision_build_type_and_compiler():
    """The context said only libbenchmark's build type; rdmabench's own and its revision were
    absent. The compiler is named too: a deterministic figure moves with it (issue 49)."""
    proc = rdmabench("version")
    assert proc.returncode == 0, proc.stderr
    assert re.fullmatch(r"rdmabench \S+ \((unknown|[0-9a-f]{7,}(-dirty)?|\S+-g[0-9a-f]+(-dirty)?), "
                        r"(release|debug|debugoptimized|plain|minsize|custom) build, "
                        r"(gcc|clang) \d+\.\d+\.\d+\)\n", proc.stdout), proc.stdout
    assert json.loads(rdmabench("version", "--json").stdout)["compiler"] == \
        re.search(r"(gcc|clang) \S+(?=\)$)", proc.stdout.strip())[0]


def test_pattern_all_notes_only_a_pattern_it_runs_at_no_size():
    """With the atomics (8 B only) every plain run printed two notes before its first line; a
    pattern that runs at some of the sizes says nothing, one that runs at none is named once."""
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--timeout", "1", "--pattern", "all")
    assert "leaves out" not in proc.stderr, proc.stderr
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--timeout", "1", "--sizes", "2,4096")
    notes = [line for line in proc.stderr.splitlines() if "leaves out" in line]
    assert notes == [f"rdmabench: note: --pattern all leaves out {p} at 2, 4096 B (atomics work on "
                     "8-byte operands)" for p in ("fetch_add", "compare_swap")], proc.stderr


def test_srq_with_pattern_all_leaves_out_what_takes_no_receives():
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--timeout", "1", "--srq", "--pattern", "all")
    said = [line for line in proc.stderr.splitlines() if "leaves out" in line]
    assert said == ["rdmabench: note: --pattern all leaves out write, read, fetch_add, compare_swap "
                    "(its target takes no receives, which --srq shares)"], proc.stderr


@pytest.mark.parametrize("transport, notes", [
    ("uc", ["read, fetch_add, compare_swap (needs a reliable connected transport, not uc)"]),
    ("ud", ["write, write_imm (needs a connected transport, not ud)",
            "read, fetch_add, compare_swap (needs a reliable connected transport, not ud)"]),
])
def test_pattern_all_names_what_a_transport_leaves_out_once_per_reason(transport, notes):
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--timeout", "1", "--transport", transport,
                     "--pattern", "all")
    said = [line for line in proc.stderr.splitlines() if "leaves out" in line]
    assert said == [f"rdmabench: note: --pattern all leaves out {n}" for n in notes], proc.stderr


@pytest.mark.parametrize("args, says", [
    (("--transport", "uc", "--pattern", "read"), "read: needs a reliable connected transport, not uc"),
    (("--transport", "uc", "--pattern", "fetch_add"), "fetch_add: needs a reliable connected"),
    (("--transport", "uc", "--pattern", "compare_swap"), "compare_swap: needs a reliable connected"),
    (("--transport", "uc", "--pattern", "send", "--bidir"), "--bidir is set over uc"),
    (("--transport", "uc", "--pattern", "send", "--cm", "rdmacm"), "rdma_cm connects RC only"),
    # and where oob is no way out (iWARP), says so: the advice is not RoCE's alone
    (("--transport", "uc", "--pattern", "send", "--cm", "rdmacm"), "an iWARP device, which connects"),
    (("--transport", "ud", "--pattern", "write"), "write: needs a connected transport, not ud"),
    (("--transport", "ud", "--pattern", "write_imm"), "write_imm: needs a connected transport"),
    (("--transport", "ud", "--pattern", "read"), "read: needs a reliable connected transport"),
    (("--transport", "ud", "--pattern", "fetch_add"), "fetch_add: needs a reliable connected"),
    (("--transport", "ud", "--pattern", "send", "--bidir"), "--bidir is set over ud"),
    (("--transport", "ud", "--pattern", "send", "--cm", "rdmacm"), "SIDR exchange is not"),
    (("--transport", "ud", "--pattern", "send", "--sizes", "8192"),
     "over ud a message is one packet: at most the path MTU (4096"),
    (("--srq", "--pattern", "write"), "write: its target takes no receives, which --srq shares"),
    (("--srq", "--pattern", "read"), "read: its target takes no receives"),
    (("--transport", "xyz"), "--transport"),
    (("--clock", "hpet"), "--clock: unknown 'hpet' (auto, tsc, monotonic)"),
])
def test_a_combination_the_transport_cannot_do_is_refused_before_connecting(args, says):
    """Each names the combination, exit 2, with no device and no server (none here)."""
    proc = rdmabench("run", "10.255.255.1", "--port", "1", "--timeout", "1", *args)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr.strip().splitlines()[-1], proc.stderr


@pytest.mark.parametrize("args, says", [
    (("--post-list", "0"), "--post-list"),
    (("--post-list", "2000"), "--post-list"),
    (("--post-list", "8", "--mode", "lat"), "--post-list chains bw sends"),
    (("--post-list", "120", "--mode", "bw"), "it must be at most 113"),
    (("--post-list", "64", "--mode", "bw", "--tx-depth", "64"), "raise --tx-depth"),
])
def test_a_post_list_the_send_queue_cannot_take_is_refused(args, says):
    """A chain longer than the queue, or one that leaves no signalled send outstanding when
    it does not fit (--tx-depth 128 + 1 - --signal-every 16 = 113), would stall the run."""
    proc = rdmabench("run", "10.255.255.1", "--port", "1", "--timeout", "1", "--pattern", "send",
                     *args)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr.strip().splitlines()[-1], proc.stderr


def test_a_chain_of_one_is_no_chain_and_lat_takes_it():
    """--post-list 1 is the default, and a search's lat point carries it: run, whose rule the
    search shares, takes it with --mode lat (it refused it once: a chain length given at all)."""
    proc = rdmabench("run", "10.255.255.1", "--port", "1", "--timeout", "1", "--pattern", "send",
                     "--post-list", "1", "--mode", "lat")
    assert proc.returncode != 2, proc.stderr
    assert "--post-list" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("command", ["run", "serve"])
@pytest.mark.parametrize("value", ["x", "-1", "99999", ""])
def test_numa_takes_a_node_number_or_off(command, value):
    host = ["127.0.0.1"] if command == "run" else []
    proc = rdmabench(command, *host, "--port", "1", "--numa", value)
    assert proc.returncode == 2 and "--numa" in proc.stderr and "or off" in proc.stderr, \
        proc.stderr


@pytest.mark.parametrize("args", [("serve", "localhost"), ("devices", "extra"),
                                  ("doctor", "now"), ("serve", "--port", "1", "x")])
def test_commands_without_positionals_refuse_a_stray_one(args):
    """`serve localhost` and `devices extra` passed (issue 34): the word was ignored."""
    proc = rdmabench(*args)
    assert proc.returncode == 2 and f"unexpected argument '{args[-1]}'" in proc.stderr, \
        proc.stdout + proc.stderr


def test_the_command_list_is_two_aligned_columns():
    """The usage's list of commands is a column of names and one of what each does, aligned with
    spaces: a tab put "mesh" at column 8 and "devices" at 16 in a terminal, and the man page,
    which fills what it is given, ran the two together (issue 66)."""
    listed = rdmabench("--help").stdout.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    lines = listed.splitlines()
    assert len(lines) >= 8 and "\t" not in listed, listed
    starts = {re.match(r"^  \S+ {2,}", line).end() for line in lines}
    assert len(starts) == 1, listed
    assert commands_in_help(rdmabench("--help").stdout) == [line.split()[0] for line in lines]


def test_help_command_prints_that_commands_help():
    """`rdmabench help run` printed the top-level help (issue 34)."""
    proc = rdmabench("help", "run")
    assert proc.returncode == 0 and "--pattern" in proc.stdout and "Commands:" not in proc.stdout
    proc = rdmabench("help", "nonsense")
    assert proc.returncode == 2 and "unknown command 'nonsense'" in proc.stderr
    assert "Commands:" in rdmabench("help").stdout


@pytest.mark.parametrize("name", ["UC", "Ud", "RC"])
def test_perftest_upper_case_transport_names_are_taken(name):
    """perftest's `-c UC` spelling: `--transport UC` was refused as unknown (issue 34)."""
    proc = rdmabench("run", "10.255.255.1", "--transport", name, "--pattern", "send")
    assert proc.returncode == 3, proc.stderr  # past the options: no device here


@pytest.mark.parametrize("option, value", [("--pattern", "write, read"), ("--qps", "1, 2"),
                                           ("--mode", "bw, lat"), ("--cpus", "0, 1")])
def test_a_space_after_a_comma_is_forgiven_everywhere(option, value):
    """`--pattern "write, read"` was refused over the space that `--sizes "2, 64K"` forgave."""
    proc = rdmabench("run", "10.255.255.1", option, value, "--threads", "2")
    assert proc.returncode == 3, proc.stderr  # past the options: no device here


def test_out_dash_is_refused_pointing_at_json(tmp_path):
    """`--out -` wrote a file named '-' (issue 34)."""
    proc = subprocess.run([str(EXE), "run", "10.255.255.1", "--out", "-"], capture_output=True,
                          text=True, timeout=30, cwd=tmp_path)
    assert proc.returncode == 2 and "give --json" in proc.stderr, proc.stderr
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("command", ["run", "serve"])
def test_the_testing_only_option_is_not_in_the_users_help(command):
    proc = rdmabench(command, "--help")
    assert proc.returncode == 0 and "--port" in proc.stdout
    assert "debug-corrupt" not in proc.stdout


@pytest.mark.parametrize("args, says", [
    (("serve", "--prot", "1"), "unknown option '--prot'; did you mean --port? (see rdmabench serve --help)"),
    (("devices", "--jsn"), "unknown option '--jsn'; did you mean --json? (see rdmabench devices --help)"),
    (("doctor", "--jsn"), "unknown option '--jsn'; did you mean --json? (see rdmabench doctor --help)"),
    (("mesh", "--prot", "1"), "unknown option '--prot'; did you mean --port? (see rdmabench mesh --help)"),
    (("version", "--jsn"), "unknown option '--jsn'; did you mean --json? (see rdmabench version --help)"),
    (("serve", "--ib-dev", "mlx5_0"), "unknown option '--ib-dev'; did you mean --device NAME?"),
    (("serve", "-n", "5"), "unknown option '-n' (see rdmabench serve --help)"),  # serve has no --iters
])
def test_every_command_suggests_and_maps_like_run(args, says):
    """serve, devices, doctor and mesh printed cxxopts' raw "Option 'prot' does not exist"."""
    proc = rdmabench(*args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


@pytest.mark.parametrize("flag, ours", [("-I", "--inline N"),
                                        ("--use-srq", "--srq"), ("--use_srq", "--srq")])
def test_perftest_post_list_inline_and_srq_flags_are_mapped(flag, ours):
    proc = rdmabench("run", "127.0.0.1", flag, "8")
    assert proc.returncode == 2 and f"unknown option '{flag}'; did you mean {ours}?" in proc.stderr, \
        proc.stderr


def test_a_near_miss_is_told_the_option_of_the_same_first_letter():
    """--itr was told '--mtu' (as near by edits as --iters)."""
    proc = rdmabench("study", "polling", "127.0.0.1", "--itr", "5")
    assert proc.returncode == 2 and "did you mean --iters?" in proc.stderr, proc.stderr


@pytest.mark.parametrize("option", ["--lat-size", "--size"])
def test_mesh_blames_the_size_option_it_was_given(option):
    proc = rdmabench("mesh", option, "0")
    assert proc.returncode == 2 and f"{option} '0': '0' is no size: a size is at least 1 byte" \
        in proc.stderr, proc.stderr


def test_control_characters_are_escaped_not_echoed():
    """Whichever option refuses a value, its error shows the value escaped."""
    for args in (("run", "127.0.0.1", "--pattern", "wr\x01ite\x1b[2J"), ("r\x1bun",),
                 ("run", "127.0.0.1", "--post-api", "e\x01x\x1b[2J"),
                 ("run", "127.0.0.1", "--arrivals", "fi\x01xed\x1b[2J")):
        proc = rdmabench(*args)
        assert proc.returncode == 2, proc.stderr
        assert "\x1b" not in proc.stderr and "\x01" not in proc.stderr, repr(proc.stderr)
        assert "\\x1b" in proc.stderr, proc.stderr


def test_a_spec_error_names_the_option_not_the_spec_field():
    proc = rdmabench("run", "127.0.0.1", "--mtu", "333")
    assert proc.returncode == 2, proc.stderr
    assert "--mtu is 333; it must be 256" in proc.stderr and "spec field" not in proc.stderr, \
        proc.stderr


def test_a_bare_run_says_it_runs_the_quick_profile_and_how_to_get_the_full_sweep():
    """A bare `run HOST` planned 468 benchmarks with Google Benchmark choosing how long each."""
    proc = rdmabench("run", "127.0.0.1", "--port", "1")
    note = "a short default run (--profile quick): write bw and lat, busy CQ, 2 B, 4 KiB and 64 KiB"
    assert note in proc.stderr and "--profile full" in proc.stderr, proc.stderr


@pytest.mark.parametrize("args", [("--profile", "full"), ("--pattern", "all"), ("--sizes", "64K"),
                                  ("--mode", "bw"), ("--cq", "event"), ("--profile", "quick")])
def test_a_run_that_says_what_to_run_gets_no_note(args):
    proc = rdmabench("run", "127.0.0.1", "--port", "1", *args)
    assert "a short default run" not in proc.stderr, proc.stderr


def test_an_unknown_profile_is_refused():
    proc = rdmabench("run", "127.0.0.1", "--profile", "fast")
    assert proc.returncode == 2 and "--profile: unknown 'fast' (quick, full)" in proc.stderr


def commands():
    """The commands rdmabench's own usage lists."""
    usage = rdmabench("--help").stdout
    listed = usage.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in listed.splitlines()]


def smaller_stack(kib):
    return lambda: resource.setrlimit(resource.RLIMIT_STACK, (kib * 1024, kib * 1024))


def test_no_argument_of_any_length_crashes_any_command():
    """An option of about 35,000 characters (and a number of as many digits) crashed every
    command with SIGSEGV: cxxopts' std::regex recurses once a character. Under a 1 MiB stack,
    4,096 characters did."""
    listed = commands()
    assert "run" in listed and "serve" in listed, listed
    for command in listed:
        for argument in ("--" + "a" * 35_000, "--port=" + "1" * 35_000):
            proc = rdmabench(command, argument)
            assert proc.returncode == 2 and "bytes long" in proc.stderr, (command, proc.stderr)
    for args, named in ((("run", "h", "--iters", "1" * 100_000), "argument 4 ('1111"),
                        (("run", "h", "--pattern=" + "w" * 50_000), "argument 3 ('--pattern=www")):
        proc = rdmabench(*args)
        assert proc.returncode == 2 and named in proc.stderr, proc.stderr[:300]
    small = subprocess.run([str(EXE), "run", "h", "--iters", "1" * 4000], capture_output=True,
                           text=True, timeout=30, preexec_fn=smaller_stack(1024))
    assert small.returncode == 2 and "ulimit -s" in small.stderr, small.stderr[:300]


def test_a_search_report_to_replay_is_read_within_bounds(tmp_path):
    """A report nested 100,000 deep ended `search --replay` with an internal error (exit 1).
    A file that cannot be read as JSON is a bad input file (2), as tools/plot and tools/compare
    say; JSON that is not a search report does not follow its schema (13)."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    proc = rdmabench("search", "127.0.0.1", "--replay", str(deep))
    assert proc.returncode == 2 and "nests deeper than 64 levels" in proc.stderr, proc.stderr
    proc = rdmabench("search", "127.0.0.1", "--replay", str(tmp_path / "absent.json"))
    assert proc.returncode == 2 and "cannot read it" in proc.stderr, proc.stderr


@pytest.mark.parametrize("option", ["--replay", "--state"])
def test_a_search_file_that_is_not_json_is_a_bad_input_read_before_a_device_is_looked_for(
        tmp_path, option):
    """`search --replay` of a text file exited 13 where tools/plot and tools/compare say 2, and a
    damaged --state file was read only after the device was found (this host has none: 3)."""
    text = tmp_path / "notes.txt"
    text.write_text("not json at all\n")
    proc = rdmabench("search", "127.0.0.1", option, str(text), "--budget", "1s")
    assert proc.returncode == 2 and str(text) in proc.stderr and "not JSON" in proc.stderr, \
        proc.stderr


def test_json_that_is_not_a_search_report_does_not_follow_its_schema(tmp_path):
    other = tmp_path / "other.json"
    other.write_text('{"schema": "something-else/1"}')
    proc = rdmabench("search", "127.0.0.1", "--replay", str(other))
    assert proc.returncode == 13 and "not a rdmabench-search/1 report" in proc.stderr, proc.stderr


@pytest.mark.parametrize("dimension, says", [
    ({"option": "out", "values": ["/tmp/x"]}, "--out, which rdmabench search does not"),
    ({"option": "qps", "values": ["1", "9\u001b[2J"]}, "--qps value '9\\x1b[2J'"),
])
def test_a_search_reports_space_holds_only_what_search_explores(tmp_path, dimension, says):
    """A replay measures each point through the setters of the options search explores: a
    report whose space names another option, or a value no range declares, ended the replay
    with an internal error (exit 1) once a point was measured; it is a report that does not
    follow its schema (13), said before a device is looked for, its text made printable."""
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"schema": "rdmabench-search/1", "findings": [],
                                  "space": [{"option": "pattern", "values": ["write"]},
                                            dimension]}))
    proc = rdmabench("search", "127.0.0.1", "--replay", str(report))
    assert proc.returncode == 13 and says in proc.stderr, proc.stderr
    assert "\x1b" not in proc.stderr, repr(proc.stderr)


@pytest.mark.parametrize("args, says", [
    (("--min-effect", "-1"), "--min-effect '-1': give a number from 0 to 100"),
    (("--min-effect", "101"), "--min-effect '101': give a number from 0 to 100"),
    (("--min-effect", "nan"), "--min-effect 'nan': give a number from 0 to 100"),
    (("--min-effect", "2abc"), "--min-effect '2abc': give a number from 0 to 100"),
    (("--repetitions", "1"), "--repetitions '1': give a count from 2 to 20"),
    (("--budget", "5y"), "--budget '5y': give a time from 1s to 168h (5, 5s, 250ms"),
    (("--points", "0"), "--points '0': give a count from 1 to 100000"),
    (("--points", "100001"), "--points '100001': give a count from 1 to 100000"),
    (("--points", "many"), "--points")])
def test_search_refuses_bad_options_before_it_looks_for_a_device(args, says):
    proc = rdmabench("search", "127.0.0.1", *args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


CONNECTION_REFUSALS = [("--timeout", "0"), ("--timeout", "90000"), ("--port", "0"),
                       ("--port", "70000"), ("--wait", "-1"), ("--wait", "5", "--no-wait"),
                       ("--ib-port", "0"), ("--ib-port", "256"), ("--cm", "tcp"),
                       ("--ib-port", "2", "--cm", "rdmacm")]


@pytest.mark.parametrize("args", CONNECTION_REFUSALS)
def test_search_refuses_a_connection_option_as_run_does(args):
    """Issue 48: search lacked --wait, --gid-index, --ib-port and --cm and took --timeout to
    3600 s where run takes 86400. The options are one declaration now: the same values are
    refused with the same words, exit 2, before a device is looked for."""
    run = rdmabench("run", "127.0.0.1", *args)
    search = rdmabench("search", "127.0.0.1", "--state", "/nonexistent/state.json", *args)
    said = [p.stderr.split(": ", 1)[-1] for p in (run, search)]
    assert (run.returncode, search.returncode) == (2, 2) and said[0] == said[1], said


@pytest.mark.parametrize("args", [("--timeout", "7200"), ("--wait", "600"), ("--no-wait",),
                                  ("--gid-index", "3"), ("--ib-port", "2"), ("--cm", "oob"),
                                  ("--cm", "rdmacm")])
def test_search_takes_every_connection_option_run_takes(args):
    """Taken by both: each then goes on to look for a device, which this host lacks (exit 3)."""
    run = rdmabench("run", "127.0.0.1", *args)
    search = rdmabench("search", "127.0.0.1", "--state", "/nonexistent/state.json", *args)
    assert (run.returncode, search.returncode) == (3, 3), (run.stderr, search.stderr)


def option_helps(text):
    """Each option's help in a --help text, its wrapped lines joined."""
    options, current = [], None
    for line in text.splitlines():
        if re.match(r"^\s+-", line):
            current = [line.strip()]
            options.append(current)
        elif current is not None and re.match(r"^\s{10,}\S", line):
            current.append(line.strip())
        else:
            current = None
    return [" ".join(o) for o in options]


def test_no_option_shows_two_defaults():
    """-d showed "(default: the first) (default: "")" in run, serve, mesh and search: the help
    says what leaving the option out means, once."""
    commands = [c["name"] for c in json.loads(rdmabench("version", "--json").stdout)["commands"]]
    assert commands == commands_in_help(rdmabench("--help").stdout), commands
    twice = []
    for command in commands:
        helps = option_helps(rdmabench("help", command).stdout)
        assert helps, command
        twice += [(command, h) for h in helps if h.count("(default:") > 1]
    assert not twice, twice


def test_every_unknown_option_is_reported_at_once_with_what_to_write():
    """A perftest line of six flags it does not take needed six tries: only the first was named,
    and -c UD was told --transport without saying ud."""
    proc = rdmabench("run", "10.255.255.1", "-f", "2", "--use_event", "-A", "FETCH_AND_ADD",
                     "-c", "UD", "--time", "5", "-J")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[0] == ("rdmabench run: 6 arguments it does not take "
                        "(see rdmabench run --help):"), proc.stderr
    assert lines[1:] == ["  unknown option '-f'; perftest's -f is --margin TIME; iperf3's is its "
                         "format: not needed, the table prints MiB/s and Gb/s",
                         "  unknown option '--use_event'; did you mean --cq event?",
                         "  unknown option '-A'; perftest's -A is --pattern fetch_add; iperf3's is "
                         "CPU affinity: --cpus LIST",
                         "  unknown option '-c'; perftest's -c is --transport ud; iperf3's is the "
                         "server to reach: HOST alone (rdmabench run HOST)",
                         "  unknown option '--time'; did you mean --duration TIME?",
                         "  unknown option '-J'; did you mean --json?"], proc.stderr


@pytest.mark.parametrize("args, advice", [
    (("-P", "4"), "'-P'; did you mean --qps N?"),
    (("--parallel", "4"), "'--parallel'; did you mean --qps N?"),
    (("--interval", "1"), "'--interval'; did you mean --report-every TIME?"),
    (("--reverse",), "'--reverse'; did you mean --pattern read (the client reads"),
    (("--send_with_imm",), "'--send_with_imm'; did you mean --pattern send_imm?"),
    (("-A", "CMP_AND_SWAP"), "'-A'; perftest's -A is --pattern compare_swap; iperf3's is CPU "
                             "affinity: --cpus LIST"),
    (("-l", "8"), "'-l'; perftest's -l is --post-list N; iperf3's is a length: --sizes BYTES"),
    (("--connection=UC",), "'--connection'; did you mean --transport uc?"),
])
def test_iperf3_and_perftest_flags_are_told_ours(args, advice):
    """iperf3's -P, --parallel, --interval and --reverse and perftest's --send_with_imm got no
    hint; a flag's value is not reported as a stray argument of its own."""
    proc = rdmabench("run", "10.255.255.1", *args)
    assert proc.returncode == 2 and f"unknown option {advice}" in proc.stderr, proc.stderr
    assert "unexpected argument" not in proc.stderr, proc.stderr


def test_a_letter_perftest_and_iperf3_mean_differently_by_is_told_both_meanings():
    """Issue 64: an iperf3 user's `run -c H -t 10 -P 4 -R -i 1` was told perftest's meanings
    alone: -c as --transport, -t as --tx-depth, -R as --cm rdmacm, -i as --ib-port."""
    proc = rdmabench("run", "10.255.255.1", "-c", "H", "-t", "10", "-P", "4", "-R", "-i", "1")
    assert proc.returncode == 2, proc.stderr
    for said in ("'-t'; perftest's -t is --tx-depth N; iperf3's is a time: --duration TIME",
                 "'-R'; perftest's -R is --cm rdmacm; iperf3's is reverse: --pattern read",
                 "'-i'; perftest's -i is --ib-port N; iperf3's is an interval: --report-every TIME",
                 "'-c'; perftest's -c is --transport h; iperf3's is the server to reach: HOST alone",
                 "'-P'; did you mean --qps N?"):
        assert f"unknown option {said}" in proc.stderr, proc.stderr


def test_iperf3s_meaning_is_left_out_where_the_command_lacks_it():
    """serve takes neither perftest's -w (--min-bw) nor iperf3's (--tx-depth): no option it
    lacks is suggested."""
    proc = rdmabench("serve", "-w", "5")
    assert proc.returncode == 2 and "unknown option '-w'" in proc.stderr, proc.stderr
    assert "iperf3" not in proc.stderr and "--tx-depth" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("word, advice", [
    ("-V", "did you mean rdmabench --version?"),
    ("runn", "did you mean rdmabench run?"),
    ("serv", "did you mean rdmabench serve?"),
    ("10.0.0.2", "to measure against that host: rdmabench run 10.0.0.2"),
    ("localhost", "to measure against that host: rdmabench run localhost"),
])
def test_an_unknown_command_is_told_the_one_it_meant(word, advice):
    """`rdmabench -V`, `rdmabench HOST` and `runn` said "unknown command" and no more."""
    proc = rdmabench(word)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"rdmabench: unknown command '{word}'; {advice}"), proc.stderr


def test_an_unknown_command_far_from_every_one_gets_the_list_alone():
    proc = rdmabench("frobnicate")
    assert proc.returncode == 2 and "unknown command 'frobnicate'\n" in proc.stderr, proc.stderr
    assert "Commands:" in proc.stderr


@pytest.mark.parametrize("args", [("--pattern", "WRITE", "--mode", "BW", "--cq", "BUSY"),
                                  ("--pattern", "Write,READ,write", "--cq", "Hybrid:5;busy"),
                                  ("--sizes", "4KiB,64KiB", "--transport", "Rc")])
def test_run_takes_names_in_any_case_as_it_takes_transport_ud(args):
    """--transport UD was taken, --pattern WRITE, --mode BW and --cq BUSY refused."""
    proc = rdmabench("run", "10.255.255.1", *args)
    assert proc.returncode == 3 and "no RDMA device" in proc.stderr, proc.stderr  # past the options


@pytest.mark.parametrize("mode", ["all", "ALL", "BW", "lat,bw,lat"])
def test_mesh_takes_mode_as_run_does(mode):
    """`mesh --mode all` was refused where run takes it."""
    proc = rdmabench("mesh", "--mode", mode)
    assert proc.returncode == 2 and "mesh needs at least 2 ranks" in proc.stderr, proc.stderr


def test_an_anchored_filter_is_told_the_names_end_in_manual_time():
    """`--benchmark_filter '^write/bw/busy/65536$'` matched nothing, and nothing said why."""
    proc = rdmabench("run", "10.255.255.1", "--benchmark_filter=^write/bw/busy/65536$")
    assert proc.returncode == 2, proc.stderr
    assert "end an anchored filter with /manual_time$" in proc.stderr, proc.stderr
    proc = rdmabench("run", "10.255.255.1", "--benchmark_filter=^write/bw/busy/65536/manual_time$")
    assert proc.returncode == 3 and "no RDMA device" in proc.stderr, proc.stderr
    assert "/manual_time$)" in rdmabench("run", "--help").stdout


def test_a_flood_of_unknown_options_is_named_twenty_at_a_time():
    proc = rdmabench("run", "10.255.255.1", *[f"--bogus{i}" for i in range(500)])
    assert proc.returncode == 2, proc.stderr[:300]
    lines = proc.stderr.strip().splitlines()
    assert lines[0].startswith("rdmabench run: 500 arguments it does not take"), lines[0]
    assert len(lines) == 22 and lines[-1] == "  and 480 more", lines[-3:]


def test_a_latency_run_whose_samples_the_host_cannot_hold_is_refused_before_it_connects():
    # Before: accepted (the count is within --iters' bound), and iterations x threads x 8 bytes
    # of samples were allocated once connected; and 13 digits and more were not a count at all,
    # though the refusal named a range up to 70368744177664.
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--mode", "lat", "--iters",
                     "70000000000000")
    assert proc.returncode == 2, proc.stderr
    assert "of samples (8 bytes a message), more than" in proc.stderr and \
        "half this host's memory" in proc.stderr, proc.stderr
    proc = rdmabench("run", "127.0.0.1", "--port", "1", "--mode", "lat", "--iters", "5000",
                     "--dry-run")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("args, says", [
    # Before: "'0' is not a size", no hint that a size is at least a byte.
    (["run", "127.0.0.1", "--sizes", "0", "--dry-run"], "'0' is no size: a size is at least 1 byte"),
    # Before: "'all' is unknown", though --cq all is taken alone.
    (["run", "127.0.0.1", "--cq", "all,busy", "--dry-run"], "'all' stands alone (--cq all"),
    # Before: "'event,client=event' is unknown".
    (["run", "127.0.0.1", "--cq", "client=busy,server=event,client=event", "--dry-run"],
     "names client= twice: a choice is one client=S and one server=S; separate choices with ';'"),
    # Before: "unknown option '-n'; perftest's -n is --iters COUNT ...".
    (["mesh", "-np", "4"], "-np is mpirun's: the launcher starts the ranks (mpirun -np 4"),
    # Before: "give a size such as 256M or 2G", without --sizes' reason.
    (["serve", "--max-memory", "1KB"], "K, M and G are KiB, MiB and GiB (powers of 1024)"),
    (["serve", "--max-memory", "0"], "'0' is no size"),
    # Before: accepted, a run against the host "".
    (["run", "", "--dry-run"], "HOST is empty: give the address or name of the host"),
    (["search", ""], "HOST is empty"),
])
def test_errors_say_what_to_do(args, says):
    proc = rdmabench(*args)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
