"""A server safe to leave running, on real rxe (lo): --bind, --allow, --key and the operator's
caps each refuse what they should with an error that names them (the client's exit status says
which kind: 4 for who may connect, 2 for what may be asked), the server logs one line per
client (its address, what it asked, what happened), and it serves a valid client after every
refusal. On lo every client comes from 127.0.0.1 unless it binds another address first, which a
plain socket here does to be refused while rdmabench is served."""
import hashlib
import json
import socket
import subprocess

import pytest

from conftest import free_port, PROTOCOL, Server, run
from rdmabench_tools.command_words import replacing

pytestmark = pytest.mark.layout("lo")

RUN = ["--pattern", "write", "--mode", "bw", "--cq", "busy", "--sizes", "4096", "--cm", "oob",
       "--counters", "off", "--no-wait"]


@pytest.fixture
def port():
    return free_port()


def client(rdmabench, port, *extra, host="127.0.0.1", timeout=60):
    length = () if "--iters" in extra or "--duration" in extra else ("--iters", "200")
    return run([rdmabench, "run", host, *replacing(["--port", port, *RUN, *length], extra)],
               timeout=timeout)


def served(rdmabench, port, srv, *extra):
    """A valid client is served, and the server logged it done with what it asked."""
    proc = client(rdmabench, port, *extra)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert srv.text().rstrip().endswith("client 127.0.0.1 done [1 set up (write/bw/busy/4096)]"), \
        srv.text()
    assert srv.proc.poll() is None


def hello_from(address, port, nonce=None):
    """A client from `address` (bound before it connects) says hello (of this protocol with a
    nonce, else of protocol 0); the server's answer."""
    hello = {"type": "hello", "protocol": PROTOCOL if nonce else 0, "version": "test"}
    if nonce:
        hello["nonce"] = nonce
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0)) as c:
        c.sendall(json.dumps(hello).encode() + b"\n")
        return json.loads(c.makefile().readline())


def test_allow_refuses_other_addresses_and_bind_listens_on_one(rdmabench, port, tmp_path):
    with Server(rdmabench, port, tmp_path, "--allow", "127.0.0.1/32,10.0.0.0/8") as srv:
        answer = hello_from("127.0.0.2", port)
        assert answer == {"type": "error", "exit_code": 4, "message": "this server does not answer "
                          "clients from 127.0.0.2 (its --allow list); ask its operator"}, answer
        assert "client 127.0.0.2: refused, not in --allow 127.0.0.1/32, 10.0.0.0/8" in srv.text()
        served(rdmabench, port, srv)
    other = free_port()
    with Server(rdmabench, other, tmp_path, "--allow", "10.0.0.0/8") as srv:
        refused = client(rdmabench, other)
        assert refused.returncode == 4, refused.stderr
        assert "server: this server does not answer clients from 127.0.0.1 (its --allow list)" \
            in refused.stderr, refused.stderr
    with Server(rdmabench, port + 2, tmp_path, "--bind", "127.0.0.1") as srv:
        elsewhere = client(rdmabench, port + 2, host="127.0.0.2")  # nothing listens there
        assert elsewhere.returncode == 4 and "connect" in elsewhere.stderr, elsewhere.stderr
        served(rdmabench, port + 2, srv)


def test_a_connect_loop_from_a_refused_address_cannot_fill_the_log(rdmabench, port, tmp_path):
    # Before: one log line per refused connection (2,000 refused connections: 2,002 lines).
    with Server(rdmabench, port, tmp_path, "--allow", "127.0.0.1/32") as srv:
        before = len(srv.text().splitlines())
        for _ in range(2000):
            with socket.create_connection(("127.0.0.1", port), timeout=10,
                                          source_address=("127.0.0.2", 0)) as c:
                c.makefile().readline()  # its refusal
        refused = [line for line in srv.text().splitlines()[before:] if "127.0.0.2" in line]
        assert refused == ["client 127.0.0.2: refused, not in --allow 127.0.0.1/32 (its further "
                           "refusals are counted, told each minute)"], refused[:5]
        served(rdmabench, port, srv)
        srv.stop()
        assert "client 127.0.0.2: refused 1999 more times within 60 s, not in --allow " \
            "127.0.0.1/32" in srv.text(), srv.text()[-2000:]


