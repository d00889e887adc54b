"""tools/vs-perftest gives rdmabench the signalling perftest really uses in each case. perftest
asks for a completion every 100 sends (--cq-mod) unless a message is larger than 8 KiB on a
connected transport without events: there it turns moderation off and signals every send
(perftest_parameters.c, MSG_SIZE_CQ_MOD_LIMIT). Measured on siw (2026-12-06, ordinary guest,
kprobe on siw_sqe_complete): ib_write_bw -s 65536 -n 3000 completed 3,032 signalled writes,
rdmabench --signal-every 100 31; siw then copies perftest's writes and sends ours without
copying, which in the guest costs more, so the comparison measured two different workloads."""
import pytest

from rdmabench_guest import vs_perftest_guest as vs


def signal_every(case):
    """The --signal-every the script gives rdmabench for `case`."""
    _, client = vs.our_commands(vs.Path("/build"), case, 1000, "/tmp/out.json")
    return [client[i + 1] for i, word in enumerate(client) if word == "--signal-every"]


def case(label, size, cq="busy", perftest_args=(), our_args=()):
    return vs.Case(label, "ib_write_bw", "write", "bw", cq, size, perftest_args, our_args)


@pytest.mark.parametrize("size", [8193, 65536])
def test_above_8_kib_on_a_connected_transport_every_send_is_signalled_as_perftest_does(size):
    assert signal_every(case("write bw", size)) == ["1"]
    assert signal_every(case("write bw uc", size, perftest_args=("-c", "UC"),
                             our_args=("--transport", "uc"))) == ["1"]


@pytest.mark.parametrize("size", [2, 4096, 8192])
def test_up_to_8_kib_a_completion_every_100_sends(size):
    assert signal_every(case("write bw", size)) == ["100"]


def test_ud_and_events_keep_perftest_s_moderation_at_any_size():
    assert signal_every(case("send bw ud", 65536, perftest_args=("-c", "UD"),
                             our_args=("--transport", "ud"))) == ["100"]
    assert signal_every(case("send bw events", 65536, cq="event")) == ["100"]


def test_a_case_s_own_signalling_replaces_the_default():
    listed = case("write bw -l 8", 65536, perftest_args=("-l", "8"),
                  our_args=("--post-list", "8", "--signal-every", "8"))
    assert signal_every(listed) == ["8"]


def test_perftest_told_its_moderation_is_taken_at_its_word():
    assert signal_every(case("write bw -Q 50", 65536, perftest_args=("-Q", "50"))) == ["50"]


def test_every_listed_case_gets_one_signalling_and_the_64_kib_bw_cases_every_send():
    cases = vs.ORDINARY + vs.DETERMINISTIC + vs.SIW_ORDINARY + vs.SIW_DETERMINISTIC
    signalling = {c.label: signal_every(c) for c in cases}
    assert signalling["write bw 64K"] == signalling["read bw 64K"] == ["1"]
    assert signalling["write bw 64K -c UC"] == ["1"]
    assert signalling["send bw 4K"] == signalling["send bw 4K -e -c UD"] == ["100"]
    assert all(len(s) == 1 for s in signalling.values()), signalling
