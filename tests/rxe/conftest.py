"""Fixtures for the suites that run inside the rxe guest (tools/rxe-vm), against real rxe.

A test marked @pytest.mark.layout("veth") runs only in the two-host layout, one marked
@pytest.mark.layout("lo") only on loopback, one marked @pytest.mark.layout("veth-icount") only
in the deterministic two-host guest (tools/rxe-vm --deterministic -m veth); tools/test boots
one guest per layout, so every test runs exactly once per layout it names. Unmarked tests run
in lo and veth (not in the deterministic guest, whose busy-CQ timings mean nothing).
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("RDMABENCH_BUILD", ROOT / "build"))


def deterministic_guest():
    try:
        return "rdmabench.timing=icount" in Path("/proc/cmdline").read_text().split()
    except OSError:
        return False


def current_layout():
    if Path("/sys/class/net/veth0").exists():
        return "veth-icount" if deterministic_guest() else "veth"
    devices = list(Path("/sys/class/infiniband").glob("*")) if Path("/sys/class/infiniband").exists() else []
    return "lo" if devices else "none"


def pytest_configure(config):
    config.addinivalue_line("markers", "layout(name): run only in that rxe-vm layout (lo or veth)")


def pytest_collection_modifyitems(config, items):
    layout = current_layout()
    keep, drop = [], []
    for item in items:
        mark = item.get_closest_marker("layout")
        names = mark.args if mark else ("lo", "veth")
        (keep if layout in names else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(scope="session")
def layout():
    name = current_layout()
    assert name != "none", "no RDMA device in this guest: the rxe suites must run under tools/rxe-vm -m lo|veth"
    return name


@pytest.fixture(scope="session")
def rdmabench():
    exe = BUILD / "rdmabench"
    assert exe.exists(), f"{exe} not built (run ninja -C {BUILD})"
    return str(exe)


def run(cmd, timeout=60, check=False, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check and proc.returncode != 0:
        raise AssertionError(f"{cmd} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


@pytest.fixture(scope="session")
def devices_json(rdmabench, layout):
    proc = run([rdmabench, "devices", "--json"], check=True)
    return json.loads(proc.stdout)
