"""Issue 64: an option that takes one value, given twice, is refused naming both values, by
every command. Before, cxxopts kept the last without a word: `--pattern write --pattern send`
ran send alone, and a second --port was the one taken."""
import pytest

from conftest import run_rdmabench as rdmabench


@pytest.mark.parametrize("words, option, first, second", [
    (("run", "10.255.255.1"), "--pattern", "write", "send"),
    (("run", "10.255.255.1"), "--port", "18515", "18516"),
    (("study", "polling", "10.255.255.1"), "--sizes", "2", "64K"),
    (("serve",), "--port", "1", "2"),
    (("search", "10.255.255.1"), "--budget", "1m", "2m"),
    (("mesh",), "--iters", "10", "20"),
    (("devices",), "--device", "rxe0", "rxe1"),
    (("doctor",), "--metrics", "/tmp/a.prom", "/tmp/b.prom"),
])
def test_an_option_given_twice_is_refused_naming_both_values(words, option, first, second):
    proc = rdmabench(*words, option, first, option + "=" + second)
    assert proc.returncode == 2, proc.stderr
    assert f"{option} given twice ('{first}', then '{second}'): give it once" in proc.stderr, \
        proc.stderr


def test_a_switch_given_twice_means_what_it_meant_once():
    proc = rdmabench("version", "--json", "--json")
    assert proc.returncode == 0, proc.stderr


def test_a_repeated_value_is_shown_printable():
    proc = rdmabench("run", "10.255.255.1", "--out", "a", "--out", "b\x1b[31m")
    assert proc.returncode == 2 and "\x1b" not in proc.stderr, repr(proc.stderr)
    assert "--out given twice" in proc.stderr, proc.stderr
