"""Issue 64: every time option of every command reads its value through one parser of times
(5, 5s, 250ms, 2m, 1h; a number alone is seconds) and refuses anything else naming the option
and what it takes. Before, cxxopts' numbers took "1m" as one second, "10ms" as ten seconds,
"5abc" as 5 and "5,5" as 5; serve --max-duration 5m capped clients at five seconds."""
import pytest

from conftest import run_rdmabench as rdmabench

TAKES = "(5, 5s, 250ms, 40us, 2m or 1h; a number alone is seconds)"


# (command words, option, value, range it names): each value was accepted before
REFUSED = [
    (("run", "10.255.255.1"), "--timeout", "5abc", "1ms to 24h"),
    (("run", "10.255.255.1", "--duration", "1"), "--margin", "1hour", "0s to 1h"),
    (("run", "10.255.255.1"), "--duration", "5,5", "1ms to 24h"),
    (("run", "10.255.255.1"), "--wait", "2x", "0s to 24h"),
    (("run", "10.255.255.1"), "--report-every", "1sec", "100ms to 1h"),
    (("search", "10.255.255.1"), "--duration", "1m2", "10ms to 1m"),
    (("search", "10.255.255.1"), "--margin", "0.1.2", "0s to 10s"),
    (("search", "10.255.255.1"), "--timeout", "3 s", "1ms to 24h"),
    (("serve", "--port", "1"), "--max-duration", "5min", "1s to 24h"),
    (("serve", "--port", "1"), "--timeout", "1e3", "1ms to 24h"),
    (("mesh",), "--timeout", "5abc", "1ms to 24h"),
    (("mesh", "--traffic", "ring"), "--duration", "2hours", "10ms to 1h"),
]


@pytest.mark.parametrize("words, option, value, span", REFUSED)
def test_a_time_that_is_not_one_is_refused_naming_what_it_takes(words, option, value, span):
    proc = rdmabench(*words, option, value)
    assert proc.returncode == 2, proc.stderr
    assert f"{option} '{value}': give a time from {span} {TAKES}" in proc.stderr, proc.stderr


@pytest.mark.parametrize("words, option, value", [
    (("serve", "--port", "1"), "--max-duration", "0.5s"),  # below its 1s
    (("serve", "--port", "1"), "--max-duration", "25h"),
    (("run", "10.255.255.1"), "--duration", "0.5ms"),
])
def test_a_time_out_of_range_is_refused_in_the_units_the_range_has(words, option, value):
    proc = rdmabench(*words, option, value)
    assert proc.returncode == 2 and f"{option} '{value}': give a time from" in proc.stderr, \
        proc.stderr


def test_a_time_finer_than_the_run_carries_is_refused_not_cut():
    proc = rdmabench("run", "10.255.255.1", "--duration", "1.5ms")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().endswith("--duration '1.5ms': give it in whole multiples of 1ms"), proc.stderr


TIME_OPTIONS = [("run", "--duration"), ("run", "--margin"), ("run", "--timeout"), ("run", "--wait"),
                ("run", "--report-every"), ("serve", "--timeout"), ("serve", "--max-duration"),
                ("search", "--duration"), ("search", "--margin"), ("search", "--timeout"),
                ("search", "--budget"), ("mesh", "--duration"), ("mesh", "--margin"),
                ("mesh", "--timeout")]


@pytest.mark.parametrize("command, option", TIME_OPTIONS)
def test_every_time_option_says_it_takes_a_time_in_help(command, option):
    """The help said "Seconds" and read only a number: each shows TIME, and the help says
    what a TIME is."""
    text = rdmabench(command, "--help").stdout
    assert f"{option} TIME " in text, text
    assert "TIME is 5, 5s, 250ms, 40us, 2m or 1h (a number alone is seconds)" in text, text


RUN = ("run", "10.255.255.1")
COUNTS = [(RUN, "--iters"), (RUN, "--warmup"), (("search", "10.255.255.1"), "--iters"),
          (("search", "10.255.255.1"), "--points"), (("search", "10.255.255.1"), "--warmup"),
          (("mesh",), "--iters"), (("mesh",), "--lat-iters"), (("mesh",), "--warmup"),
          # these took cxxopts' whole numbers (0x10 as 16, 10k refused unlike --iters')
          (RUN, "--tx-depth"), (RUN, "--rx-depth"), (RUN, "--signal-every"), (RUN, "--poll-batch"),
          (RUN, "--threads"), (RUN, "--outs"), (("search", "10.255.255.1"), "--repetitions"),
          (("mesh",), "--tx-depth"), (("mesh",), "--streams"), (("mesh",), "--repetitions"),
          (("mesh", "--traffic", "incast"), "--fan"), (("serve", "--port", "1"), "--max-qps"),
          (("serve", "--port", "1"), "--max-threads")]


