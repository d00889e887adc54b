"""The project's linters, each from Debian, each clean on the tree: clang-format (the C++ as
.clang-format lays it out), clang-tidy (the checks below, and no C++ function over 60 lines: it
counts every function, members, lambdas' enclosing functions and headers included), shellcheck
(every shell script) and pyflakes (every Python file).

Usage: tools/lib/run-module rdmabench_dev.lint [--only NAME[,NAME...]] [--build DIR] [--junit FILE] [--jobs N]
  --only   clang-format, clang-tidy, shellcheck, pyflakes (default: all four)
  --build  where clang-tidy's configure-only build goes (default: build-lint beside the
           sources; made on first use, about 5 s, nothing compiled)
  --junit  one JUnit test case per linter (./tools/test's lint phase)
  --jobs   clang-tidy runs at once (default: the machine's CPUs)
Exit status: 0 every linter clean, 1 a linter found something (each problem printed as
FILE:LINE: what, then how many), 2 a linter is missing or a step failed (what to install).
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINE_LIMIT = 60  # the brief: functions under 60 lines
STEP_TIMEOUT_S = 900  # one linter's run on one file or batch: a hang is a failure, not a wait

# clang-tidy's checks, chosen: what finds bugs and needless copies, and the function size. Left
# out, each for its reason: easily-swappable-parameters (every (size, count) pair); suspicious-
# include (the unity build lint runs in includes .cpp files by design); narrowing-conversions
# (size_t to an iterator's difference: every std::next over a vector); the performance checks
# on cold paths' strings and vectors (error texts, option lists: clarity first); no-int-to-ptr
# (a verbs work request's remote address is an integer by definition).
TIDY_CHECKS = ",".join([
    "-*", "bugprone-*", "-bugprone-easily-swappable-parameters", "-bugprone-suspicious-include",
    "-bugprone-narrowing-conversions", "performance-*",
    "-performance-inefficient-string-concatenation", "-performance-inefficient-vector-operation",
    "-performance-no-int-to-ptr", "readability-function-size", "readability-container-size-empty",
    "readability-misleading-indentation", "readability-redundant-string-cstr",
    "modernize-use-override", "modernize-use-nullptr", "misc-redundant-expression",
    "misc-unused-using-decls", "misc-definitions-in-headers",
    "cppcoreguidelines-virtual-class-destructor"])
TIDY_CONFIG = json.dumps({"CheckOptions": [
    {"key": "readability-function-size.LineThreshold", "value": LINE_LIMIT}]})
# The engine's own sources, headers through the layers' include folders (build-dir links).
TIDY_HEADERS = r".*/(src|bench|tests|layer-includes)/.*"
# The compile commands linted: each layer's library, the program, the unit tests, mesh_scale
# (the layers' header-only checks add nothing: every header is included by a source).
TIDY_TARGETS = re.compile(r"(^|/)(librdmabench_\w+\.a|rdmabench|unit_tests|mesh_scale)\.p/")
PROBLEM = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)? ?(?P<what>.*)$")


class LintError(Exception):
    """A linter could not run (missing, failed to start, timed out): exit 2."""


def tracked_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in out.split() if (ROOT / f).is_file()]


def source_kind(path):
    """'cpp', 'python', 'shell' or None, by suffix or by the first line's interpreter."""
    if path.suffix in (".cpp", ".h"):
        return "cpp"
    if path.suffix == ".py":
        return "python"
    if path.suffix == ".sh":
        return "shell"
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline(200).rstrip("\n")
    except (UnicodeDecodeError, OSError):
        return None
    if not first.startswith("#!"):
        return None
    return "python" if "python" in first else \
        "shell" if "bash" in first or first.endswith("/sh") else None


def lintable(files, kind):
    return [f for f in files if source_kind(f) == kind and "fixtures" not in f.parts]


def run_tool(argv, cwd=ROOT):
    if shutil.which(argv[0]) is None and not Path(argv[0]).is_file():
        raise LintError(f"{argv[0]} is not installed (tools/setup-deps test installs it)")
    try:
        return subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                              timeout=STEP_TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        raise LintError(f"{argv[0]} took over {STEP_TIMEOUT_S} s") from e


def problems_in(text, relative_to=ROOT):
    """FILE:LINE: what, for every line of a linter's output that names a place."""
    found = []
    for line in text.splitlines():
        m = PROBLEM.match(line.strip())
        if not m or m["what"].startswith("note:"):
            continue
        path = Path(m["file"])
        name = path.resolve() if path.is_absolute() else (relative_to / path).resolve()
        shown = str(name.relative_to(ROOT)) if name.is_relative_to(ROOT) else str(name)
        found.append(f"{shown}:{m['line']}: {m['what']}")
    return found


def batches(items, size=200):
    return [items[i:i + size] for i in range(0, len(items), size)]


def clang_format(files, _options):
    cpp = lintable(files, "cpp")
    found = []
    for batch in batches(cpp):
        found += problems_in(run_tool(["clang-format", "--dry-run", "--Werror"]
                                      + [str(f) for f in batch]).stderr)
    return len(cpp), found


