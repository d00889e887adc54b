"""tools/rxe-setup against the guest kernel's real rdma_rxe."""
from pathlib import Path

import pytest

from conftest import ROOT, run

RXE_SETUP = str(ROOT / "tools" / "rxe-setup")


@pytest.fixture
def dummy_netdev():
    run(["modprobe", "dummy"], check=True)
    run(["ip", "link", "add", "rbtest0", "type", "dummy"], check=True)
    run(["ip", "link", "set", "rbtest0", "up"], check=True)
    yield "rbtest0"
    run([RXE_SETUP, "del", "--netdev", "rbtest0"])
    run(["ip", "link", "del", "rbtest0"])


@pytest.mark.layout("lo")
def test_add_is_idempotent_and_del_removes(dummy_netdev):
    first = run([RXE_SETUP, "add", dummy_netdev, "--name", "rxetest"], check=True)
    assert "created rxetest" in first.stdout
    assert Path("/sys/class/infiniband/rxetest").exists()
    again = run([RXE_SETUP, "add", dummy_netdev], check=True)
    assert "already on" in again.stdout
    assert "rxetest" in run([RXE_SETUP, "status"], check=True).stdout
    run([RXE_SETUP, "del", "rxetest"], check=True)
    assert not Path("/sys/class/infiniband/rxetest").exists()
    gone = run([RXE_SETUP, "del", "rxetest"], check=True)
    assert "does not exist" in gone.stdout


@pytest.mark.layout("lo")
def test_existing_loopback_device_is_reported_not_duplicated():
    proc = run([RXE_SETUP, "add", "lo"], check=True)
    assert "rxe0 already on lo" in proc.stdout


@pytest.mark.layout("lo")
def test_missing_netdev_and_non_root_and_usage_errors():
    proc = run([RXE_SETUP, "add", "nosuchnetdev"])
    assert proc.returncode == 2 and "does not exist" in proc.stderr  # 1 is an internal error
    proc = run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", RXE_SETUP, "add", "lo"])
    assert proc.returncode == 2 and "must run as root" in proc.stderr
    proc = run([RXE_SETUP])
    assert proc.returncode == 2
