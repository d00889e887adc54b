"""The one way tools and tests start a benchmark server, wait until it is ready, and stop it:
`rdmabench serve` (tools/lib/run-module rdmabench_guest.serve_and_run, tests/rxe's server fixture, tools/vs-perftest) and
perftest's servers (tools/vs-perftest) alike.

Ready means: its TCP port listens (read from /proc/net/tcp and tcp6, so nothing connects to
it). A server that exits before that, or takes longer than `ready_timeout`, is an error that
quotes its log. The wait is for a server that hangs, not a judgement of how fast it starts: in a
guest beside a loaded host, reading the binary in over 9p took more than 10 s (two tests of a
loaded ./tools/test failed so), so it is a minute."""
import signal
import subprocess
import time
from pathlib import Path

LISTEN = "0A"  # the TCP state in /proc/net/tcp


class ServerError(Exception):
    """The server did not become ready, or did not stop cleanly; str() says which, with its log."""


def listening(port):
    """Does some socket on this machine listen on TCP `port`?"""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[3] == LISTEN and int(fields[1].rsplit(":", 1)[1], 16) == port:
                return True
    return False


class Server:
    """A server process on `port`, its output in `log_path` (or discarded when None)."""

    def __init__(self, command, port, log_path=None, ready_timeout=60.0, ready_line=None):
        self.command = [str(c) for c in command]
        self.ready_line = ready_line if log_path else None  # read from the log
        self.port = port
        self.log_path = Path(log_path) if log_path else None
        self._log = open(self.log_path, "w") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(self.command, stdout=self._log, stderr=subprocess.STDOUT)
        try:
            self._wait_ready(ready_timeout)
        except ServerError:
            self.kill()
            raise

    def text(self):
        """What the server has logged so far ('' when its output is discarded)."""
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def _ready(self):
        """Listening, and with a `ready_line`, done starting: `rdmabench serve` listens first,
        then opens its devices (a burst of descriptors) and says "serving on" once ready; a
        test that read the server's descriptors in between saw a passing burst."""
        if not listening(self.port):
            return False
        return self.ready_line is None or self.ready_line in self.text()

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while not self._ready():
            if self.proc.poll() is not None:
                raise ServerError(f"{self.command[0]} exited {self.proc.returncode} before it "
                                  f"listened on port {self.port}:\n{self.text()[-3000:]}")
            if time.monotonic() > deadline:
                raise ServerError(f"{self.command[0]} did not listen on port {self.port} within "
                                  f"{timeout:g} s:\n{self.text()[-3000:]}")
            time.sleep(0.05)

    def stop(self, timeout=10.0):
        """SIGTERM, then its exit status (killed after `timeout` s: ServerError)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise ServerError(f"{self.command[0]} did not stop within {timeout:g} s of SIGTERM:\n"
                              f"{self.text()[-3000:]}") from None
        self._close()
        return rc

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._close()

    def _close(self):
        if self._log is not subprocess.DEVNULL and not self._log.closed:
            self._log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
