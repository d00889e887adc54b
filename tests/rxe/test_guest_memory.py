"""What a deterministic guest keeps in its memory (tools/rxe-vm, stage2.sh): a wait for the host
is idle time its clock jumps over, so what a test reads and writes as it runs must not wait for
the host's disk."""
import subprocess

import pytest

from conftest import BUILD

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
