"""tools/compare on real rxe results and on doctored copies of them."""
import copy
import json


import pytest

from conftest import FIXTURE, OLD_SWEEP, run_tool, run_tool_into_closed_pipe, scaled

LATENCY_COUNTERS = ("lat_min_us", "lat_mean_us", "lat_p50_us", "lat_p90_us", "lat_p99_us",
                    "lat_p999_us", "lat_max_us")
BANDWIDTH_COUNTERS = ("bytes_per_second", "msgs_per_second")


def verdicts(stdout):
    """benchmark name -> verdict, from the text table."""
    rows = {}
    for line in stdout.splitlines():
        parts = line.split()
        if parts and parts[0].count("/") == 3 and not parts[0].startswith("-"):
            rows[parts[0]] = line
    return rows


def test_same_file_is_no_regression():
    proc = run_tool("compare", FIXTURE, FIXTURE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no regression" in proc.stdout
    assert len(verdicts(proc.stdout)) == 48


def test_a_reader_that_leaves_early_ends_the_output_not_the_verdict(sweep, write_json):
    """`tools/compare a b | head`: no traceback, and the exit status is still the verdict."""
    proc = run_tool_into_closed_pipe("compare", FIXTURE, FIXTURE)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    slow = lambda n: n.startswith("write/bw/busy/65536")  # noqa: E731
    new = write_json(scaled(sweep, slow, BANDWIDTH_COUNTERS, 0.5), "new.json")
    proc = run_tool_into_closed_pipe("compare", FIXTURE, new, "--threshold", "50")
    assert proc.returncode == 12 and proc.stderr == "", proc.stderr


def test_latencies_of_ten_milliseconds_and_more_print_as_plain_numbers(sweep, write_json):
    """Figures of five digits and more print whole (18430), never as 1.843e+04."""
    slow = lambda n: "/lat/" in n  # noqa: E731
    base = write_json(scaled(sweep, slow, LATENCY_COUNTERS, 1000), "base.json")
    proc = run_tool("compare", base, base)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line for line in verdicts(proc.stdout).values() if "latency" in line]
    assert rows and not [line for line in rows if "e+" in line], rows
    assert any(cell.isdigit() and len(cell) >= 5 for line in rows for cell in line.split())


def test_a_figure_of_1e300_prints_to_its_precision_not_300_digits(sweep, write_json):
    """A schema-valid 1e300 printed as 301 digits (and its change as 300 more): a double holds
    about 16 significant digits, and what lies beyond them is no figure."""
    huge = lambda n: n.startswith("write/bw/busy/65536")  # noqa: E731
    new = write_json(scaled(sweep, huge, BANDWIDTH_COUNTERS, 1e300 / 33e6), "new.json")
    proc = run_tool("compare", FIXTURE, new)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    row = verdicts(proc.stdout)["write/bw/busy/65536"]
    assert "e+293" in row and len(row) < 200, row  # 1e300 B/s in MiB/s
    assert max(len(line) for line in proc.stdout.splitlines()) < 200, proc.stdout


def test_small_noise_is_no_regression(sweep, write_json):
    new = write_json(scaled(sweep, lambda n: "/bw/" in n, BANDWIDTH_COUNTERS, 0.8), "new.json")
    proc = run_tool("compare", FIXTURE, new, "--threshold", "50")
    assert proc.returncode == 0, proc.stdout


def test_bandwidth_regression_is_flagged(sweep, write_json):
    slow = lambda n: n.startswith("write/bw/busy/65536")  # noqa: E731
    new = write_json(scaled(sweep, slow, BANDWIDTH_COUNTERS, 0.5), "new.json")
    proc = run_tool("compare", FIXTURE, new, "--threshold", "50")
    assert proc.returncode == 12, proc.stdout
    rows = verdicts(proc.stdout)
    assert "REGRESSION" in rows["write/bw/busy/65536"]
    assert "2.00x" in rows["write/bw/busy/65536"]
    flagged = [name for name, line in rows.items() if "REGRESSION" in line]
    assert flagged == ["write/bw/busy/65536"]


