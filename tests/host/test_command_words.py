"""tools/rdmabench_tools/command_words.py: a helper's default options, replaced by the ones a
test or tool gives (rdmabench refuses an option given twice, issue 64)."""
from rdmabench_tools.command_words import replacing


def test_an_option_given_replaces_the_default_and_its_value():
    assert replacing(["--pattern", "send", "--cq", "event", "--verify"], ["--pattern", "write"]) \
        == ["--cq", "event", "--verify", "--pattern", "write"]


def test_either_spelling_replaces_either():
    assert replacing(["--timeout", "30", "--json"], ["--timeout=5"]) == ["--json", "--timeout=5"]
    assert replacing(["--timeout=30", "--json"], ["--timeout", "5"]) == ["--json", "--timeout", "5"]


def test_a_switch_is_kept_or_replaced_alone_and_words_become_text():
    assert replacing(["--verify", "--iters", 300], ["--verify"]) == ["--iters", "300", "--verify"]
    assert replacing(["--iters", 300], []) == ["--iters", "300"]
