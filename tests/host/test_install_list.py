"""The Debian package installs tools/plot and tools/compare with the rdmabench_tools modules
meson.build lists by hand: every module they import, directly or through another, must be in
that list (search_figures was not, and the installed rdmabench-plot failed to start)."""
import re

from conftest import ROOT

IMPORT = re.compile(r"^\s*(?:from\s+rdmabench_tools\s+import\s+([\w ,()]+)|"
                    r"from\s+rdmabench_tools\.(\w+)\s+import|import\s+rdmabench_tools\.(\w+))", re.M)


def imported_modules(text):
    names = set()
    for listed, from_module, imported in IMPORT.findall(text):
        if listed:
            names.update(n.split(" as ")[0].strip() for n in listed.strip("()").split(",") if n.strip())
        names.update(n for n in (from_module, imported) if n)
    return names


def needed(entry_points):
    package = ROOT / "tools" / "rdmabench_tools"
    seen, todo = set(), set()
    for path in entry_points:
        todo |= imported_modules(path.read_text())
    while todo:
        name = todo.pop()
        if name in seen or not (package / f"{name}.py").exists():
            continue
        seen.add(name)
        todo |= imported_modules((package / f"{name}.py").read_text())
    return seen


def installed():
    text = (ROOT / "meson.build").read_text()
    block = text[text.index("tool_modules = files("):]
    block = block[:block.index(")")]
    return set(re.findall(r"tools/rdmabench_tools/(\w+)\.py", block))


def test_every_module_the_installed_tools_import_is_installed():
    missing = needed([ROOT / "tools" / "plot", ROOT / "tools" / "compare"]) - installed()
    assert not missing, f"meson.build's tool_modules lacks {sorted(missing)}"