def test_latency_regression_is_flagged(sweep, write_json):
    slow = lambda n: n.startswith("read/lat/event/2/")  # noqa: E731
    new = write_json(scaled(sweep, slow, LATENCY_COUNTERS, 2.0), "new.json")
    proc = run_tool("compare", FIXTURE, new, "--threshold", "50")
    assert proc.returncode == 12, proc.stdout
    rows = verdicts(proc.stdout)
    assert "REGRESSION" in rows["read/lat/event/2"]
    assert [n for n, line in rows.items() if "REGRESSION" in line] == ["read/lat/event/2"]


def test_faster_latency_is_not_a_regression(sweep, write_json):
    new = write_json(scaled(sweep, lambda n: "/lat/" in n, LATENCY_COUNTERS, 0.5), "new.json")
    proc = run_tool("compare", FIXTURE, new, "--threshold", "50")
    assert proc.returncode == 0, proc.stdout
    assert "faster" in verdicts(proc.stdout)["send/lat/busy/2"]


def test_single_runs_use_the_threshold_alone_and_say_so(sweep, write_json):
    single = dict(sweep, benchmarks=[b for b in sweep["benchmarks"]
                                     if b.get("repetition_index", 0) == 0 and b.get("run_type") != "aggregate"])
    base = write_json(single, "base.json")
    new = write_json(scaled(single, lambda n: n.startswith("send/bw/event/4096"), BANDWIDTH_COUNTERS, 0.4),
                     "new.json")
    proc = run_tool("compare", base, new, "--threshold", "50")
    assert proc.returncode == 12, proc.stdout
    assert "threshold only" in proc.stdout
    assert "REGRESSION" in verdicts(proc.stdout)["send/bw/event/4096"]