@pytest.mark.parametrize("words, option", COUNTS)
def test_a_count_takes_a_multiplier_and_refuses_what_is_not_a_count(words, option):
    """search --budget took 20m while --iters 1k was refused: a count takes 10k and 1.5M now,
    in every command, and anything else is refused alike."""
    for bad in ("1.5", "10m", "1e3", "1,000", "-1", "0x10"):
        proc = rdmabench(*words, option, bad)
        assert proc.returncode == 2, (bad, proc.stderr)
        assert f"{option} '{bad}': give a count from" in proc.stderr, proc.stderr
        assert "(5000, 10k, 1.5M or 1G: k, M and G are thousands" in proc.stderr, proc.stderr


def test_search_bounds_its_warmup_as_run_does():
    """search took any --warmup up to 2^64 - 1 messages, unchecked."""
    proc = rdmabench("search", "10.255.255.1", "--warmup", "100000G")
    assert proc.returncode == 2 and "--warmup '100000G': give a count from 0 to" in proc.stderr, \
        proc.stderr


COUNT_HELP = [("run", "--tx-depth"), ("run", "--threads"), ("run", "--outs"), ("mesh", "--streams"),
              ("mesh", "--fan"), ("search", "--repetitions"), ("serve", "--max-qps")]


@pytest.mark.parametrize("command, option", COUNT_HELP)
def test_every_count_option_says_it_takes_a_count_in_help(command, option):
    text = rdmabench(command, "--help").stdout
    assert f"{option} COUNT " in text, text
    assert "COUNT is 5000, 10k, 1.5M or 1G" in text, text


# Numbers that name something (an index, a port, a level, a seed) read as plain digits: cxxopts'
# numbers took 0x10 as 16, and each said only "not a value --X takes" of what it refused.
NAMING_NUMBERS = [
    (("run", "10.255.255.1"), "--gid-index", "0x3", "a GID index from 0 to 255"),
    (("run", "10.255.255.1"), "--ib-port", "0x1", "a device port from 1 to 255"),
    (("run", "10.255.255.1"), "--sl", "0x2", "a service level from 0 to 15"),
    (("run", "10.255.255.1"), "--tclass", "0x20", "a traffic class from 0 to 255"),
    (("run", "10.255.255.1"), "--qp-timeout", "0x10", "an exponent from 0 to 31"),
    (("run", "10.255.255.1"), "--port", "0x4000", "a TCP port from 1 to 65535"),
    (("serve",), "--gid-index", "0x3", "a GID index from 0 to 255"),
    (("serve",), "--port", "+80", "a TCP port from 1 to 65535"),
    (("mesh",), "--gid-index", "1k", "a GID index from 0 to 255"),
    (("search", "10.255.255.1"), "--seed", "0x10", "a seed from 0 to 4294967295"),
]


@pytest.mark.parametrize("words, option, value, says", NAMING_NUMBERS)
def test_a_number_that_names_something_takes_plain_digits(words, option, value, says):
    proc = rdmabench(*words, option, value, "--timeout", "1")
    assert proc.returncode == 2, proc.stderr
    assert f"{option} '{value}': give {says}, in plain digits" in proc.stderr, proc.stderr


def test_inline_and_mtu_are_sizes():
    """--inline and --mtu were cxxopts numbers: 1K was "not a value --inline takes" while
    --sizes took it, and 0x400 was 1024."""
    proc = rdmabench("run", "10.255.255.1", "--inline", "1K", "--mtu", "2K", "--cm", "oob",
                     "--json", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "/inline:1024" in proc.stdout, proc.stdout
    for option, value in (("--mtu", "0x400"), ("--inline", "0x10"), ("--inline", "8K")):
        proc = rdmabench("run", "10.255.255.1", option, value, "--dry-run")
        assert proc.returncode == 2 and f"{option} '{value}': give a size from" in proc.stderr, \
            proc.stderr
