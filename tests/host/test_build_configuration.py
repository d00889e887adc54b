"""The build a user makes is the build the tests test, and a build that fails says why.

A fresh clone's `./tools/demo` stopped after "demo: dependencies and build" with nothing said
(2026-12-04): the README's plain `meson setup build` was not the unity build tools/test made,
and two files that compiled only inside a unity file (a header short of an include, a test
outside its namespace) broke it, while the tests passed; build_rdmabench sent ninja's errors
to /dev/null."""
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def project_default_options():
    text = (ROOT / "meson.build").read_text()
    project = text[:text.index(")\n")]
    return dict(re.findall(r"'(\w+)=([^']*)'", project))


def test_the_readmes_build_is_the_unity_build_the_tests_make():
    """meson.build makes unity builds its default, so that the README's `meson setup build`,
    tools/demo's and the Debian package's builds are the one tools/test builds and tests; and
    tools/test configures its build with no option of its own that would make it another."""
    defaults = project_default_options()
    assert defaults.get("unity") == "on" and defaults.get("unity_size", "").isdigit(), defaults
    assert "meson setup build && ninja -C build" in (ROOT / "README.md").read_text()
    test_script = (ROOT / "tools/test").read_text()
    setups = re.findall(r'meson setup ([^\n|;&]*)', test_script)
    main = [s for s in setups if s.split()[0] == '"$BUILD"']
    assert len(main) == 1, setups
    assert "-D" not in main[0], main[0]
    assert "unity" not in test_script.split("build_slowdown_variant()")[1].split("\n}\n")[0]


def test_a_failed_build_says_its_errors(tmp_path):
    """build_rdmabench (tools/lib/common.sh: the demo's, vs-perftest's and the CI recipe's
    build) shows what ninja said when the build fails, and where the whole log is."""
    build = tmp_path / "build"
    build.mkdir()
    (build / "build.ninja").write_text("")  # configured already: no meson setup
    fake = tmp_path / "bin"
    fake.mkdir()
    ninja = fake / "ninja"
    ninja.write_text("#!/bin/sh\necho '[1/2] Compiling C++ object a.o'\n"
                     "echo 'FAILED: b.o'\necho '../src/b.cpp:3:4: error: no such thing'\nexit 1\n")
    ninja.chmod(0o755)
    script = (f'source tools/lib/common.sh; '
              f'build_rdmabench {build}; echo "rc=$?"')
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")  # the packages are installed
    proc = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=60)
    assert "rc=1" in proc.stdout, proc.stdout + proc.stderr
    assert "../src/b.cpp:3:4: error: no such thing" in proc.stderr, proc.stderr
    assert "FAILED: b.o" in proc.stderr and str(build) in proc.stderr, proc.stderr
