"""What the wire sees of a keyed run (issue 65): the control channel was authenticated by hand
and sent every message in clear, the rdma_cm token and the buffer's address and rkey among
them, so whoever could read it could connect first with the token or read and write the run's
buffer. With --key it is TLS 1.3: a capture of keyed runs, over rdma_cm and out of band, holds
none of the messages' words."""
import subprocess

from conftest import free_port, run, server_address, Server, wait_for_line

RUN = ["--pattern", "write", "--mode", "bw", "--cq", "busy", "--sizes", "4096", "--iters", "200",
       "--counters", "off", "--no-wait"]


def test_a_capture_of_keyed_runs_holds_no_spec_token_or_rkey_in_clear(rdmabench, layout,
                                                                     tmp_path):
    key = tmp_path / "key"
    key.write_text("an operator's secret of enough length\n")
    key.chmod(0o600)
    host, _ = server_address(layout)
    port = free_port()
    capture = tmp_path / "wire.pcap"
    with Server(rdmabench, port, tmp_path, "--key", str(key)) as srv:
        dump = subprocess.Popen(["tcpdump", "-i", "any", "-U", "-s", "0", "-w", str(capture),
                                 f"tcp port {port}"], stderr=subprocess.PIPE, text=True)
        try:
            wait_for_line(dump.stderr, lambda line: "listening on" in line, "tcpdump listening")
            for cm in ("rdmacm", "oob"):
                proc = run([rdmabench, "run", host, "--port", str(port), "--key", str(key),
                            "--cm", cm, *RUN], timeout=120)
                assert proc.returncode == 0, proc.stderr[-2000:]
        finally:
            dump.terminate()  # -U: every packet was written as it came
            dump.wait(timeout=10)
        assert srv.text().count(" done [1 set up") == 2, srv.text()
    wire = capture.read_bytes()
    assert len(wire) > 8000, len(wire)  # two sessions' handshakes and messages
    for clear in (b'"type"', b'"spec"', b'"token"', b'"rkey"', b'"hostname"', b"setup"):
        assert clear not in wire, clear
