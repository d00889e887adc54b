"""run --metrics and doctor --metrics as an operator wires them (docs/guide.md, "Watching a
fabric from Prometheus"): the files in node_exporter's textfile directory, node_exporter
serving them, Debian's Prometheus scraping it, and a figure read back through Prometheus' HTTP
API equal to the one the results file holds. A second run that misses its limit replaces the
file, and Prometheus then reads its exit code 8 and limits_held 0: the limit of the guest's
machine type in a --limits-file.

Both daemons listen on 127.0.0.1 only, store in tmp_path, and stop with the test."""
import json
import shutil
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from conftest import client, run, wait_for

pytestmark = pytest.mark.layout("lo")

EXPORTER_PORT = 19100
PROMETHEUS_PORT = 19090
ROW = "write/bw/busy/4096"


def started(cmd, log):
    return subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT)


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except OSError as e:
        return None, str(e)


@pytest.fixture
def prometheus(tmp_path):
    """node_exporter with the textfile collector alone on tmp_path/textfile, Prometheus scraping
    it every second; yields (the textfile directory, a query function)."""
    for exe in ("prometheus", "prometheus-node-exporter", "promtool"):
        assert shutil.which(exe), f"{exe} is missing: tools/setup-deps metrics"
    textfile = tmp_path / "textfile"
    textfile.mkdir()
    config = tmp_path / "prometheus.yml"
    config.write_text("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                      "scrape_configs:\n  - job_name: node\n    static_configs:\n"
                      f"      - targets: ['127.0.0.1:{EXPORTER_PORT}']\n")
    exporter = started(["prometheus-node-exporter", "--collector.disable-defaults",
                        "--collector.textfile", f"--collector.textfile.directory={textfile}",
                        f"--web.listen-address=127.0.0.1:{EXPORTER_PORT}"],
                       tmp_path / "node-exporter.log")
    server = started(["prometheus", f"--config.file={config}",
                      f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                      f"--web.listen-address=127.0.0.1:{PROMETHEUS_PORT}"],
                     tmp_path / "prometheus.log")
    base = f"http://127.0.0.1:{PROMETHEUS_PORT}"

    def query(expr):
        status, body = get(f"{base}/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
        assert status == 200, body
        return json.loads(body)["data"]["result"]

    try:
        wait_for(lambda: get(f"{base}/-/ready")[0] == 200, "Prometheus ready", 120)
        wait_for(lambda: get(f"http://127.0.0.1:{EXPORTER_PORT}/metrics")[0] == 200,
                 "node_exporter serving", 60)
        yield textfile, query
    finally:
        for p in (server, exporter):
            p.terminate()
            p.wait(timeout=30)


def value_once_scraped(query, expr, expected):
    """The query's one value, once Prometheus has scraped the file that gives it `expected`."""
    seen = []

    def scraped():
        seen[:] = query(expr)
        return len(seen) == 1 and float(seen[0]["value"][1]) == expected

    wait_for(scraped, lambda: f"{expr} = {expected} (Prometheus returned {seen})", 60)
    print(f"Prometheus: {expr} -> {json.dumps(seen[0])}")  # shown under pytest -s
    return seen[0]


def test_prometheus_reads_what_the_run_measured(rdmabench, layout, server, prometheus, tmp_path):
    textfile, query = prometheus
    out, metrics = tmp_path / "results.json", textfile / "rdmabench.prom"
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw", "--cq", "busy",
                  "--sizes", "4096", "--iters", "2000", "--out", str(out), "--metrics", str(metrics))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    checked = subprocess.run(["promtool", "check", "metrics"], stdin=metrics.open(),
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stderr
    rows = [r for r in json.loads(out.read_text())["benchmarks"]
            if r["rdmabench_spec"]["name"] == ROW]
    assert len(rows) == 1, rows
    result = value_once_scraped(
        query, f'rdmabench_bytes_per_second{{benchmark="{ROW}"}}', rows[0]["bytes_per_second"])
    assert result["metric"]["pattern"] == "write" and result["metric"]["size"] == "4096", result
    assert result["metric"]["client_cq"] == "busy", result
    value_once_scraped(query, "rdmabench_run_exit_code", 0)
    value_once_scraped(query, f'rdmabench_benchmark_failed{{benchmark="{ROW}"}}', 0)

    # A run that misses its machine type's limit (--limits-file, keyed by the guest's DMI
    # product name; the default entry would pass) replaces the file; Prometheus reads it.
    product = Path("/sys/class/dmi/id/product_name").read_text().strip()
    assert product, "the q35 guest names its product in DMI"
    limits = tmp_path / "limits.json"
    limits.write_text(json.dumps({"machine_types": {product: {"min_bw": 1000}},
                                  "default": {"min_bw": 0.001}}))
    proc = client(rdmabench, layout, server, "--pattern", "write", "--mode", "bw", "--cq", "busy",
                  "--sizes", "4096", "--iters", "200", "--limits-file", str(limits), "--metrics",
                  str(metrics))
    assert proc.returncode == 8, proc.stdout + proc.stderr
    assert f"machine type '{product}'" in proc.stderr, proc.stderr
    value_once_scraped(query, "rdmabench_run_exit_code", 8)
    value_once_scraped(query, "rdmabench_run_limits_held", 0)
    assert sorted(p.name for p in textfile.iterdir()) == ["rdmabench.prom"]  # no temporary left


def test_prometheus_reads_the_doctors_findings(rdmabench, prometheus):
    textfile, query = prometheus
    proc = run([rdmabench, "doctor", "--metrics", str(textfile / "doctor.prom")])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    value_once_scraped(query, "rdmabench_doctor_exit_code", 0)
    states = query('rdmabench_doctor_finding_level{check="state"}')
    assert states and all(float(s["value"][1]) == 0 for s in states), states
