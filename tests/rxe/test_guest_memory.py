"""What a deterministic guest keeps in its memory (tools/rxe-vm, stage2.sh): a wait for the host
is idle time its clock jumps over, so what a test reads and writes as it runs must not wait for
the host's disk."""
import re
import subprocess

import pytest
from rdmabench_guest import server_harness

from conftest import BUILD, free_port, run

pytestmark = pytest.mark.layout("veth-icount")


def mount_of(path):
    """findmnt's type and options of the mount at `path` itself."""
    out = subprocess.run(["findmnt", "-n", "-o", "FSTYPE,OPTIONS", "--mountpoint", str(path)],
                         capture_output=True, text=True, timeout=30).stdout.split()
    return (out[0], out[1]) if len(out) == 2 else None


def test_the_reports_folder_takes_writes_in_memory_without_copying_the_folder():
    """An overlay on the share, its upper layer in the guest's tmpfs: writes stay in memory, and
    nothing is copied when the guest starts (a copy of the folder, which the lane's fuzzers fill
    beside the guests, took the siw mesh guest over its time budget in CI)."""
    reports = BUILD.resolve() / "test-reports"
    found = mount_of(reports)
    assert found is not None, f"{reports} is no mount of its own"
    fstype, options = found
    assert fstype == "overlay", found
    assert f"lowerdir={reports}" in options and "upperdir=/run/rxe-pinned/" in options, options


# What a traced rdmabench may look at: the kernel's files and the guest's own memory.
HOST_FILE = re.compile(r'^\d+\s+(?:openat|open|readlink|readlinkat|newfstatat|statx|access|faccessat2?)'
                       r'\((?:AT_FDCWD, |\d+, )?"(/(?!(?:proc|sys|dev|run)(?:/|"))[^"]*)"')
TRACED = "trace=openat,open,readlink,readlinkat,newfstatat,statx,access,faccessat,faccessat2,accept,accept4,connect"


def host_files_after(trace, boundary):
    """The files of the host (outside /proc, /sys, /dev and the guest's /run) a process traced by
    strace -f opened, looked at or read a link of after the first line `boundary` matches."""
    lines = trace.read_text(errors="replace").splitlines()
    start = next((i for i, line in enumerate(lines) if boundary.search(line)), None)
    assert start is not None, f"{boundary.pattern} not in {trace}:\n" + "\n".join(lines[-40:])
    return sorted({m.group(1) for line in lines[start:] if (m := HOST_FILE.search(line))})


def test_neither_side_looks_at_a_host_file_once_the_other_waits_on_it(rdmabench, tmp_path):
    """Each side gathers what it says of its host (rdma-core's version from dpkg's status, the
    library's real path, the time zone) before a peer waits on it: in this guest a file of the
    host's root is a wait for the host's 9p server, idle time the guest's clock jumps over. Under
    a loaded host that is the likely reason a client of the siw gate got no hello within its 60 s
    control timeout (CI, 2026-12-06): its server read dpkg's status file at every hello."""
    port = free_port()
    host, cm = ("10.99.0.1", "rdmacm")
    strace = ["strace", "-f", "-qq", "-e", TRACED, "-o"]
    server = server_harness.Server([*strace, tmp_path / "serve.trace", rdmabench, "serve", "--port", port,
                                    "--once", "--timeout", "60"], port, tmp_path / "serve.log",
                                   ready_line="serving on")
    try:
        proc = run([*strace, tmp_path / "run.trace", rdmabench, "run", host, "--port", str(port), "--cm", cm,
                    "--timeout", "60", "--pattern", "send", "--mode", "bw", "--cq", "event", "--sizes", "4096",
                    "--iters", "100", "--counters", "off", "--json"], timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
    finally:
        assert server.stop(timeout=60) == 0, server.text()[-3000:]
    after_accept = host_files_after(tmp_path / "serve.trace", re.compile(r"\baccept4?\(.*\) = \d+$"))
    after_connect = host_files_after(tmp_path / "run.trace", re.compile(rf"\bconnect\(.*htons\({port}\)"))
    assert after_accept == [], f"the server, once a client is in: {after_accept}"
    assert after_connect == [], f"the client, once connected: {after_connect}"