def test_a_key_is_proved_never_sent(rdmabench, port, tmp_path):
    key, wrong = tmp_path / "key", tmp_path / "wrong"
    key.write_text("an operator's secret of enough length\n")
    wrong.write_text("a guess at the secret, long enough\n")
    for f in (key, wrong):
        f.chmod(0o600)
    with Server(rdmabench, port, tmp_path, "--key", str(key)) as srv:
        missing = client(rdmabench, port)
        assert missing.returncode == 4 and "asks for a key (serve --key): give --key FILE" \
            in missing.stderr, missing.stderr
        # Mutual: TLS 1.3 with the key as a PSK fails for another key on either side.
        guessed = client(rdmabench, port, "--key", str(wrong))
        assert guessed.returncode == 4 and "TLS handshake with 127.0.0.1 failed" in \
            guessed.stderr and "a different --key file on each side" in guessed.stderr, \
            guessed.stderr
        served(rdmabench, port, srv, "--key", str(key))
        told = hello_from("127.0.0.1", port, nonce="ab" * 32)  # a hello in clear: refused
        assert told["type"] == "error" and "asks for a key" in told["message"], told
        assert "hostname" not in json.dumps(told), told  # nothing of the host
        # One line for the address's first refusal in a minute, the others counted.
        srv.stop()
        assert "client 127.0.0.1: refused, this server asks for a key (serve --key)" in \
            srv.text() and "client 127.0.0.1: refused 2 more times within 60 s" in srv.text(), \
            srv.text()
    with Server(rdmabench, port, tmp_path) as srv:  # no key: it cannot prove one
        keyless = client(rdmabench, port, "--key", str(key))
        assert keyless.returncode == 4 and "asks for no key" in keyless.stderr, keyless.stderr
    key.chmod(0o644)
    proc = run([rdmabench, "serve", "--port", str(port), "--key", str(key)], timeout=10)
    assert proc.returncode == 2 and "chmod 600" in proc.stderr, proc.stderr


@pytest.mark.parametrize("cap, ask, named", [
    (("--max-qps", "2"), ("--qps", "4"), "asks 4 QPs, more than this server allows (--max-qps 2)"),
    (("--max-threads", "1"), ("--qps", "2", "--threads", "2"), "(--max-threads 1)"),
    (("--max-memory", "16M"), ("--pattern", "send", "--sizes", "8M", "--iters", "20", "--verify"),
     # --verify's 64 MiB receive ring (8 slots), the 8 MiB send slot and the queues' entries
     "would register 73 MiB on the server, more than this server allows (--max-memory 16 MiB)"),
    # (a cap the session's own set-up cannot use up, however loaded the host: with 2 s, a run
    # beside two other guests was ended by the cap before it asked for its window)
    (("--max-duration", "60"), ("--duration", "90"), "a run of 90 s with "),
])
def test_caps_refuse_a_spec_that_asks_more(rdmabench, port, tmp_path, cap, ask, named):
    with Server(rdmabench, port, tmp_path, *cap) as srv:
        proc = client(rdmabench, port, *ask)
        assert proc.returncode == 2 and named in proc.stderr, proc.stderr
        assert "client 127.0.0.1 dropped: " in srv.text(), srv.text()
        served(rdmabench, port, srv)


def test_without_max_memory_the_server_caps_what_it_pins_at_half_the_hosts_memory(rdmabench, port,
                                                                                  tmp_path):
    # Before, nothing capped a server without --max-memory. A spec over the default is refused
    # in test_server_robustness.py (crafted specs); a real client here would pin as much itself.
    with Server(rdmabench, port, tmp_path) as srv:
        assert "caps: --max-memory " in srv.text() and "MiB (default: half this host's memory (" \
            in srv.text(), srv.text()
        served(rdmabench, port, srv)


