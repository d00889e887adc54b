"""The documentation a stranger reads: a README short enough to read in five minutes, tables
that fit a screen, links that lead somewhere, and every page made from the code (the CLI
reference, the exit codes, the JSON tables, the man page) as the build says it should read."""
import ast
import json
import os
import re
import subprocess

import pytest

from conftest import ROOT, commands_in_help
from rdmabench_tools import exit_codes
from rdmabench_dev import layer_map
from rdmabench_dev import update_docs

BUILD = ROOT / os.environ.get("RDMABENCH_BUILD", "build")
RDMABENCH = BUILD / "rdmabench"
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")) + [ROOT / "results" / "README.md"]


def prose(text):
    """A page without its code blocks."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def slug(heading):
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page):
    return {slug(h) for h in re.findall(r"^#+ (.*)$", prose(page.read_text()), re.M)}


@pytest.fixture(scope="module")
def registry():
    proc = subprocess.run([RDMABENCH, "version", "--json"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_readme_reads_in_five_minutes():
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines < 250, lines


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_table_cell_is_longer_than_a_screen_line_or_three(page):
    long = []
    for number, line in enumerate(page.read_text().splitlines(), 1):
        if line.startswith("|"):
            cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
            long += [(number, len(c)) for c in cells if len(c.strip()) > 300]
    assert not long, long


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_a_heading_that_exist(page):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", prose(page.read_text())):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(target)
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(target)
    assert not broken, broken


def test_the_pages_made_from_the_code_are_as_the_build_says():
    """docs/cli.md, README's exit status and docs/json.md's tables; tools/rdmabench_dev/update_docs.py
    writes them."""
    stale = [str(path.relative_to(ROOT)) for path, text in update_docs.expected_pages(RDMABENCH).items()
             if path.read_text() != text]
    assert not stale, f"run tools/lib/run-module rdmabench_dev.update_docs: {stale} differ from the build"


def test_every_help_ends_with_the_one_exit_code_table(registry):
    def table(text):
        return text[text.index("Exit status"):]
    top = subprocess.run([RDMABENCH, "--help"], capture_output=True, text=True, timeout=30).stdout
    assert commands_in_help(top) == [c["name"] for c in registry["commands"]], top
    assert len(registry["exit_codes"]) == len(exit_codes.BY_NAME), registry["exit_codes"]
    for command in registry["commands"]:
        proc = subprocess.run([RDMABENCH, "help", command["name"]], capture_output=True, text=True,
                              timeout=30)
        assert proc.returncode == 0 and table(proc.stdout) == table(top), command["name"]
    for entry in registry["exit_codes"]:
        assert f"{entry['code']:>4}  {entry['meaning']}" in top, entry


def test_the_tools_exit_codes_are_the_engines(registry):
    assert exit_codes.BY_NAME == {e["name"]: e["code"] for e in registry["exit_codes"]}
    for name, code in exit_codes.BY_NAME.items():
        assert getattr(exit_codes, name.upper()) == code, name
    assert exit_codes.INTERNAL == 1 and 1 not in (exit_codes.REGRESSION, exit_codes.INVALID_FILE)


def roff(text):
    return text.replace("\\", "\\e")


def test_the_cli_reference_holds_the_exit_table_once(registry):
    page = (ROOT / "docs" / "cli.md").read_text()
    assert len(registry["exit_codes"]) == len(exit_codes.BY_NAME), registry["exit_codes"]
    for entry in registry["exit_codes"]:
        assert page.count(entry["meaning"]) == 1, entry
    assert "the highest of their codes" in page


def test_the_man_page_holds_every_command_and_installs(registry, tmp_path):
    """Each command's help, every option of it, the exit codes, EXAMPLES, FILES and SEE ALSO;
    within man's 80 columns (the help's widest lines went to 386) and without a warning."""
    page = (BUILD / "rdmabench.1").read_text()
    top = subprocess.run([RDMABENCH, "--help"], capture_output=True, text=True, timeout=30).stdout
    assert commands_in_help(top) == [c["name"] for c in registry["commands"]], top
    assert len(registry["exit_codes"]) == len(exit_codes.BY_NAME), registry["exit_codes"]
    for command in registry["commands"]:
        assert f".SH RDMABENCH {command['name'].upper()}" in page, command["name"]
        helped = subprocess.run([RDMABENCH, "help", command["name"]], capture_output=True, text=True,
                                timeout=30).stdout
        options = re.findall(r"^\s+(?:-\w, )?(--[\w-]+)", helped, re.MULTILINE)
        assert len(options) >= 2, command["name"]  # version has the fewest: --json, --help
        for option in options:
            assert option in page, (command["name"], option)
    for entry in registry["exit_codes"]:  # once, under EXIT STATUS, each meaning said once
        assert page.count(entry["meaning"]) == 1, entry
        assert f".B {entry['code']}\n{roff(entry['meaning'])}\n" in page, entry
    assert page.index(".SH EXIT STATUS") > page.index(".SH RDMABENCH SERVE")
    sections = re.findall(r"^\.SH (.*)$", page, re.MULTILINE)
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "EXAMPLES", "FILES",
                    "SEE ALSO"):
        assert section in sections, (section, sections)
    shown = subprocess.run(["man", "--warnings", "-l", BUILD / "rdmabench.1"], capture_output=True,
                           text=True, timeout=30, env={**os.environ, "MANWIDTH": "80",
                                                       "MAN_KEEP_FORMATTING": ""})
    assert shown.returncode == 0 and shown.stderr == "", shown.stderr
    wide = [line for line in shown.stdout.splitlines() if len(line) > 80]
    assert not wide, wide[:5]
    rendered = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", BUILD / "rdmabench.1"],
                              capture_output=True, text=True, timeout=30)
    assert rendered.returncode == 0 and rendered.stderr == "", rendered.stderr
    proc = subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild", "--destdir", tmp_path,
                           "--tags", "man"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert list(tmp_path.rglob("share/man/man1/rdmabench.1")), list(tmp_path.rglob("*"))


def test_the_quick_starts_sample_output_is_what_its_command_prints():
    """The sample table below the quick start's run line comes from that command: its message
    count is the line's --iters, its size the line's --sizes, the port the default, and a
    table for each mode it runs."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Quick start")
    section = readme[start:readme.index("\n## ", start + 1)]
    run_line = next(line for line in section.splitlines() if line.startswith("hostB$ rdmabench run"))
    iters = re.search(r"--iters (\d+)", run_line)[1]
    size = re.search(r"--sizes (\d+)", run_line)[1]
    pattern = re.search(r"--pattern (\w+)", run_line)[1]
    cq = re.search(r"--cq (\w+)", run_line)[1]
    sample = re.findall(r"```\n(rdmabench \d.*?)```", section, re.S)[0]
    assert ":18515 via" in sample.splitlines()[0], sample.splitlines()[0]
    rows = [line.split() for line in sample.splitlines() if re.match(r"^ \d", line)]
    assert rows and all(r[0] == size and r[1] == iters for r in rows), rows
    titles = re.findall(r"^ (\w+/\w+/\w+) ", sample, re.M)
    assert titles == [f"{pattern}/bw/{cq}", f"{pattern}/lat/{cq}"], titles


