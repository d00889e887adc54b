"""Issue 35 item 6: a layer's include folder holds every layer below it (a named layer's headers
need theirs), so the compiler alone let cli include verbs/, cq/ and datapath/ headers without
naming them. tools/rdmabench_dev/layer_check.py, run by meson.build when it configures, fails
on a file that includes from a layer its own does not name."""
from conftest import run_tool


def tree(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


TABLE = ["core:src/core:", "verbs:src/verbs:core", "cli:src/cli:verbs"]


def test_an_include_from_a_layer_below_a_named_one_is_refused(tmp_path):
    root = tree(tmp_path, {"src/core/a.h": "", "src/verbs/b.h": '#include "core/a.h"\n',
                           "src/cli/c.cpp": '#include "verbs/b.h"\n#include "core/a.h"\n'})
    proc = run_tool("rdmabench_dev.layer_check", root, *TABLE)
    assert proc.returncode == 13, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "src/cli/c.cpp includes core/...: layer cli names only verbs"


def test_includes_of_named_layers_pass(tmp_path):
    root = tree(tmp_path, {"src/core/a.h": "", "src/verbs/b.h": '#include "core/a.h"\n',
                           "src/cli/c.cpp": '#include "verbs/b.h"\n#include <vector>\n'})
    proc = run_tool("rdmabench_dev.layer_check", root, *TABLE)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr


def test_a_malformed_table_is_a_usage_error(tmp_path):
    for table in (["core"], ["cli:src/cli:nowhere"]):
        proc = run_tool("rdmabench_dev.layer_check", tmp_path, *table)
        assert proc.returncode == 2 and "layer_check:" in proc.stderr, proc.stderr
