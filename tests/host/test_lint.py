"""The linters (tools/rdmabench_dev/lint.py), each able to fail: a file with one defect of the
kind each is there for is found, named by file and line, and the clean twin is not. The tree
itself is linted by ./tools/test's lint phase (clang-tidy takes minutes: not here)."""
import json
import subprocess

import pytest

from conftest import ROOT
from rdmabench_dev import lint

LONG_BODY = "".join(f"  x += {i};\n" for i in range(62))


def lint_one(linter, path):
    seen, problems = linter([path], None)
    assert seen == 1, f"{path.name} was not linted"
    return problems


@pytest.mark.parametrize("name, bad, good, linter, expect", [
    ("a.cpp", "int  f( ){return 1;}\n", "int f() { return 1; }\n", lint.clang_format,
     "clang-format"),
    ("a.sh", "#!/bin/bash\ncd /tmp\nrm -f $(ls)\n", "#!/bin/bash\ncd /tmp || exit\n",
     lint.shellcheck, "SC2046"),
    ("a.py", "import os\n", "import os\nprint(os.sep)\n", lint.pyflakes, "imported but unused"),
])
def test_each_fast_linter_finds_its_defect_and_passes_the_fixed_file(tmp_path, name, bad, good,
                                                                     linter, expect):
    path = tmp_path / name
    path.write_text(bad)
    problems = lint_one(linter, path)
    assert len(problems) >= 1 and all(p.startswith(f"{path}:") for p in problems), problems
    assert any(expect in p for p in problems), problems
    path.write_text(good)
    assert lint_one(linter, path) == []


def tidy_build(tmp_path, source):
    """A compile-commands folder holding one source, as the lint build's are."""
    (tmp_path / "a.cpp").write_text(source)
    (tmp_path / "compile_commands.json").write_text(json.dumps([{
        "directory": str(tmp_path), "file": "a.cpp", "output": "rdmabench.p/a.o",
        "command": "c++ -std=c++20 -c a.cpp -o rdmabench.p/a.o"}]))
    return tmp_path


def test_clang_tidy_counts_every_function_members_and_try_blocks_included(tmp_path):
    """Issue 48: the shape test's line finder saw 658 of 1,127 functions; mesh_scale's main (a
    function-try-block, 72 lines) was one it missed. clang-tidy sees every function."""
    source = ("int f(int x) try {\n" + LONG_BODY + "  return x;\n} catch (...) {\n  return 0;\n}\n"
              "struct S {\n  int g(int x) {\n" + LONG_BODY + "    return x;\n  }\n};\n"
              "int h(int x) {\n  return x;\n}\n")
    problems = lint.tidy_one(tidy_build(tmp_path, source), "a.cpp")
    sizes = [p for p in problems if "readability-function-size" in p]
    assert [p.split(":")[1] for p in sizes] == ["1", "69"], problems


def test_clang_tidy_finds_a_rounding_by_adding_a_half(tmp_path):
    """What it found in benchmark_suite.h: a paced rate rounded by adding 0.5 and truncating."""
    source = "long f(double x) { return static_cast<long>(x + 0.5); }\n"
    problems = lint.tidy_one(tidy_build(tmp_path, source), "a.cpp")
    assert any("bugprone-incorrect-roundings" in p for p in problems), problems
    fixed = "#include <cmath>\nlong f(double x) { return std::lround(x); }\n"
    assert lint.tidy_one(tidy_build(tmp_path, fixed), "a.cpp") == []


def test_every_script_kind_is_linted_by_its_linter():
    """Every tracked shell and Python file is one a linter reads, the sourced library and the
    CI entry among them (tools/lib/common.sh had no word of its shell for shellcheck)."""
    files = lint.tracked_files()
    shell = lint.lintable(files, "shell")
    python = lint.lintable(files, "python")
    assert len(shell) >= 15 and len(python) >= 100, (len(shell), len(python))
    named = {str(f.relative_to(ROOT)) for f in shell}
    assert {"tools/lib/common.sh", "tools/test", ".ci/run"} <= named, sorted(named)


def test_an_unknown_linter_is_a_usage_error():
    proc = subprocess.run([str(ROOT / "tools/lib/run-module"), "rdmabench_dev.lint", "--only", "flake9"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "flake9 is no linter" in proc.stderr, proc.stderr
