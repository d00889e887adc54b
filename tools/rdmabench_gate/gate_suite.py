"""The gate's suite on this machine's device (rdmabench_gate/gate.py runs it on a host, or inside
a guest with --here): which rows, with which settings, in how many runs of rdmabench, merged into
one results file; and the helpers the gate shares (its error, its messages, building rdmabench).

The rows come from what rdmabench says of its patterns and strategies (row_selection.py): bw at
64 KiB and lat at 2 B, every pattern and CQ choice; in the deterministic guest the rows it can
measure, the patterns that cannot carry 64 KiB (the atomics' 8 bytes) in a run of their own with
the messages a steady figure of theirs needs, and each datagram transport's rows in a run of its
own (bw at 4 KiB, one packet at the guest's MTU; --cm auto)."""
import glob
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN_MODULE = ROOT / "tools" / "lib" / "run-module"
VETH = ("veth0", "veth1")


class GateError(Exception):
    """A usage or input error of the gate: said on one line, exit 2."""


def say(text):
    print(f"gate: {text}", file=sys.stderr, flush=True)


def has_rdma_device():
    """A real NIC, or rxe from tools/rxe-setup, or a guest's."""
    return bool(glob.glob("/sys/class/infiniband/*"))


def run_module(module, *args, env=None, stdout=None):
    return subprocess.run([str(RUN_MODULE), module, *map(str, args)], cwd=ROOT, env=env,
                          stdout=stdout, text=True)


def build_rdmabench(build, *groups):
    """The Debian packages of `groups` (with build and mesh, tools/setup-deps), `build`
    configured if it is not, and rdmabench built quietly in it; False when a step failed."""
    if subprocess.run([str(ROOT / "tools" / "setup-deps"), "build", "mesh", *groups], cwd=ROOT).returncode:
        return False
    quiet = []
    if not (Path(build) / "build.ninja").is_file():
        quiet.append(["meson", "setup", str(build)])
    quiet.append(["ninja", "-C", str(build), "rdmabench"])
    return all(subprocess.run(step, cwd=ROOT, stdout=subprocess.DEVNULL).returncode == 0 for step in quiet)


def fresh_folder(folder):
    shutil.rmtree(folder, ignore_errors=True)
    try:
        folder.mkdir(parents=True)
    except OSError as e:
        raise GateError(f"cannot make {folder}: {e.strerror}") from None


def shaped(netem, run):
    """`run()` with the veth pair shaped by tc netem (when `netem` is given), unshaped after."""
    if not netem:
        return run()
    try:
        for dev in VETH:
            if subprocess.run(["tc", "qdisc", "replace", "dev", dev, "root", "netem", *netem.split()]).returncode:
                say(f"tc netem on {dev} failed")
                return 2
        say(f"injected slowdown: netem {netem} on {' and '.join(VETH)}")
        return run()
    finally:
        for dev in VETH:
            subprocess.run(["tc", "qdisc", "del", "dev", dev, "root"], stderr=subprocess.DEVNULL)


class Suite:
    """The gate's suite of one rdmabench build into one results file, here."""

    def __init__(self, build, out, repetitions, deterministic, env):
        self.exe, self.out, self.deterministic, self.env = Path(build) / "rdmabench", Path(out), deterministic, env
        self.env["RDMABENCH_BUILD"] = str(build)
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

    def rows(self, what, *args):
        """row_selection's answer (a filter, sizes, names) for this build; GateError on none."""
        proc = run_module("rdmabench_gate.row_selection", self.exe, what, *args, env=self.env,
                          stdout=subprocess.PIPE)
        if proc.returncode != 0:
            raise GateError(f"cannot ask {self.exe} for its rows ({what})")
        return proc.stdout.strip()

    def run(self, list_left_out=True):
        """Every run of the suite, merged into the results file; rdmabench's exit status."""
        self.out.parent.mkdir(parents=True, exist_ok=True)
        if not self.deterministic:
            rc = self.run_rows(self.out, "--cm", self.cm, "--sizes", "2,64K", "--benchmark_filter=" +
                               self.rows("sizes", "--bw-size", "65536", "--lat-size", "2"))
            return self.finished(rc)
        if list_left_out:
            say("deterministic suite; left out, as this guest cannot measure them:")
            print("\n".join(f"  {line}" for line in self.rows("left-out", "--this-device").splitlines()),
                  file=sys.stderr, flush=True)
        sizes = self.rows("deterministic-sizes", "--bw-size", "65536", "--lat-size", "2", "--this-device")
        rc = self.run_rows(self.out, "--cm", self.cm, "--sizes", sizes, "--benchmark_filter=" +
                           self.rows("deterministic", "--bw-size", "65536", "--lat-size", "2",
                                     "--this-device", "--short-bw", "no"))
        parts = []
        for more in (self.short_bw_rows, self.datagram_rows):
            if rc == 0:
                rc = more(sizes, parts)
        if rc == 0 and parts:
            rc = run_module("rdmabench_gate.merge_results", self.out, *parts).returncode
            for part in parts:
                part.unlink(missing_ok=True)
        return self.finished(rc)

    def finished(self, rc):
        if rc == 0:
            say(f"suite results in {self.out}")
        return rc

    def short_bw_rows(self, sizes, parts):
        """The bw rows of the patterns that cannot carry 64 KiB (the atomics' 8 bytes) that ran
        in the main run, with the messages a steady figure of theirs needs, in a run of their own."""
        rows = self.rows("deterministic", "--bw-size", "65536", "--lat-size", "2", "--this-device",
                         "--short-bw", "yes", "--ran", self.out)
        if not rows:
            return 0  # no such pattern ran here (siw has no atomics)
        part = self.part("short-bw")
        rc = self.run_rows(part, "--cm", self.cm, "--sizes", sizes, "--benchmark_filter=" + rows,
                           messages=self.rows("short-bw-messages"))
        if rc == 0:
            parts.append(part)
        return rc

    def datagram_rows(self, _sizes, parts):
        """The rows over each datagram transport the device's fabric carries (none on iWARP)."""
        for transport in self.rows("datagram-transports", "--this-device").split():
            narrow = ("--bw-size", "4096", "--lat-size", "2", "--transport", transport, "--this-device")
            sizes, rows = self.rows("deterministic-sizes", *narrow), self.rows("deterministic", *narrow)
            part = self.part(transport)
            rc = self.run_rows(part, "--cm", "auto", "--transport", transport, "--sizes", sizes,
                               "--benchmark_filter=" + rows)
            if rc != 0:
                return rc
            parts.append(part)
        return 0

    def part(self, name):
        return self.out.with_name(f"{self.out.stem}-{name}.json")

    def run_rows(self, out, *options, messages="200"):
        """One server and client pair (serve_and_run) of the suite's rows into `out`, the logs
        beside it; on a failure the client log's last lines are said."""
        stem = out.with_suffix("")
        client_log = Path(f"{stem}-client.log")
        with open(client_log, "w") as log:
            rc = run_module("rdmabench_guest.serve_and_run", f"{stem}-server.log", self.addr, *self.serve,
                            "--", *options, "--iters", messages, *self.client, "--out", out,
                            env=self.env, stdout=log).returncode
        if rc != 0:
            say(f"suite failed (exit {rc}); client log:")
            print("\n".join(client_log.read_text(errors="replace").splitlines()[-20:]), file=sys.stderr)
        return rc
