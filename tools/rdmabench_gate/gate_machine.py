"""What the gate does on the machine it runs on, and how it speaks: its error and its messages,
building rdmabench, finding a device, making a folder, shaping the veth pair, running one of the
tools' modules. Light to import: the gate's help and compare start with it alone."""
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


def run_module(module, *args, stdout=None):
    return subprocess.run([str(RUN_MODULE), module, *map(str, args)], cwd=ROOT, stdout=stdout,
                          text=True)


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