def shellcheck(files, _options):
    """Every shell script, following what it sources, at shellcheck's warning and error levels
    (its info and style notes are advice, not checked). SC1091: the guest's stage 2 sources a
    file its stage 1 writes at boot; SC2317: a function reached only through trap or a
    variable's name is not unreachable."""
    shell = lintable(files, "shell")
    result = run_tool(["shellcheck", "-x", "-S", "warning", "-f", "gcc", "-e", "SC1091,SC2317"]
                      + [str(f) for f in shell])
    return len(shell), problems_in(result.stdout)


def pyflakes(files, _options):
    python = lintable(files, "python")
    result = run_tool(["/usr/bin/python3", "-m", "pyflakes"] + [str(f) for f in python])
    if result.returncode not in (0, 1) or "No module named pyflakes" in result.stderr:
        raise LintError("pyflakes is not installed (tools/setup-deps test installs pyflakes3)")
    return len(python), problems_in(result.stdout + result.stderr)


def lint_build(build):
    """A configure-only unity build (a layer a compiler run): its compile commands are what
    clang-tidy parses, each layer's headers once."""
    if not (build / "compile_commands.json").is_file():
        result = run_tool(["meson", "setup", "-Dunity=on", "-Dunity_size=1000", str(build)])
        if result.returncode != 0:
            raise LintError(f"meson setup {build} failed:\n{result.stdout[-2000:]}"
                            f"{result.stderr[-2000:]}")
    if run_tool(["ninja", "-C", str(build), "build_info.cpp"]).returncode != 0:  # core includes it
        raise LintError(f"{build}: the generated build_info.cpp could not be made")
    commands = json.loads((build / "compile_commands.json").read_text())
    units = [c["file"] for c in commands if TIDY_TARGETS.search(c["output"])]
    return [u for u in units if (build / u).is_file()]


def tidy_one(build, unit):
    result = run_tool(["clang-tidy", "-p", str(build), "--quiet", f"--checks={TIDY_CHECKS}",
                       f"--config={TIDY_CONFIG}", f"--header-filter={TIDY_HEADERS}", unit],
                      cwd=build)
    if result.returncode != 0 and "error:" not in result.stdout:
        raise LintError(f"clang-tidy {unit} failed: {result.stderr[-2000:]}")
    return problems_in(result.stdout, relative_to=build)


def clang_tidy(_files, options):
    build = Path(options.build).resolve()
    units = lint_build(build)
    if not units:
        raise LintError(f"{build}: no compile commands to lint")
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        found = [p for unit_found in pool.map(lambda u: tidy_one(build, u), units)
                 for p in unit_found]
    return len(units), sorted(set(found))  # a header's problem, once


LINTERS = {"clang-format": (clang_format, "C++ files"), "clang-tidy": (clang_tidy, "layers"),
           "shellcheck": (shellcheck, "shell scripts"), "pyflakes": (pyflakes, "Python files")}


def junit(results, path):
    suite = ET.Element("testsuite", name="lint", tests=str(len(results)),
                       failures=str(sum(1 for r in results if r[2])))
    for name, _seen, problems, seconds in results:
        case = ET.SubElement(suite, "testcase", classname="lint", name=name,
                             time=f"{seconds:.1f}")
        if problems:
            failure = ET.SubElement(case, "failure", message=f"{name}: {len(problems)} problems")
            failure.text = "\n".join(problems)
    ET.ElementTree(suite).write(path, encoding="unicode")


def run_linters(names, options):
    files = tracked_files()
    results = []
    for name in names:
        linter, what = LINTERS[name]
        start = time.monotonic()
        seen, problems = linter(files, options)
        results.append((name, seen, problems, time.monotonic() - start))
        for p in problems:
            print(p)
        verdict = "clean" if not problems else f"{len(problems)} problems"
        print(f"{name}: {seen} {what}, {verdict} ({time.monotonic() - start:.0f} s)", flush=True)
    return results


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog="tools/lib/run-module rdmabench_dev.lint", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(LINTERS))
    parser.add_argument("--build", default=str(ROOT / "build-lint"))
    parser.add_argument("--junit")
    parser.add_argument("--jobs", type=int, default=None)
    options = parser.parse_args(argv)
    names = [n for n in options.only.split(",") if n]
    unknown = [n for n in names if n not in LINTERS]
    if unknown or not names:
        parser.error(f"--only: {', '.join(unknown) or 'nothing'} is no linter "
                     f"({', '.join(LINTERS)})")
    if options.jobs is not None and not 1 <= options.jobs <= 64:
        parser.error("--jobs: 1 to 64")
    return names, options


def main(argv=None):
    names, options = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        results = run_linters(names, options)
    except LintError as e:
        print(f"lint: {e}", file=sys.stderr)
        return 2
    if options.junit:
        junit(results, options.junit)
    return 1 if any(r[2] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