def shown_commands():
    """Every `rdmabench COMMAND ...` line in a code block of the README and docs/ (but the CLI
    reference, which is the help itself), with the page it is on (continuation lines joined,
    comments cut)."""
    found = []
    for page in (p for p in PAGES if p.name != "cli.md"):
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", page.read_text(), re.S | re.M):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split(" # ")[0]
                m = re.search(r"(?:^|\$ |[ ;&'(]|build/)rdmabench ([a-z]+)((?: [^#;&|>]*)?)", line)
                if m and not line.lstrip().startswith(("-", "#")) and "rdmabench 0." not in line:
                    found.append((page.relative_to(ROOT), m[1], m[2]))
    return found


def test_every_command_the_docs_show_exists_with_the_options_it_uses(registry):
    commands = {c["name"] for c in registry["commands"]}
    helps = {}
    wrong = []
    for page, command, rest in shown_commands():
        if command not in commands:
            wrong.append((str(page), command, "no such command"))
            continue
        if command not in helps:
            helps[command] = subprocess.run([RDMABENCH, "help", command], capture_output=True,
                                            text=True, timeout=30).stdout
            if command == "study":  # every run option applies
                helps[command] += subprocess.run([RDMABENCH, "help", "run"], capture_output=True,
                                                 text=True, timeout=30).stdout
        for option in re.findall(r"(?:^|\s)(--[a-z][-a-z_]*)", rest):
            if option.startswith("--benchmark_"):  # Google Benchmark's own, which it checks
                continue
            if not re.search(rf"(?:^|[\s,]){option}\b", helps[command]):
                wrong.append((str(page), command, option))
    assert len(shown_commands()) > 20
    assert not wrong, wrong