def with_more_repetitions(doc, copies):
    """Every repetition repeated `copies` times with a +-1% wobble, as if run with more
    repetitions: each copy its own repetition_index, as Google Benchmark numbers them (a row
    given twice is refused)."""
    rows = []
    for row in doc["benchmarks"]:
        if row.get("run_type") == "aggregate":
            continue
        for k in range(copies):
            wobble = 1 + 0.01 * (k - copies // 2)
            copy_ = {key: (value * wobble if key.startswith(("lat_", "bytes_", "msgs_")) else value)
                     for key, value in row.items()}
            reps = row.get("repetitions", 1)
            copy_["repetitions"] = reps * copies
            copy_["repetition_index"] = k * reps + row.get("repetition_index", 0)
            rows.append(copy_)
    return dict(doc, benchmarks=rows)


def test_three_repetitions_are_too_few_for_the_u_test_and_it_says_so():
    proc = run_tool("compare", FIXTURE, FIXTURE)
    assert "too few for the U test" in proc.stdout and "threshold only" in proc.stdout


def test_significance_is_required_with_enough_repetitions(sweep, write_json):
    six = with_more_repetitions(sweep, 2)
    base = write_json(six, "base.json")
    # Half the repetitions collapse: the median is 2x worse, but the U test cannot call it.
    doc = with_more_repetitions(sweep, 2)
    mine = [b for b in doc["benchmarks"] if b["name"].startswith("write/bw/busy/4096/")]
    for row in mine[:3]:
        row["bytes_per_second"] *= 0.1
    proc = run_tool("compare", base, write_json(doc, "new.json"), "--threshold", "50")
    assert proc.returncode == 0, proc.stdout
    assert "Mann-Whitney" in proc.stdout
    assert "slower, not significant" in verdicts(proc.stdout)["write/bw/busy/4096"]
    # All of them collapse: significant and beyond the threshold.
    for row in mine:
        row["bytes_per_second"] *= 0.4
    proc = run_tool("compare", base, write_json(doc, "new.json"), "--threshold", "50")
    assert proc.returncode == 12, proc.stdout
    assert "REGRESSION" in verdicts(proc.stdout)["write/bw/busy/4096"]


def test_benchmark_missing_in_new_fails_and_is_named(sweep, write_json):
    doc = dict(sweep, benchmarks=[b for b in sweep["benchmarks"] if not b["name"].startswith("read/lat/busy/4096/")])
    proc = run_tool("compare", FIXTURE, write_json(doc, "new.json"))
    assert proc.returncode == 12, proc.stdout
    assert "MISSING in NEW" in verdicts(proc.stdout)["read/lat/busy/4096"]


def test_benchmark_missing_in_base_is_reported_not_failed(sweep, write_json):
    doc = dict(sweep, benchmarks=[b for b in sweep["benchmarks"] if not b["name"].startswith("send/bw/busy/2/")])
    proc = run_tool("compare", write_json(doc, "base.json"), FIXTURE)
    assert proc.returncode == 0, proc.stdout
    assert "missing in BASE" in verdicts(proc.stdout)["send/bw/busy/2"]


def test_failed_benchmark_in_new_fails(sweep, write_json):
    for row in sweep["benchmarks"]:
        if row["name"].startswith("write_imm/lat/busy/2/"):
            row.update(error_occurred=True, error_message="ibv_poll_cq: timed out after 5 s")
    proc = run_tool("compare", FIXTURE, write_json(sweep, "new.json"))
    assert proc.returncode == 12, proc.stdout
    assert "FAILED in NEW: ibv_poll_cq: timed out" in verdicts(proc.stdout)["write_imm/lat/busy/2"]


def test_markdown_table(sweep, write_json):
    proc = run_tool("compare", FIXTURE, FIXTURE, "--format", "markdown")
    assert proc.returncode == 0
    assert "| benchmark | metric | base | new |" in proc.stdout
    assert "| send/bw/busy/2 | bandwidth [MiB/s] |" in proc.stdout


def test_malformed_json_exits_2_with_one_line(write_json):
    bad = write_json('{"context": {"rdmabench_schema": "1"}, "benchmarks": [', "bad.json")
    proc = run_tool("compare", FIXTURE, bad)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "not valid JSON" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_foreign_json_exits_2(sweep, write_json):
    del sweep["context"]["rdmabench_schema"]
    for doc, why in ((sweep, "not rdmabench output"), ([1, 2], "not Google Benchmark JSON"),
                     ({"context": {"rdmabench_schema": 9}, "benchmarks": []}, "schema 9")):
        proc = run_tool("compare", write_json(doc, "foreign.json"), FIXTURE)
        assert proc.returncode == 2, proc.stdout
        assert why in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("tool", ["compare", "plot"])
def test_a_schema_that_is_not_a_whole_number_or_a_row_given_twice_breaks_the_schema_exit_13(
        sweep, write_json, tmp_path, tool):
    # Before: a quoted schema ("5", the file's own number) was exit 2 ("schema 5 is not
    # supported"), and a row given twice was taken as a second repetition (exit 0).
    extra = ("--out", str(tmp_path / "figures")) if tool == "plot" else (FIXTURE,)
    for schema in ("5", 5.0, True, [5]):
        doc = json.loads(json.dumps(sweep))
        doc["context"]["rdmabench_schema"] = schema
        proc = run_tool(tool, write_json(doc, "quoted.json"), *extra)
        assert proc.returncode == 13, (schema, proc.stderr)
        assert "context.rdmabench_schema is " in proc.stderr and "a whole number" in proc.stderr, \
            proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    doc = json.loads(json.dumps(sweep))
    doc["benchmarks"].append(doc["benchmarks"][3])
    proc = run_tool(tool, write_json(doc, "twice.json"), *extra)
    assert proc.returncode == 13, proc.stderr
    assert f"('{doc['benchmarks'][3]['name']}') repeats benchmarks[3]" in proc.stderr, proc.stderr


def test_a_missing_counter_is_exit_2_and_a_missing_spec_breaks_the_schema_exit_13(sweep, write_json):
    first = json.loads(json.dumps(sweep))
    del first["benchmarks"][0]["bytes_per_second"]
    proc = run_tool("compare", write_json(first, "a.json"), FIXTURE)
    assert proc.returncode == 2 and "bytes_per_second" in proc.stderr
    # The tools read each row's spec, never its name: a row without one is refused, naming it,
    # as a file that breaks the results schema (README: exit 13).
    for broken in (None, {"pattern": "send"}, dict(sweep["benchmarks"][1]["rdmabench_spec"], size="64")):
        doc = json.loads(json.dumps(sweep))
        row = doc["benchmarks"][1]
        if broken is None:
            del row["rdmabench_spec"]
        else:
            row["rdmabench_spec"] = broken
        proc = run_tool("compare", write_json(doc, "b.json"), FIXTURE)
        assert proc.returncode == 13, broken
        assert row["name"] in proc.stderr and "rdmabench_spec" in proc.stderr, proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_row_is_known_by_its_spec_not_its_name(sweep, write_json):
    """A name Google Benchmark's tools would print differently changes nothing."""
    for row in sweep["benchmarks"]:
        row["name"] = "renamed/" + row["name"]
    proc = run_tool("compare", write_json(sweep, "renamed.json"), FIXTURE)
    assert proc.returncode == 0, proc.stderr
    assert "send/bw/busy/2" in proc.stdout and "renamed/" not in proc.stdout


def test_schema_1_is_refused_with_one_line(sweep, write_json):
    sweep["context"]["rdmabench_schema"] = "1"
    proc = run_tool("compare", write_json(sweep, "old.json"), FIXTURE)
    assert proc.returncode == 2
    assert "schema 1" in proc.stderr and "run it again" in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_missing_file_and_bad_options_exit_2(tmp_path):
    proc = run_tool("compare", tmp_path / "nope.json", FIXTURE)
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    proc = run_tool("compare", FIXTURE, FIXTURE, "--threshold", "-5")
    assert proc.returncode == 2


QPS = FIXTURE.parent / "rxe-qps.json"  # `run --qps 1,2,4,8`, veth guest


def test_per_qp_rows_only_on_request():
    plain = run_tool("compare", QPS, QPS)
    assert plain.returncode == 0 and " qp0 " not in plain.stdout
    per_qp = run_tool("compare", QPS, QPS, "--per-qp")
    assert per_qp.returncode == 0, per_qp.stdout
    # One row per QP of every benchmark with several: 2 + 4 + 8 for write and for send.
    assert per_qp.stdout.count(" qp") - plain.stdout.count(" qp") >= 2 * (2 + 4 + 8)


def test_one_slow_qp_fails_per_qp_while_the_aggregate_holds(write_json):
    import json
    doc = json.loads(QPS.read_text())
    for row in doc["benchmarks"]:
        if row["name"].startswith("write/bw/busy/65536/qps:4/"):
            row["qp2_bytes_per_second"] *= 0.5  # the sum is left as it was
    new = write_json(doc, "new.json")
    assert run_tool("compare", QPS, new).returncode == 0
    proc = run_tool("compare", QPS, new, "--per-qp")
    assert proc.returncode == 12, proc.stdout
    failing = [l for l in proc.stdout.splitlines() if "REGRESSION" in l and l.startswith("write/")]
    assert len(failing) == 1 and "write/bw/busy/65536/qps:4 qp2" in failing[0], failing


def test_schema_2_is_read_as_rc_and_schema_3_must_name_its_transport(write_json):
    """Schema 2 came before the transport axis (every row ran over rc); from schema 3 on each
    row's spec names its transport, and a row without one is refused. The tools read schemas
    2 to 4 in schema 5's layout: the old file against its schema 5 conversion is no change."""
    old = json.loads(OLD_SWEEP.read_text())
    assert old["context"]["rdmabench_schema"] == 2
    proc = run_tool("compare", OLD_SWEEP, FIXTURE)
    assert proc.returncode == 0 and "no regression" in proc.stdout, proc.stdout + proc.stderr
    new = json.loads(json.dumps(old))
    new["context"]["rdmabench_schema"] = 3
    for row in new["benchmarks"]:
        row["rdmabench_spec"]["transport"] = "rc"
    proc = run_tool("compare", OLD_SWEEP, write_json(new, "three.json"))
    assert proc.returncode == 0 and "no regression" in proc.stdout, proc.stdout + proc.stderr
    del new["benchmarks"][1]["rdmabench_spec"]["transport"]
    proc = run_tool("compare", OLD_SWEEP, write_json(new, "no-transport.json"))
    assert proc.returncode == 13 and "'transport' is a required property" in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_rows_of_two_transports_are_never_selected_as_one(two_transports, write_json):
    """A file with rc and (say) ud rows of the same pattern, mode, strategy and size: a figure
    takes the file's first transport unless told, never both as one line."""
    from rdmabench_tools import rdmabench_results as rr
    doc = two_transports
    run = rr.load(write_json(doc, "two.json"))
    assert run.transports == ["rc", "ud"]
    picked = [b for b in run.select("bw", "send", "busy") if b.size == 4096]
    assert [b.transport for b in picked] == ["rc"]
    both = [b for b in run.select("bw", "send", "busy", transport=None) if b.size == 4096]
    assert sorted(b.transport for b in both) == ["rc", "ud"]


def test_a_post_list_row_is_a_scale_of_its_own_never_the_plain_line(sweep, write_json):
    """A row with post_list 8 in its spec is another benchmark (its name says /post_list:8):
    the plain selection leaves it out, and its scale names it; a spec without post_list (files
    from before it) reads as 1."""
    from rdmabench_tools import rdmabench_results as rr
    doc = copy.deepcopy(sweep)
    row = next(r for r in doc["benchmarks"] if r["rdmabench_spec"]["name"] == "send/bw/busy/4096")
    chained = copy.deepcopy(row)
    chained["name"] = chained["rdmabench_spec"]["name"] = "send/bw/busy/4096/post_list:8"
    chained["rdmabench_spec"]["post_list"] = 8
    doc["benchmarks"].append(chained)
    run = rr.load(write_json(doc, "chained.json"))
    plain = [b for b in run.select("bw", "send", "busy") if b.size == 4096]
    assert [b.post_list for b in plain] == [1]
    every = [b for b in run.select("bw", "send", "busy", scale=None) if b.size == 4096]
    assert sorted(b.scale for b in every) == ["", "post_list:8"]
    chained["rdmabench_spec"]["post_list"] = "8"
    with pytest.raises(rr.ResultsError, match=r"rdmabench_spec\.post_list .*'8' is not of type"):
        rr.load(write_json(doc, "bad.json"))


def test_an_srq_row_is_a_scale_of_its_own_never_the_plain_line(sweep, write_json):
    """A row with srq in its spec (its name says /srq) is another benchmark; a spec without
    srq (files from before it) reads as off."""
    from rdmabench_tools import rdmabench_results as rr
    doc = copy.deepcopy(sweep)
    row = next(r for r in doc["benchmarks"] if r["rdmabench_spec"]["name"] == "send/bw/busy/4096")
    shared = copy.deepcopy(row)
    shared["name"] = shared["rdmabench_spec"]["name"] = "send/bw/busy/4096/srq"
    shared["rdmabench_spec"]["srq"] = True
    doc["benchmarks"].append(shared)
    run = rr.load(write_json(doc, "srq.json"))
    assert [b.srq for b in run.select("bw", "send", "busy") if b.size == 4096] == [False]
    every = [b for b in run.select("bw", "send", "busy", scale=None) if b.size == 4096]
    assert sorted(b.scale for b in every) == ["", "srq"]
    shared["rdmabench_spec"]["srq"] = "yes"
    with pytest.raises(rr.ResultsError, match=r"rdmabench_spec\.srq .*'yes' is not of type"):
        rr.load(write_json(doc, "bad.json"))


def test_what_the_wire_saw_is_shown_beside_the_verdict(sweep, write_json):
    """A row whose ports retransmitted says so in the wire column, BASE/NEW, from the engine's
    list of counters that mean trouble (the context's, not one of compare's own)."""
    alarms = [{"counter": "hw_completer_retry_err", "means": "retransmission", "flags_row": True,
               "resend_episode": True},
              {"counter": "hw_np_cnp_sent", "means": "congestion", "flags_row": False,
               "resend_episode": False}]
    base, new = copy.deepcopy(sweep), copy.deepcopy(sweep)
    for doc in (base, new):
        doc["context"]["rdmabench_device_alarms"] = alarms
    for row in new["benchmarks"]:
        if row["name"].startswith("write/bw/busy/65536"):
            row["client_dev_hw_completer_retry_err"] = 19
            row["server_dev_hw_np_cnp_sent"] = 5  # congestion: not flagged
    proc = run_tool("compare", write_json(base, "base.json"), write_json(new, "new.json"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = verdicts(proc.stdout)
    assert "retransmission 0/19" in rows["write/bw/busy/65536"], rows["write/bw/busy/65536"]
    assert "congestion" not in proc.stdout
    assert "wire: what either side's port counters flagged" in proc.stdout
    assert not [r for n, r in rows.items() if "retransmission" in r and not n.startswith("write/bw/busy/65536")]
    new["context"]["rdmabench_device_alarms"] = [{"counter": 5}]
    proc = run_tool("compare", write_json(base, "base.json"), write_json(new, "bad.json"))
    assert proc.returncode == 13 and "rdmabench_device_alarms" in proc.stderr, proc.stderr


def test_junit_has_a_case_per_row_and_a_failure_with_figures_per_regression(sweep, write_json,
                                                                             tmp_path):
    """--junit: read back by a JUnit parser (Debian's python3-junitparser): one test case per
    compared row, the regression a failure whose text carries its figures, the rest passed."""
    import junitparser

    slow = lambda n: n.startswith("write/bw/busy/65536")  # noqa: E731
    new = write_json(scaled(sweep, slow, BANDWIDTH_COUNTERS, 0.5), "new.json")
    report = tmp_path / "verdicts.xml"
    proc = run_tool("compare", FIXTURE, new, "--threshold", "50", "--junit", report)
    assert proc.returncode == 12, proc.stdout + proc.stderr
    xml = junitparser.JUnitXml.fromfile(str(report))
    cases = {case.name: case for suite in xml for case in suite}
    assert set(cases) == set(verdicts(proc.stdout)), set(cases) ^ set(verdicts(proc.stdout))
    failed = {name: case for name, case in cases.items() if not case.is_passed}
    assert list(failed) == ["write/bw/busy/65536"], list(failed)
    failure = failed["write/bw/busy/65536"].result[0]
    assert isinstance(failure, junitparser.Failure) and failure.message == "REGRESSION"
    assert "slowdown: 2.0000x" in failure.text and "change: -50.00 %" in failure.text, failure.text
    assert xml.failures == 1 and xml.tests == len(cases)


def test_junit_of_a_clean_compare_passes_every_case(tmp_path):
    import junitparser

    report = tmp_path / "verdicts.xml"
    proc = run_tool("compare", FIXTURE, FIXTURE, "--junit", report)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    xml = junitparser.JUnitXml.fromfile(str(report))
    cases = [case for suite in xml for case in suite]
    assert len(cases) == 48 and all(case.is_passed for case in cases)


def test_summary_is_appended_and_renders_as_a_table(sweep, write_json, tmp_path):
    """--summary appends (a job summary collects every step's) Markdown that renders as a
    table with a row per benchmark, whatever the table printed on the terminal."""
    import markdown

    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    slow = lambda n: n.startswith("write/bw/busy/65536")  # noqa: E731
    new = write_json(scaled(sweep, slow, BANDWIDTH_COUNTERS, 0.5), "new.json")
    proc = run_tool("compare", FIXTURE, new, "--threshold", "50", "--summary", summary)
    assert proc.returncode == 12, proc.stdout + proc.stderr
    text = summary.read_text()
    assert text.startswith("earlier step\n") and "rdmabench compare: REGRESSION" in text
    html = markdown.markdown(text, extensions=["tables"])
    assert html.count("<table>") == 1 and html.count("<tr>") == 48 + 1, html[:2000]
    assert "<strong>REGRESSION</strong>" in html


def test_report_files_in_a_missing_folder_are_refused_before_comparing(tmp_path):
    for option in ("--junit", "--summary"):
        proc = run_tool("compare", FIXTURE, FIXTURE, option, tmp_path / "no" / "such.xml")
        assert proc.returncode == 2 and "does not exist or is not writable" in proc.stderr, proc.stderr


def test_bandwidth_is_shown_in_the_tables_mib_per_second(sweep):
    """It printed decimal MB/s labelled "MB/s" beside the engine's MiB/s table (4.9 % apart)."""
    proc = run_tool("compare", FIXTURE, FIXTURE, "--format", "markdown")
    row = next(line for line in proc.stdout.splitlines() if line.startswith("| send/bw/busy/2 |"))
    shown = float(row.split("|")[3])
    repetitions = sorted(b["bytes_per_second"] for b in sweep["benchmarks"]
                         if b.get("rdmabench_spec", {}).get("name") == "send/bw/busy/2"
                         and b.get("run_type") == "iteration")
    median = repetitions[len(repetitions) // 2]  # compare shows the median of the repetitions
    assert "[MiB/s]" in row and "MB/s" not in proc.stdout.replace("MiB/s", ""), row
    assert shown == pytest.approx(median / 2**20, rel=1e-3), (shown, repetitions)


@pytest.mark.parametrize("statistic", ["p99.9", "max"])
def test_latency_statistics_are_named_as_run_names_them(statistic):
    """compare said p999 and had no max, where run --max-lat and the table say p99.9 and max."""
    proc = run_tool("compare", FIXTURE, FIXTURE, "--latency", statistic)
    assert proc.returncode == 0, proc.stderr
    assert f"latency {statistic} [us]" in proc.stdout, proc.stdout[:2000]
