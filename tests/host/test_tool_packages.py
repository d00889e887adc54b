"""tools/ holds four Python packages, one concern each: rdmabench_tools is
installed with rdmabench-plot and rdmabench-compare, so it imports nothing of the other three,
which develop and test rdmabench; the packages' imports form no circle; and every module with a
command line runs one way, `tools/lib/run-module PACKAGE.MODULE` (docs/layout.md)."""
import ast
import subprocess

from conftest import ROOT

PACKAGES = ("rdmabench_tools", "rdmabench_gate", "rdmabench_guest", "rdmabench_dev")
RUN_MODULE = ROOT / "tools" / "lib" / "run-module"


def imported_packages(path):
    """The tools' packages a module imports (absolute imports only; relative ones stay inside)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
        found |= {n.split(".")[0] for n in names} & set(PACKAGES)
    return found


def package_graph():
    graph = {p: set() for p in PACKAGES}
    for package in PACKAGES:
        for path in (ROOT / "tools" / package).glob("*.py"):
            graph[package] |= imported_packages(path) - {package}
    return graph


def test_the_installed_package_imports_only_itself():
    assert package_graph()["rdmabench_tools"] == set()
    for tool in ("plot", "compare"):
        assert imported_packages(ROOT / "tools" / tool) <= {"rdmabench_tools"}, tool


def test_the_packages_import_each_other_in_no_circle():
    graph = package_graph()

    def reaches(start, goal, seen=()):
        return any(n == goal or (n not in seen and reaches(n, goal, (*seen, n))) for n in graph[start])
    assert not [p for p in PACKAGES if reaches(p, p)], graph


def test_no_module_lives_outside_the_packages():
    strays = [p.name for p in (ROOT / "tools").glob("*.py")]
    assert not strays and sorted(p.name for p in (ROOT / "tools").glob("rdmabench_*")) == sorted(PACKAGES)


def test_run_module_runs_a_package_module_and_refuses_anything_else():
    ok = subprocess.run([str(RUN_MODULE), "rdmabench_gate.spread", "--help"], capture_output=True,
                        text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    for wrong in ("spread", "os.path", "json.tool"):
        proc = subprocess.run([str(RUN_MODULE), wrong], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "PACKAGE.MODULE" in proc.stderr, (wrong, proc.stderr)


def test_every_python_command_runs_on_the_system_python():
    """The Python commands of tools/ start one way: /usr/bin/python3, whose packages
    tools/setup-deps installs (mesh-scale said `env python3`, whichever python3 came first on
    the PATH)."""
    commands = [p for p in (ROOT / "tools").iterdir() if p.is_file() and "python" in
                p.read_text(errors="replace").split("\n", 1)[0]]
    assert len(commands) >= 4, commands
    wrong = [p.name for p in commands if p.read_text().split("\n", 1)[0] != "#!/usr/bin/python3"]
    assert not wrong, wrong