def test_the_layer_map_reads_every_layer_the_build_enforces():
    """docs/layout.md's map is read from meson.build's layers table: every layer the build made
    an include folder for is in it, in meson.build's order, and nothing else (issue 48: the
    hand-written map named 2 of cli's 12 layers)."""
    rows = layer_map.layers((ROOT / "meson.build").read_text())
    built = sorted(p.name for p in (BUILD / "layer-includes").iterdir())
    assert len(rows) == len(built) and sorted(name for name, _, _ in rows) == built, (rows, built)
    assert rows[0][0] == "core" and rows[-1][0] == "cli", rows
    names = [name for name, _, _ in rows]
    below = [all(names.index(u) < names.index(name) for u in uses) for name, _, uses in rows]
    assert below == [True] * len(rows), rows


def demo_default(name):
    """A default of tools/demo (`SIZES=2:1M ITERS=100 ...`)."""
    return re.search(rf"\b{name}=(\S+)", (ROOT / "tools" / "demo").read_text()).group(1)


def test_the_readme_says_what_the_demo_runs():
    """The README said the demo runs "every pattern, mode and CQ strategy for sizes 2 B..1 MiB";
    its results held 236 rows: no write latency, busy CQs only to 64 KiB. The rows are what
    the deterministic guest's filter leaves of the demo's sweep (its dry run), and the README's
    sentence is held to them."""
    rows_filter = subprocess.run(
        [ROOT / "tools" / "lib" / "run-module", "rdmabench_gate.row_selection", RDMABENCH,
         "deterministic"], capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    sweep = [RDMABENCH, "run", "h", "--sizes", demo_default("SIZES"), "--iters",
             demo_default("ITERS"), "--dry-run"]
    plan = subprocess.run([*sweep, f"--benchmark_filter={rows_filter}"], capture_output=True,
                          text=True, timeout=60)
    assert plan.returncode == 0, plan.stderr
    chosen, of = map(int, re.search(r"(\d+) benchmarks \(of (\d+);", plan.stdout).groups())
    rows = [line.split("/") for line in plan.stdout.split() if line.endswith("/manual_time")]
    assert len(rows) == chosen > 0, (len(rows), chosen)
    readme = " ".join(prose((ROOT / "README.md").read_text()).split())
    assert demo_default("SIZES") == "2:1M" and "2 B..1 MiB" in readme
    assert f"the {chosen} of the {of} benchmarks" in readme, (chosen, of)
    # What the sentence says of them: no write lat; busy CQs for write and read bw, read lat
    # (each up to 64 KiB) and the atomics only; event CQs for everything else.
    assert "no write lat" in readme and not [r for r in rows if r[:2] == ["write", "lat"]]
    busy = {(r[0], r[1]) for r in rows if r[2] == "busy"}
    assert busy == {("write", "bw"), ("read", "bw"), ("read", "lat"), ("fetch_add", "bw"),
                    ("fetch_add", "lat"), ("compare_swap", "bw"), ("compare_swap", "lat")}, busy
    assert max(int(r[3]) for r in rows if r[2] == "busy" and r[0] in ("write", "read")) == 65536
    assert {r[2] for r in rows} == {"busy", "event"}


def mesh_placement():
    """The mesh tests' placement of ranks in the guest (tests/rxe/conftest.py's ON_CPU_0)."""
    conftest = (ROOT / "tests" / "rxe" / "conftest.py").read_text()
    return ast.literal_eval(re.search(r"^ON_CPU_0 = (\[.*\])$", conftest, re.M).group(1))


def test_the_demo_and_the_guide_place_the_mesh_ranks_as_the_mesh_tests_do():
    """The demo's mesh, in the deterministic mesh guest, flagged 4 slow pairs (exit 7) of a
    healthy mesh: placed by the guest's scheduler, a pair's event latency took one of two
    levels (154 or 195 us p50), and the upper was judged slow. The mesh tests pin every rank
    to vCPU 0 for that reason; the demo and the guide's command for the same guest do too."""
    placed = " ".join(mesh_placement()) + " "
    demo = " ".join((ROOT / "tools" / "demo").read_text().replace("\\\n", " ").split())
    assert f'{placed}"$BUILD/rdmabench" mesh' in demo
    guide = " ".join((ROOT / "docs" / "guide.md").read_text().replace("\\\n", " ").split())
    runs = re.findall(r"tools/rxe-vm --deterministic -m mesh:4 .*?rdmabench mesh", guide)
    assert runs and all(f"{placed}build/rdmabench mesh" in run for run in runs), runs
