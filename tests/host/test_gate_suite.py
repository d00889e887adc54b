"""tools/rdmabench_gate/gate_suite.py: how the gate's suite runs rdmabench's server and client
and what it says when a run fails (here on this machine, which has no RDMA device)."""
from conftest import RDMABENCH_EXE

from rdmabench_gate.gate_suite import Suite


def test_a_suite_run_that_fails_says_the_last_lines_of_both_logs(tmp_path, capsys):
    """A failed run of the gate's suite names what each side said last: in CI the client's
    "no message from the server within 60000 ms" came with an empty client log, and the server's,
    which would have said why, stayed in the guest (2026-12-06). Here the server finds no device."""
    out = tmp_path / "suite.json"
    rc = Suite(RDMABENCH_EXE.parent, out, 1, False).run_rows(out, "--cm", "oob")
    err = capsys.readouterr().err
    assert rc == 4, err
    assert "suite failed (exit 4)" in err
    assert f"the client log's last lines ({tmp_path / 'suite-client.log'})" in err, err
    assert f"the server log's last lines ({tmp_path / 'suite-server.log'}):\nrdmabench serve: no RDMA device found" in err, err
