"""tools/rdmabench_guest/server_harness.py, the one way tools and tests start a server, wait until it is
ready and stop it, on stand-in servers (a few lines of Python)."""
import socket
import sys

import pytest

from rdmabench_guest import server_harness

LISTENER = """
import signal, socket, sys, time
signal.signal(signal.SIGTERM, lambda *a: (print('stopping on signal', flush=True), sys.exit(0)))
time.sleep(float(sys.argv[2]))
s = socket.socket(socket.AF_INET6); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('::', int(sys.argv[1]))); s.listen(); print('listening', flush=True)
while True: time.sleep(1)
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ready_once_the_port_listens_and_stopped_by_sigterm(tmp_path):
    port = free_port()
    assert not server_harness.listening(port)
    server = server_harness.Server([sys.executable, "-c", LISTENER, port, "0.3"], port,
                                   tmp_path / "log")
    assert server_harness.listening(port) and "listening" in server.text()
    assert server.stop() == 0
    assert "stopping on signal" in server.text()


def test_a_server_that_exits_first_is_an_error_quoting_its_log(tmp_path):
    port = free_port()
    with pytest.raises(server_harness.ServerError, match="(?s)exited 3 before it listened.*no device"):
        server_harness.Server([sys.executable, "-c", "print('no device'); raise SystemExit(3)"],
                              port, tmp_path / "log")


def test_a_server_that_never_listens_is_killed_after_the_timeout(tmp_path):
    port = free_port()
    with pytest.raises(server_harness.ServerError, match="did not listen .* within 0.5 s"):
        server_harness.Server([sys.executable, "-c", LISTENER, port, "30"], port,
                              tmp_path / "log", ready_timeout=0.5)
    assert not server_harness.listening(port)


STARTING = LISTENER.replace("print('listening', flush=True)",
                            "print('listening', flush=True); time.sleep(0.5); "
                            "print('serving on', flush=True)")


def test_with_a_ready_line_the_server_is_ready_once_it_says_so_not_once_it_listens(tmp_path):
    """rdmabench serve listens, then opens its devices and says "serving on": a test that
    read its descriptors in between (the loaded run of 2026-11-27) saw a passing burst."""
    port = free_port()
    server = server_harness.Server([sys.executable, "-c", STARTING, port, "0"], port,
                                   tmp_path / "log", ready_line="serving on")
    assert "serving on" in server.text(), server.text()
    assert server.stop() == 0
