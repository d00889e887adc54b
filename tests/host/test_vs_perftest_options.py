"""tools/vs-perftest refuses, before it builds or boots anything, a --keep-profiles directory
the guest cannot write back: the guest sees this checkout only (its root is a tmpfs overlay),
so `--keep-profiles /work/exp/costprof` (2026-12-06) ran a whole --cost boot and kept nothing,
saying nothing."""
import subprocess

import pytest

from conftest import ROOT


def vs_perftest(*args, cwd=None):
    return subprocess.run([str(ROOT / "tools" / "vs-perftest"), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "RDMABENCH_BUILD": "/proc/no-such-build"})


def test_keep_profiles_outside_the_checkout_is_refused_naming_where_it_must_be(tmp_path):
    proc = vs_perftest("--cost", "--keep-profiles", tmp_path / "profiles")
    assert proc.returncode == 2, proc.stderr
    assert f"--keep-profiles {tmp_path / 'profiles'}" in proc.stderr, proc.stderr
    assert f"under {ROOT}" in proc.stderr, proc.stderr
    assert not (tmp_path / "profiles").exists()


@pytest.mark.parametrize("where", ["..", "tmp-prof/../../elsewhere"])
def test_a_relative_path_that_leaves_the_checkout_is_refused_too(where):
    proc = vs_perftest("--cost", "--keep-profiles", where, cwd=ROOT)
    assert proc.returncode == 2 and "--keep-profiles" in proc.stderr, proc.stderr


def test_keep_profiles_goes_with_cost_only():
    proc = vs_perftest("--keep-profiles", "tmp-prof", cwd=ROOT)
    assert proc.returncode == 2 and "--keep-profiles goes with --cost" in proc.stderr, proc.stderr


def test_the_refused_path_is_printed_escaped():
    """Shown as bash's printf %q writes it: the escape byte spelt out, however this bash spells
    it (5.2: \\E), never the byte itself."""
    proc = vs_perftest("--cost", "--keep-profiles", "/tmp/\x1b[2Jprofiles")
    assert proc.returncode == 2, proc.stderr
    assert "\x1b" not in proc.stderr, proc.stderr
    assert any(f"--keep-profiles $'/tmp/{esc}[2Jprofiles'" in proc.stderr
               for esc in ("\\E", "\\e", "\\033", "\\x1b", "\\x1B")), proc.stderr
