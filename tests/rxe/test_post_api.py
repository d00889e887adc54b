"""Issue 35 item 2 on real rxe: sends go through the extended post API (ibv_wr_*) by default,
where rxe creates such a QP, and through ibv_post_send with --post-api classic; every pattern,
every transport, a post list and inline payloads, each message checked (--verify), and the
context says which path each side's QPs really used."""
import json

import pytest

from conftest import client, patterns_at
from rdmabench_tools.command_words import replacing

pytestmark = pytest.mark.layout("lo")


def run_rows(rdmabench, layout, server, tmp_path, name, *options):
    out = tmp_path / f"{name}.json"
    proc = client(rdmabench, layout, server, *replacing(
        ["--iters", "64", "--verify", "--cq", "event", "--out", out], options))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    # Counted first, against the engine's own plan for the same options (Google Benchmark's
    # list: a name a line, nothing run).
    plan = client(rdmabench, layout, server, *replacing(
        ["--iters", "64", "--verify", "--cq", "event"], options), "--benchmark_list_tests=true")
    assert plan.returncode == 0, plan.stdout[-3000:] + plan.stderr[-3000:]
    planned = plan.stdout.split()
    assert planned and len(doc["benchmarks"]) == len(planned), (planned, [r["name"] for r in doc["benchmarks"]])
    for row in doc["benchmarks"]:
        assert not row.get("error_occurred") and row["verify_errors"] == 0, row["name"]
    return doc


@pytest.mark.parametrize("api, used", [(None, "ex"), ("ex", "ex"), ("classic", "classic")])
def test_every_pattern_posts_through_the_api_asked_for(rdmabench, layout, server, tmp_path, api,
                                                       used):
    options = ("--pattern", "all", "--mode", "bw,lat", "--sizes", "8,4096")
    doc = run_rows(rdmabench, layout, server, tmp_path, f"rc-{api}", *options,
                   *(("--post-api", api) if api else ()))
    ctx = doc["context"]
    assert ctx["client"]["post_api"] == ctx["server"]["post_api"] == used, ctx
    rows = doc["benchmarks"]
    patterns = {row["rdmabench_spec"]["pattern"] for row in rows}
    assert patterns == {"send", "write", "write_imm", "read", "send_imm", "fetch_add",
                        "compare_swap"}, patterns
    assert len(rows) == 2 * sum(len(patterns_at(s)) for s in (8, 4096)), [r["name"] for r in rows]
    for row in rows:
        assert row["rdmabench_spec"]["post_api"] == (api or "auto"), row["name"]
        assert (f"/post_api:{api}" in row["name"]) == (api is not None), row["name"]


@pytest.mark.parametrize("api", ["ex", "classic"])
def test_datagrams_post_lists_and_inline_payloads_on_both_paths(rdmabench, layout, server,
                                                                tmp_path, api):
    runs = {
        "ud": ("--transport", "ud", "--pattern", "send,send_imm", "--sizes", "64,1024"),
        "uc": ("--transport", "uc", "--pattern", "send,write,write_imm", "--sizes", "64"),
        "list": ("--pattern", "write,send,read", "--mode", "bw", "--sizes", "2",
                 "--post-list", "8", "--signal-every", "8"),
        "inline": ("--pattern", "send,write", "--sizes", "2,64", "--inline", "64"),
    }
    for name, options in runs.items():
        doc = run_rows(rdmabench, layout, server, tmp_path, f"{name}-{api}", *options,
                       "--post-api", api)
        ctx = doc["context"]
        assert ctx["client"]["post_api"] == ctx["server"]["post_api"] == api, (name, ctx)
