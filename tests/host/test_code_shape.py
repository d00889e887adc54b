"""The brief's shape of the code, held: no function over 60 lines, in the engine (C++), the
tools and tests (Python) and the scripts (shell). Issue 34 found mesh_options at 68 lines,
vs_perftest_guest.py's main at 68 and the guest's stage2.sh setup() at 84."""
import re

import pytest

from conftest import ROOT
from rdmabench_dev.lint import source_kind as kind, tracked_files

LIMIT = 60


def cpp_functions(lines):
    """(first line, length) of every function defined at namespace level: its head at column 0
    ending in '{' (or 'try {'), its body closed by a '}' at column 0. A first look only: the
    lint's clang-tidy (readability-function-size) counts every function, members and
    headers included."""
    start = None
    for i, line in enumerate(lines):
        if start is None and re.match(r"^[A-Za-z].*\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(try\s*)?\{$", line) \
                and not line.startswith(("namespace", "struct", "class", "enum")):
            start = i
        elif start is not None and (line == "}" or line.startswith("} catch")):
            yield start + 1, i - start + 1
            start = None


def python_functions(lines):
    defs = [(i, len(l) - len(l.lstrip())) for i, l in enumerate(lines) if re.match(r"\s*(async\s+)?def ", l)]
    for i, indent in defs:
        end = len(lines)
        for j in range(i + 1, len(lines)):
            text = lines[j]
            if text.strip() and len(text) - len(text.lstrip()) <= indent \
                    and not text.lstrip().startswith(("#", ")", "]", "}")):
                end = j
                break
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1
        yield i + 1, end - i


def shell_functions(lines):
    """Functions whose body spans lines: 'name() {' alone on its line, closed by '}' at its
    indentation."""
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)[A-Za-z_][-A-Za-z0-9_]*\s*\(\)\s*\{\s*$", line)
        if not m:
            continue
        for j in range(i + 1, len(lines)):
            if lines[j] == m.group(1) + "}":
                yield i + 1, j - i + 1
                break


FINDERS = {"cpp": cpp_functions, "python": python_functions, "shell": shell_functions}


def long_functions():
    found = []
    for path in tracked_files():
        language = kind(path)
        if language is None or "fixtures" in path.parts:
            continue
        lines = path.read_text().split("\n")
        found += [(str(path.relative_to(ROOT)), line, length, lines[line - 1].strip()[:60])
                  for line, length in FINDERS[language](lines) if length > LIMIT]
    return found


def test_no_function_is_over_sixty_lines():
    assert not long_functions(), long_functions()


@pytest.mark.parametrize("language, text, longest", [
    ("cpp", "int f() {\n" + "  x();\n" * 70 + "}\n", 72),
    ("cpp", "int main() try {\n" + "  x();\n" * 70 + "} catch (...) {\n  return 1;\n}\n", 72),
    ("python", "def f():\n" + "    x()\n" * 70 + "\n\ndef g():\n    pass\n", 71),
    ("shell", "f() {\n" + "  x\n" * 70 + "}\ng() { y; }\n", 72),
])
def test_the_finder_sees_a_long_function_in_each_language(language, text, longest):
    assert max(length for _, length in FINDERS[language](text.split("\n"))) == longest


def test_the_tools_modules_are_a_package_apart_from_the_executables():
    """Issue 34: tools/lib mixed importable modules with executables, and five tools and most
    tests patched sys.path to import them. Now the modules are the packages tools/rdmabench_*
    (no executable file in them), tools/lib holds executables only, and nothing patches the path
    (the tools find the packages beside them, the tests through tests/pytest.ini)."""
    files = tracked_files()
    lib = ROOT / "tools" / "lib"
    modules_in_lib = [f.name for f in files if f.parent == lib and f.suffix == ".py"]
    executables_in_package = [f.name for f in files if f.parent.parent == ROOT / "tools"
                              and f.parent.name.startswith("rdmabench_")
                              and (f.stat().st_mode & 0o111 or f.read_text().startswith("#!"))]
    patched = [str(f.relative_to(ROOT)) for f in files if kind(f) == "python"
               and re.search(r"sys\.path\.(insert|append)|sys\.path\s*\+?=", f.read_text())]
    assert not modules_in_lib, f"modules in tools/lib: {modules_in_lib}"
    assert not executables_in_package, f"executables in the package: {executables_in_package}"
    assert not patched, f"these patch sys.path: {patched}"


def test_no_two_headers_define_one_type_name():
    """Two types of one name in one namespace (rdmabench) are one type to the linker: the unit
    tests crashed in a destructor when search/finding.h defined a Finding beside
    host/doctor_finding.h's. Every struct, class and enum a header defines at its top level is
    named in that header alone (types in a source file's anonymous namespace are its own)."""
    defined = {}
    pattern = re.compile(r"^(?:struct|class|enum class|enum)\s+(\w+)\b[^;]*$")
    for path in tracked_files():
        if path.suffix != ".h":
            continue
        for line in path.read_text().splitlines():
            if m := pattern.match(line):
                defined.setdefault(m.group(1), set()).add(str(path.relative_to(ROOT)))
    twice = {name: sorted(files) for name, files in defined.items() if len(files) > 1}
    assert not twice, twice


MESSAGE_TYPES = "(hello|auth|setup|run|path|result|finished|teardown|bye|ready|done|busy|error|oob|buf|cm_listen|proved)"


def test_every_control_message_is_built_in_one_home():
    """Issue 48: the control channel's messages were built in eight files (the client session,
    the server, the protocol, the busy responder, both bootstraps, ...), so their fields had no
    one place to be read or changed. Every message is built, and read field by field, in
    src/messages/control_messages.cpp; nothing else in src/ writes a message's type."""
    home = ROOT / "src" / "messages" / "control_messages.cpp"
    builders = [f"{f.relative_to(ROOT)}:{n}" for f in tracked_files()
                if f.suffix in (".cpp", ".h") and f.is_relative_to(ROOT / "src") and f != home
                for n, line in enumerate(f.read_text().splitlines(), 1)
                if re.search(r'(\{"type", |\["type"\] = )"' + MESSAGE_TYPES + '"', line)]
    assert not builders, f"messages built outside control_messages.cpp: {builders}"


def test_one_file_name_per_concept():
    """Issue 64: bench/registry.h and src/cq/registry.h were two files of one name, so a reader
    (and an include written without its folder) could not tell the patterns' registry from the
    strategies'. No two of the engine's files share a name."""
    seen = {}
    for f in tracked_files():
        if f.suffix in (".cpp", ".h") and (f.is_relative_to(ROOT / "src") or f.is_relative_to(ROOT / "bench")):
            seen.setdefault(f.name, []).append(str(f.relative_to(ROOT)))
    twice = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not twice, twice
