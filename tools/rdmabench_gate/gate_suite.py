"""The gate's suite on this machine's device (rdmabench_gate/gate.py runs it on a host, or inside
a guest with --here): which rows, with which settings, in how many runs of rdmabench, merged into
one results file.

The rows come from what rdmabench says of its patterns and strategies (row_selection.py): bw at
64 KiB and lat at 2 B, every pattern and CQ choice; in the deterministic guest the rows it can
measure, the patterns that cannot carry 64 KiB (the atomics' 8 bytes) in a run of their own with
the messages a steady figure of theirs needs, and each datagram transport's rows in a run of its
own (bw at 4 KiB, one packet at the guest's MTU; --cm auto)."""
import json
import subprocess
import sys
from pathlib import Path

from rdmabench_gate import row_selection as rs
from rdmabench_gate.gate_machine import GateError, run_module, say
from rdmabench_tools import rdmabench_results as rr
from rdmabench_tools.printable_text import excerpt


class Suite:
    """The gate's suite of one rdmabench build into one results file, here. Its rows are asked
    of row_selection once, from what the build says of its patterns and strategies (and, in the
    deterministic guest, of the device `rdmabench run` takes); GateError when it cannot say."""

    def __init__(self, build, out, repetitions, deterministic):
        self.exe, self.out, self.deterministic = str(Path(build) / "rdmabench"), Path(out), deterministic
        try:
            self.reg = rs.registry(self.exe)
            self.kernel_sender, fabric = rs.this_device(self.exe) if deterministic else (False, None)
        except (OSError, subprocess.CalledProcessError, json.JSONDecodeError, KeyError) as e:
            raise GateError(f"cannot ask {self.exe} for its patterns and device: {excerpt(str(e), 200)}") from None
        self.datagram = rs.datagram_transports(self.reg, fabric)
        veth = Path("/sys/class/net/veth0").exists()
        self.addr, self.cm = ("10.99.0.1", "rdmacm") if veth else ("127.0.0.1", "oob")
        # Deterministic: a fixed order keeps the runs identical; guest time can warp past a wait
        # for the host, so the control timeouts are generous. Server and client are both pinned
        # to CPU 0, so the rxe work they start (tasklets, veth softirqs) runs there too. Left to
        # the scheduler, they shared a CPU in some boots and not in others, and event-CQ round
        # trips moved by about 7 %; pinned to CPUs of their own, read bw with an event CQ still
        # fell into a mode 14 % slower in one boot of four.
        self.serve = ["--timeout", "60", "--cpus", "0"] if deterministic else []
        self.client = [f"--benchmark_repetitions={repetitions}"] + (
            ["--timeout", "60", "--cpus", "0"] if deterministic
            else ["--timeout", "20", "--benchmark_enable_random_interleaving=true"])

    def run(self, list_left_out=True):
        """Every run of the suite, merged into the results file; rdmabench's exit status."""
        self.out.parent.mkdir(parents=True, exist_ok=True)
        if not self.deterministic:
            rc = self.run_rows(self.out, "--cm", self.cm, "--sizes", "2,64K", "--benchmark_filter=" +
                               rs.sizes_filter(self.reg, 65536, 2))
            return self.finished(rc)
        if list_left_out:
            say("deterministic suite; left out, as this guest cannot measure them:")
            for line in rs.left_out_lines(self.reg, self.kernel_sender, self.datagram):
                print(f"  {line}", file=sys.stderr, flush=True)
        sizes = self.sizes(65536)
        rc = self.run_rows(self.out, "--cm", self.cm, "--sizes", sizes, "--benchmark_filter=" +
                           rs.deterministic_filter(self.reg, 65536, 2, None, self.kernel_sender, False))
        parts = []
        for more in (self.short_bw_rows, self.datagram_rows):
            if rc == 0:
                rc = more(sizes, parts)
        if rc == 0 and parts:
            rc = run_module("rdmabench_gate.merge_results", self.out, *parts).returncode
            for part in parts:
                part.unlink(missing_ok=True)
        return self.finished(rc)

    def sizes(self, bw_size, transport=None):
        """The --sizes of the deterministic rows with bw at `bw_size` and lat at 2 B."""
        return ",".join(map(str, rs.deterministic_sizes(self.reg, bw_size, 2, transport,
                                                        self.kernel_sender)))

    def finished(self, rc):
        if rc == 0:
            say(f"suite results in {self.out}")
        return rc

    def short_bw_rows(self, sizes, parts):
        """The bw rows of the patterns that cannot carry 64 KiB (the atomics' 8 bytes) that ran
        in the main run, with the messages a steady figure of theirs needs, in a run of their own."""
        try:
            ran = set(rr.load(self.out).patterns)
        except rr.ResultsError as e:
            raise GateError(f"the suite's results: {excerpt(str(e), 500)}") from None
        rows = rs.deterministic_filter(self.reg, 65536, 2, None, self.kernel_sender, True, ran)
        if not rows:
            return 0  # no such pattern ran here (siw has no atomics)
        part = self.part("short-bw")
        rc = self.run_rows(part, "--cm", self.cm, "--sizes", sizes, "--benchmark_filter=" + rows,
                           messages=str(rs.SHORT_BW_MESSAGES))
        if rc == 0:
            parts.append(part)
        return rc

    def datagram_rows(self, _sizes, parts):
        """The rows over each datagram transport the device's fabric carries (none on iWARP)."""
        for transport in self.datagram:
            rows = rs.deterministic_filter(self.reg, 4096, 2, transport, self.kernel_sender)
            part = self.part(transport)
            rc = self.run_rows(part, "--cm", "auto", "--transport", transport, "--sizes",
                               self.sizes(4096, transport), "--benchmark_filter=" + rows)
            if rc != 0:
                return rc
            parts.append(part)
        return 0

    def part(self, name):
        return self.out.with_name(f"{self.out.stem}-{name}.json")

    def run_rows(self, out, *options, messages="200"):
        """One server and client pair (serve_and_run) of the suite's rows into `out`, the logs
        beside it; on a failure the last lines of both logs are said."""
        stem = out.with_suffix("")
        client_log, server_log = Path(f"{stem}-client.log"), Path(f"{stem}-server.log")
        with open(client_log, "w") as log:
            rc = run_module("rdmabench_guest.serve_and_run", server_log, self.addr, *self.serve,
                            "--", *options, "--iters", messages, *self.client, "--out", out,
                            stdout=log).returncode
        if rc != 0:
            say(f"suite failed (exit {rc})")
            for name, path in (("client", client_log), ("server", server_log)):
                text = path.read_text(errors="replace") if path.exists() else ""
                print(f"-- the {name} log's last lines ({path}):\n" +
                      "\n".join(excerpt(line, 500) for line in text.splitlines()[-20:]), file=sys.stderr)
        return rc
