"""A server safe to leave running, on real rxe (lo): --bind, --allow, --key and the operator's
caps each refuse what they should with an error that names them (the client's exit status says
which kind: 4 for who may connect, 2 for what may be asked), the server logs one line per
client (its address, what it asked, what happened), and it serves a valid client after every
refusal. On lo every client comes from 127.0.0.1 unless it binds another address first, which a
plain socket here does to be refused while rdmabench is served."""
import hashlib
import hmac
import json
import os
import socket

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
        # Mutual: the server proves the key first, and a client with another key refuses it
        # before it proves anything itself.
        guessed = client(rdmabench, port, "--key", str(wrong))
        assert guessed.returncode == 4 and "did not prove it holds this key" in guessed.stderr, \
            guessed.stderr
        assert "client 127.0.0.1 dropped: control channel: peer closed" in srv.text(), srv.text()
        served(rdmabench, port, srv, "--key", str(key))
        told = hello_from("127.0.0.1", port, nonce="ab" * 32)
        assert set(told) == {"type", "protocol", "version", "auth"}, told  # nothing of the host
        assert told["auth"]["method"] == "hmac-sha256-mutual-2" and told["auth"]["proof"], told
    with Server(rdmabench, port, tmp_path) as srv:  # no key: it cannot prove one
        keyless = client(rdmabench, port, "--key", str(key))
        assert keyless.returncode == 4 and "asks for no key, and this client was given --key" \
            in keyless.stderr, keyless.stderr
    key.chmod(0o644)
    proc = run([rdmabench, "serve", "--port", str(port), "--key", str(key)], timeout=10)
    assert proc.returncode == 2 and "chmod 600" in proc.stderr, proc.stderr


@pytest.mark.parametrize("cap, ask, named", [
    (("--max-qps", "2"), ("--qps", "4"), "asks 4 QPs, more than this server allows (--max-qps 2)"),
    (("--max-threads", "1"), ("--qps", "2", "--threads", "2"), "(--max-threads 1)"),
    (("--max-memory", "16M"), ("--pattern", "send", "--sizes", "8M", "--iters", "20"),
     # 72 MiB of receive ring (nine 8 MiB slots) and the queues' entries, rounded up
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


class KeyedRaw:
    """A hand-driven keyed client (control/key_handshake.h, in Python): the handshake, then lines
    sealed with the session key, or not, as a test wants."""

    SALT = b"rdmabench key file, version 2"

    def __init__(self, port, secret):
        self.key = hashlib.pbkdf2_hmac("sha256", secret, self.SALT, 200_000)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.lines = self.sock.makefile("rb")
        self.sent = self.received = 0

    @staticmethod
    def mac(key, *parts):
        message = b"".join(str(len(p)).encode() + b":" + p for p in parts)
        return hmac.new(key, message, hashlib.sha256)

    def handshake(self):
        nonce = os.urandom(32).hex()
        self.sock.sendall(json.dumps({"type": "hello", "protocol": PROTOCOL, "version": "raw",
                                      "nonce": nonce}).encode() + b"\n")
        auth = json.loads(self.lines.readline())["auth"]
        n = (nonce.encode(), auth["challenge"].encode())
        assert auth["proof"] == self.mac(self.key, b"rdmabench-auth-2 server", *n).hexdigest()
        response = self.mac(self.key, b"rdmabench-auth-2 client", *n).hexdigest()
        self.sock.sendall(json.dumps({"type": "auth", "response": response}).encode() + b"\n")
        self.session = self.mac(self.key, b"rdmabench-auth-2 session", *n).digest()
        return self.receive()

    def seal(self, message):
        text = json.dumps(message, separators=(",", ":")).encode()
        tag = self.mac(self.session, b"rdmabench-message-2 client to server",
                       str(self.sent).encode(), text).hexdigest()
        self.sent += 1
        return text + b"\t" + tag.encode() + b"\n"

    def receive(self):
        line = self.lines.readline().rstrip(b"\n")
        if not line:
            return None
        text, _, tag = line.rpartition(b"\t")
        if not text:  # unsealed: the server's refusal before the session, or of it
            return json.loads(line)
        expected = self.mac(self.session, b"rdmabench-message-2 server to client",
                            str(self.received).encode(), text).hexdigest()
        assert tag.decode() == expected, "the server's message failed its check here"
        self.received += 1
        return json.loads(text)


def test_every_message_after_the_keyed_handshake_is_authenticated(rdmabench, port, tmp_path):
    """Only the start was authenticated: after `auth`, anything on the connection was taken.
    Now a message not sealed with the session key, changed, or replayed ends the session."""
    secret = b"an operator's secret of enough length"
    key = tmp_path / "key"
    key.write_bytes(secret + b"\n")
    key.chmod(0o600)
    with Server(rdmabench, port, tmp_path, "--key", str(key)) as srv:
        bye = {"type": "bye"}
        ok = KeyedRaw(port, secret)
        assert ok.handshake()["hello"]["hostname"], "the details come once the client is in"
        ok.sock.sendall(ok.seal({"type": "teardown"}) + ok.seal(bye))
        assert ok.receive() is None  # served to the end: no error
        for damage in ("unsealed", "changed", "replayed"):
            raw = KeyedRaw(port, secret)
            raw.handshake()
            sealed = raw.seal({"type": "teardown"})
            if damage == "unsealed":
                raw.sock.sendall(b'{"type":"teardown"}\n')
            elif damage == "changed":
                raw.sock.sendall(sealed.replace(b"teardown", b"teardowN"))
            else:
                raw.sock.sendall(sealed + sealed)
            said = raw.receive()
            assert said and said["type"] == "error" and "failed its authentication" in \
                said["message"], (damage, said)
        assert srv.text().count("failed its authentication") == 3, srv.text()
        served(rdmabench, port, srv, "--key", str(key))