def test_max_duration_ends_a_run_that_would_outlast_it(rdmabench, port, tmp_path):
    with Server(rdmabench, port, tmp_path, "--max-duration", "2") as srv:
        # A write's server is a passive target: the client learns why its run stopped once its
        # own wait gives up (--timeout 1), and then reports the server's reason. A hundred
        # million writes would take hours: only the server's cap ends the run.
        proc = client(rdmabench, port, "--iters", "100000000", "--timeout", "1")
        assert proc.returncode == 2 and "--max-duration" in proc.stderr, proc.stderr[-2000:]
        assert "client 127.0.0.1 dropped: " in srv.text() and "--max-duration" in srv.text(), \
            srv.text()
        served(rdmabench, port, srv)


SALT = b"rdmabench key file, version 3"


def s_client(port, secret, lines, timeout=30):
    """`openssl s_client` with the key file's TLS secret (PBKDF2 of its bytes, as
    channel/shared_key.h says) as a TLS 1.3 PSK: sends `lines`, returns what it printed (its
    summary, then what the server said)."""
    psk = hashlib.pbkdf2_hmac("sha256", secret, SALT, 200_000).hex()
    text = "".join(json.dumps(line) + "\n" for line in lines)
    return subprocess.run(
        ["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-tls1_3", "-ciphersuites",
         "TLS_AES_128_GCM_SHA256", "-psk_identity", "rdmabench", "-psk", psk, "-brief",
         "-ign_eof"], input=text, capture_output=True, text=True, timeout=timeout)


def test_openssl_s_client_completes_a_tls13_handshake_with_the_key(rdmabench, port, tmp_path):
    """The channel was our own handshake and HMACs, every message in clear. Now TLS 1.3, the
    key file a PSK: a standard client completes the handshake (the capture of a keyed run is
    test_control_tls.py's, over rdma_cm)."""
    secret = b"an operator's secret of enough length"
    key = tmp_path / "key"
    key.write_bytes(secret + b"\n")
    key.chmod(0o600)
    with Server(rdmabench, port, tmp_path, "--key", str(key)) as srv:
        said = s_client(port, secret, [{"type": "hello", "protocol": PROTOCOL,
                                        "version": "s_client"}, {"type": "bye"}])
        assert "Protocol version: TLSv1.3" in said.stdout + said.stderr, said
        assert '"hostname":' in said.stdout, said.stdout  # the server's hello, decrypted
        wrong = s_client(port, b"a guess at the secret, long enough", [{"type": "bye"}])
        assert "Protocol version" not in wrong.stdout + wrong.stderr, wrong
        served(rdmabench, port, srv, "--key", str(key))


def test_every_message_after_the_handshake_is_encrypted_and_authenticated(rdmabench, port,
                                                                          tmp_path):
    """Only the start was authenticated once: after it, anything on the connection was taken.
    Now bytes that are not TLS records of the session end it, and the server serves on."""
    secret = b"an operator's secret of enough length"
    key = tmp_path / "key"
    key.write_bytes(secret + b"\n")
    key.chmod(0o600)
    with Server(rdmabench, port, tmp_path, "--key", str(key)) as srv:
        said = s_client(port, secret, [{"type": "hello", "protocol": PROTOCOL,
                                        "version": "s_client"}, {"type": "teardown"},
                                       {"type": "bye"}])
        assert '"hostname":' in said.stdout, said
        with socket.create_connection(("127.0.0.1", port), timeout=20) as raw:
            # A TLS record header, then a line in clear where the handshake should be.
            raw.sendall(b"\x16\x03\x01\x00\x05" + b'{"type":"bye"}\n')
            raw.settimeout(20)
            try:
                while raw.recv(4096):
                    pass
            except ConnectionResetError:
                pass
        assert "client 127.0.0.1: refused, control channel: TLS handshake" in srv.text(), \
            srv.text()
        served(rdmabench, port, srv, "--key", str(key))
