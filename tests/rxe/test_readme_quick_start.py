"""The README's install and quick start, followed as written on two rxe hosts: install the build, list the
devices, serve, run, read the table by its legend, and the health-check line. The build lines
are the ones ./tools/test itself runs (meson setup build && ninja -C build)."""
import json
import re
import shlex

import jsonschema
import pytest

from conftest import BUILD, ROOT, run, server_harness

README = (ROOT / "README.md").read_text()
SERVER = "10.99.0.1"  # hostA: the server's address on the RDMA network (veth layout)


def section(heading):
    start = README.index(heading)
    return README[start:README.index("\n## ", start + 1)]


def quick_start():
    return section("## Quick start")


def code_blocks(text):
    return re.findall(r"```\n(.*?)```", text, re.S)


def host_lines(prompt):
    """The commands after `prompt$ ` in the quick start and the health check, in the order given."""
    text = quick_start() + section("## A health check")
    return [line.split("$ ", 1)[1] for block in code_blocks(text)
            for line in block.splitlines() if line.startswith(prompt + "$ ")]


def as_here(command, exe):
    words = shlex.split(command.split(" > ")[0])
    assert words[0] == "rdmabench", command
    return [str(exe)] + [SERVER if w == "hostA" else w for w in words[1:]]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """`meson install -C build`, into a staging root (the build is already made), as the
    README's install section says."""
    build_lines = code_blocks(section("## Install"))[0]
    for line in ("tools/setup-deps", "meson setup build && ninja -C build", "meson install -C build"):
        assert line in build_lines, line
    root = tmp_path_factory.mktemp("root")
    run(["meson", "install", "-C", str(BUILD), "--no-rebuild", "--destdir", str(root)], timeout=120,
        check=True)
    exe = root / "usr" / "local" / "bin" / "rdmabench"
    assert exe.is_file()
    return exe


@pytest.fixture(scope="module")
def readme_server(installed, tmp_path_factory):
    (serve,) = host_lines("hostA")
    srv = server_harness.Server(as_here(serve, installed), 18515, tmp_path_factory.mktemp("s") / "serve.log")
    yield srv
    assert srv.stop() == 0, srv.text()


@pytest.mark.layout("veth")
def test_devices_lists_the_device_the_readme_says(installed):
    proc = run([str(installed), "devices"], check=True)
    assert "rxe" in proc.stdout and "*" in proc.stdout  # the GID marked * is used


@pytest.mark.layout("veth")
def test_the_run_line_prints_the_table_the_legend_explains(installed, readme_server):
    run_line = host_lines("hostB")[0]
    proc = run(as_here(run_line, installed), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    legend = README[README.index("| column | what it is |"):]
    legend = legend[:legend.index("\n\n")]
    columns = {c for cell in re.findall(r"^\| (.*?) \|", legend, re.M) if cell != "column"
               for c in re.findall(r"`([^`]+)`", cell)}
    headers = " ".join(line for line in proc.stdout.splitlines() if line.startswith(" #bytes"))
    paced = {"offered[/s]", "achieved[/s]"}  # only with --rate
    assert {"#bytes", "#msgs", "#iters", "t_min", "t_max", "vcsw_cli/msg"} <= columns, columns
    missing = {c for c in columns - paced if c not in headers}
    assert not missing, (missing, headers)


@pytest.mark.layout("veth")
def test_the_health_check_line_judges_and_writes_valid_json(installed, readme_server):
    """No rxe run reaches 90 Gb/s: the line must exit 8, name the miss, and still write the
    results to standard output, valid against the schema."""
    (check_line,) = [line for line in host_lines("hostB") if "--min-bw" in line]
    assert check_line.endswith("--json > result.json")
    proc = run(as_here(check_line, installed), timeout=300)
    assert proc.returncode == 8, proc.stderr[-3000:]
    assert "rdmabench: FAIL write/bw/busy/65536: " in proc.stderr
    schema = json.loads((ROOT / "docs" / "results.schema.json").read_text())
    jsonschema.validate(json.loads(proc.stdout), schema)
