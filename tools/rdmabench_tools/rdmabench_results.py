"""Reading `rdmabench run --out` JSON (Google Benchmark JSON with an rdmabench context).

One concern: turn a results file into checked, typed data, or fail with a one-line
ResultsError that names the file and what is wrong. tools/plot and tools/compare share it.
"""

import json
import math
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from rdmabench_tools import exit_codes, json_input, results_upgrade, validate_results
from rdmabench_tools.printable_text import excerpt

# Schema 2: each row carries its spec as an object (rdmabench_spec), the context is typed and
# holds the counter catalogue. Schema 1 rows carried their spec only in their name. Schema 5
# groups each side's facts under client and server and types the parameters; files of 2 to 4
# are read in its layout (results_upgrade.py).
SUPPORTED_SCHEMAS = {2, 3, 4, 5}
MODES = ("bw", "lat")

# What a row's spec must say, and the Benchmark field each goes to.
_SPEC_FIELDS = {"name": str, "pattern": str, "mode": str, "cq": str, "size": int, "rate": int,
                "qps": int, "threads": int, "cq_per_qp": bool, "bidir": bool, "transport": str}
# What a row's spec may say (files from before it existed lack it), and its default there.
_OPTIONAL_SPEC_FIELDS = {"post_list": (int, 1), "srq": (bool, False)}
# Schema 2 came before the transport axis: every row of it ran over rc.
_SCHEMA_2_TRANSPORT = "rc"
_PER_QP = re.compile(r"^qp(?P<index>\d+)_bytes_per_second$")


class ResultsError(Exception):
    """A results file that cannot be used; str() is a one-line message naming the file, and
    exit_code what a tool exits with for it: 13 (invalid_file) when it breaks the results
    schema, 2 (usage) when it cannot be read as one at all."""

    def __init__(self, message, exit_code=exit_codes.USAGE):
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Metric:
    """How a tool shows one counter. Which direction is better is the engine's to say: see
    Run.higher_is_better, from the counter catalogue in the file."""
    key: str  # the counter in the JSON
    title: str
    unit: str
    scale: float = 1.0  # JSON value * scale = value in `unit`


# Bandwidth as the engine's table shows it: MiB/s (2^20 bytes, perftest's "MB") and Gb/s.
BANDWIDTH = Metric("bytes_per_second", "bandwidth", "MiB/s", 1 / 2**20)
BANDWIDTH_GBITS = Metric("bytes_per_second", "bandwidth", "Gb/s", 8e-9)
MSG_RATE = Metric("msgs_per_second", "message rate", "msgs/s")
# The latency statistics, named as the table's columns and run --max-lat name them (t_p99.9,
# p99.9); each is the counter lat_<name without the dot>_us.
LATENCY = {
    stat: Metric(f"lat_{stat.replace('.', '')}_us", f"latency {stat}", "us")
    for stat in ("min", "mean", "p50", "p90", "p99", "p99.9", "max")
}
CLIENT_CPU = Metric("client_cpu_us_per_msg", "client CPU per message", "us")
SERVER_CPU = Metric("server_cpu_us_per_msg", "server CPU per message", "us")
ACHIEVED_RATE = Metric("achieved_rate", "achieved rate", "round trips/s")

_REQUIRED = {
    "bw": ("bytes_per_second", "msgs_per_second"),
    "lat": ("lat_p50_us", "lat_p99_us", "lat_p999_us"),
}


@dataclass
class Benchmark:
    """Every repetition of one benchmark, e.g. write/bw/busy/65536."""

    name: str
    pattern: str
    mode: str
    cq: str
    size: int
    rate: int = 0  # lat with --rate: offered round trips per second (0: back to back)
    qps: int = 1  # --qps: QPs, spread over the threads
    threads: int = 1
    cq_per_qp: bool = False
    bidir: bool = False  # bw: both directions at once; the figures are their sum
    transport: str = "rc"  # the QP type, as the engine names it
    post_list: int = 1  # bw --post-list: sends chained per ibv_post_send
    srq: bool = False  # --srq: receives from a shared receive queue
    samples: list = field(default_factory=list)  # iteration rows, one per repetition
    errors: list = field(default_factory=list)  # error messages of failed repetitions

    @property
    def ok(self):
        return bool(self.samples)

    def values(self, metric):
        return [row[metric.key] * metric.scale for row in self.samples if metric.key in row]

    def median(self, metric):
        vals = self.values(metric)
        return statistics.median(vals) if vals else math.nan

    def best(self, metric, higher_is_better):
        """The best repetition's figure: the highest where higher is better, else the lowest."""
        vals = self.values(metric)
        return (max(vals) if higher_is_better else min(vals)) if vals else math.nan

    def spread(self, metric):
        vals = self.values(metric)
        return (min(vals), max(vals)) if vals else (math.nan, math.nan)

    @property
    def scale(self):
        """'' for one QP one way; else what the name adds, e.g. 'qps:4/threads:2/bidir'."""
        return "/".join(([f"qps:{self.qps}"] if self.qps > 1 else []) + self.scale_beyond_qps())

    def scale_beyond_qps(self):
        """The scale-out settings but the QP count: ['threads:2', 'cq-per-qp', 'bidir']."""
        parts = [f"threads:{self.threads}"] if self.threads > 1 else []
        parts += ["cq-per-qp"] if self.cq_per_qp else []
        parts += ["bidir"] if self.bidir else []
        parts += [f"post_list:{self.post_list}"] if self.post_list > 1 else []
        parts += ["srq"] if self.srq else []
        return parts

    def per_qp(self, metric=None):
        """Per QP (in QP order), the median over repetitions of its bandwidth in the metric's
        unit (client to server; the engine writes qpN_bytes_per_second over the aggregate
        window, so they add up to the forward direction)."""
        scale = metric.scale if metric else 1.0
        keys = sorted((int(m["index"]), k) for k in (self.samples[0] if self.samples else {})
                      if (m := _PER_QP.match(k)))
        return [statistics.median(row[k] * scale for row in self.samples if k in row)
                for _, k in keys]

    @property
    def round_trip(self):
        """'half' or 'full': what the latency figures of this benchmark measure."""
        if self.samples and self.samples[0].get("half_round_trip", 1.0) == 0.0:
            return "full"
        return "half"


@dataclass
class Run:
    """One results file."""

    path: str
    label: str
    context: dict
    benchmarks: dict  # name -> Benchmark, in file order
    chosen_transport: str = ""  # what select() takes by default; "": the file's first

    def higher_is_better(self, key):
        """The catalogue's direction for counter `key`; ResultsError where it says none."""
        entry = self.counter(key)
        if entry is None or entry.get("better") not in ("higher", "lower"):
            raise ResultsError(f"{self.path}: the counter catalogue gives no direction for '{key}'")
        return entry["better"] == "higher"

    def counter(self, key):
        """The counter catalogue's entry for `key` (unit, per, better, description), or None."""
        return catalogue_entry(self.context.get("rdmabench_counters", []), key)

    def wire_trouble(self, bench):
        """What the ports' counters flagged over a benchmark's runs: kind (retransmission,
        sequence, rnr) -> the median over its repetitions of both sides' counts, from the
        engine's list of such counters (context rdmabench_device_alarms, those that flag a row).
        Empty where nothing was flagged, or the file has no device counters."""
        kinds = {}
        for alarm in self.context.get("rdmabench_device_alarms", []):
            if alarm["flags_row"]:
                kinds.setdefault(alarm["means"], []).append(alarm["counter"])
        out = {}
        for kind, counters in kinds.items():
            counts = [sum(row.get(f"{side}_dev_{c}", 0) for side in ("client", "server")
                          for c in counters) for row in bench.samples]
            if counts and statistics.median(counts) > 0:
                out[kind] = statistics.median(counts)
        return out

    def side(self, name):
        """One side's facts (schema 5's context.client or context.server)."""
        return self.context.get(name) or {}

    def describe(self):
        """'rxe1 (rxe) via rdmacm': device, driver and bootstrap from the context."""
        c = self.side("client")
        return f"{c.get('device', '?')} ({c.get('driver', '?')}) via {self.context.get('bootstrap', '?')}"

    @property
    def timing(self):
        """('icount', shift) for the deterministic guest; ('realtime', '') otherwise."""
        c = self.side("client")
        mode = c.get("timing_mode") or "realtime"
        return mode, c.get("icount_shift", "") if mode == "icount" else ""

    @property
    def software_emulated(self):
        """Whether the client ran in a guest QEMU emulated in software without icount (no KVM):
        wall-clock figures of the emulator, busy polling most of all."""
        return self.side("client").get("acceleration") == "tcg"

    @property
    def stack(self):
        """What a deterministic figure depends on besides rdmabench's own code, by name: the
        instructions the guest kernel (rxe, siw), rdma-core, QEMU's emulated CPU and the code
        the compiler made execute per message. None where the file does not say."""
        c = self.side("client")
        return {"guest kernel": c.get("kernel"), "rdma-core": c.get("rdma_core"),
                "QEMU": c.get("qemu_version"), "compiler": self.context.get("rdmabench_compiler")}

    @property
    def repetitions(self):
        return max((len(b.samples) for b in self.benchmarks.values()), default=0)

    @property
    def registry(self):
        """The engine's registered patterns and CQ strategies by name, in registry order
        (context rdmabench_registry: {"patterns": [...], "cq_strategies": [...]}); None in a
        file from before it."""
        return self.context.get("rdmabench_registry")

    @property
    def cq_choices(self):
        """The CQ strategies (as the engine names them) in this file, in file order."""
        return list(dict.fromkeys(b.cq for b in self.benchmarks.values()))

    @property
    def patterns(self):
        """The patterns in this file, in file order (whatever the engine ran)."""
        return list(dict.fromkeys(b.pattern for b in self.benchmarks.values()))

    @property
    def transports(self):
        """The transports in this file, in file order; select() takes chosen_transport, or
        else the first, unless told."""
        return list(dict.fromkeys(b.transport for b in self.benchmarks.values()))

    def select(self, mode=None, pattern=None, cq=None, rate=0, scale="", transport=""):
        """Benchmarks that ran; by default the back-to-back ones (rate=None: every rate) on
        one QP one way (scale=None: every --qps/--threads/--bidir variant) over the chosen
        transport or the file's first (transport=None: every one), so that rows of two
        transports are never drawn as one line."""
        if transport == "":
            transport = self.chosen_transport or (self.transports[0] if self.benchmarks else None)
        return [
            b for b in self.benchmarks.values()
            if b.ok and (mode is None or b.mode == mode) and (pattern is None or b.pattern == pattern)
            and (cq is None or b.cq == cq) and (rate is None or b.rate == rate)
            and (scale is None or b.scale == scale)
            and (transport is None or b.transport == transport)
        ]


_DEVICE_COUNTER_NAME = re.compile(r"[a-z0-9_]{1,64}")


def catalogue_entry(catalogue, key):
    """The entry of a counter catalogue (the engine's list) that counter `key` belongs to, or
    None. An entry's one {placeholder} stands for a decimal index (qp{qp}_msgs: qp3_msgs), or
    {name} for a device counter's name (client_dev_{name}: client_dev_hw_sent_pkts); where
    several fit, the one that spells out most of the key wins (client_dev_{name}_per_msg over
    client_dev_{name})."""
    best, best_literal = None, -1
    for entry in catalogue:
        name = entry["name"]
        if name == key:
            return entry
        head, _, rest = name.partition("{")
        placeholder, _, tail = rest.partition("}")
        if not rest or len(key) <= len(head) + len(tail) or not key.startswith(head) \
                or not key.endswith(tail):
            continue
        part = key[len(head):len(key) - len(tail)]
        fits = _DEVICE_COUNTER_NAME.fullmatch(part) if placeholder == "name" else part.isdigit()
        if fits and len(head) + len(tail) > best_literal:
            best, best_literal = entry, len(head) + len(tail)
    return best


def spec_of(row, schema=3):
    """A row's spec (what the engine wrote in rdmabench_spec) as Benchmark fields, or None when
    it is missing or malformed."""
    spec = row.get("rdmabench_spec")
    if not isinstance(spec, dict):
        return None
    if schema == 2:
        spec = {**spec, "transport": _SCHEMA_2_TRANSPORT}
    fields = []
    wanted = [(key, kind, None) for key, kind in _SPEC_FIELDS.items()]
    wanted += [(key, kind, default) for key, (kind, default) in _OPTIONAL_SPEC_FIELDS.items()]
    for key, kind, default in wanted:
        value = spec.get(key, default)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return None
        fields.append(value)
    return fields


def _document(where, path):
    """The file's JSON, checked to be Google Benchmark's layout with an rdmabench schema this
    reader takes, in schema 5's layout."""
    try:
        doc = json_input.read_json(path, where)
    except json_input.JsonInputError as e:
        raise ResultsError(str(e)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list) \
            or not isinstance(doc.get("context"), dict):
        raise ResultsError(f"{where}: not Google Benchmark JSON (needs 'context' and 'benchmarks')")
    schema = doc["context"].get("rdmabench_schema")
    if schema is None:
        raise ResultsError(f"{where}: not rdmabench output (no context.rdmabench_schema); "
                           "write results with `rdmabench run --out FILE`")
    if (type(schema) is int and schema == 1) or schema == "1":  # schema 1 wrote it quoted
        raise ResultsError(f"{where}: rdmabench schema 1 (before each row carried its spec) is no "
                           "longer read; run it again with this rdmabench")
    if type(schema) is not int:  # "5", 5.0, true, [5]: the schema says a whole number
        raise ResultsError(f"{where}: context.rdmabench_schema is {excerpt(json.dumps(schema))}, "
                           "not a whole number (docs/results.schema.json); was the file edited?",
                           exit_codes.INVALID_FILE)
    if schema not in SUPPORTED_SCHEMAS:
        raise ResultsError(f"{where}: rdmabench schema {excerpt(str(schema))} is not supported here "
                           f"(supported: {', '.join(map(str, sorted(SUPPORTED_SCHEMAS)))}); update the tools")
    if schema != results_upgrade.SCHEMA:
        try:
            doc = results_upgrade.upgrade(doc, catalogue_entry)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ResultsError(f"{where}: a schema {schema} file this reader cannot convert: {e!r}") \
                from None
    _check_schema(where, doc)
    return doc, schema


def _check_schema(where, doc):
    """ResultsError (13) with the first way `doc` breaks docs/results.schema.json, naming the
    benchmark row it lies in."""
    errors = validate_results.errors(doc, validate_results.validator())
    if not errors:
        return
    first, place = errors[0], list(errors[0].absolute_path)
    row = ""
    if len(place) > 1 and place[0] == "benchmarks" and isinstance(place[1], int):
        name = doc["benchmarks"][place[1]].get("name") if isinstance(doc["benchmarks"][place[1]], dict) else None
        row = f" ('{excerpt(name, 100)}')" if name is not None else ""
    raise ResultsError(f"{where}: does not follow docs/results.schema.json ({len(errors)} problems; "
                       f"first: {excerpt(first.json_path, 200)}{row}: {excerpt(first.message, 300)})",
                       exit_codes.INVALID_FILE)


def _benchmarks(where, rows, schema):
    """The file's benchmarks by name, each with its repetitions' rows (aggregate rows are
    recomputed from them)."""
    benchmarks = {}
    seen = {}  # (name, run type, repetition): its row's index
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise ResultsError(f"{where}: benchmarks[{i}] has no name")
        key = (row["name"], str(row.get("run_type")), str(row.get("aggregate_name")),
               str(row.get("repetition_index")))
        if key in seen:
            raise ResultsError(f"{where}: benchmarks[{i}] ('{excerpt(row['name'], 100)}') repeats "
                               f"benchmarks[{seen[key]}]: a results file holds each run once (were "
                               "two files joined? tools/rdmabench_gate/merge_results.py joins them)",
                               exit_codes.INVALID_FILE)
        seen[key] = i
        if row.get("run_type") == "aggregate":
            continue
        fields = spec_of(row, schema)
        if fields is None:
            raise ResultsError(f"{where}: benchmarks[{i}] ('{row['name']}') has no valid rdmabench_spec "
                               f"(needs {', '.join(_SPEC_FIELDS)})")
        bench = benchmarks.setdefault(fields[0], Benchmark(*fields))
        if row.get("error_occurred"):
            bench.errors.append(str(row.get("error_message", "failed")))
            continue
        for key in _REQUIRED[bench.mode]:
            value = row.get(key)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise ResultsError(f"{where}: {row['name']}: counter '{key}' is missing or not a number")
        bench.samples.append(row)
    if not benchmarks:
        raise ResultsError(f"{where}: holds no benchmarks")
    return benchmarks


def _check_catalogues(where, context):
    catalogue = context.get("rdmabench_counters")
    if not isinstance(catalogue, list) or not all(isinstance(c, dict) and isinstance(c.get("name"), str)
                                                  for c in catalogue):
        raise ResultsError(f"{where}: context.rdmabench_counters (the counter catalogue) is missing or malformed")
    alarms = context.get("rdmabench_device_alarms", [])
    if not isinstance(alarms, list) or not all(
            isinstance(a, dict) and isinstance(a.get("counter"), str) and isinstance(a.get("means"), str)
            and isinstance(a.get("flags_row"), bool) for a in alarms):
        raise ResultsError(f"{where}: context.rdmabench_device_alarms (the port counters that mean "
                           "trouble) is malformed")


def load(path, label=None):
    """Read and check one results file (schemas 2 to 5, read in 5's layout); raise ResultsError
    with a one-line reason."""
    where = str(path)
    doc, schema = _document(where, path)
    benchmarks = _benchmarks(where, doc["benchmarks"], schema)
    _check_catalogues(where, doc["context"])
    return Run(where, label or Path(path).stem, doc["context"], benchmarks)


def load_all(paths, labels=None):
    labels = list(labels or [])
    if labels and len(labels) != len(paths):
        raise ResultsError(f"{len(labels)} --label values for {len(paths)} files; give one per file")
    runs = [load(p, labels[i] if labels else None) for i, p in enumerate(paths)]
    seen = set()
    for run in runs:
        if run.label in seen:
            raise ResultsError(f"two inputs are both labelled '{run.label}'; use --label to tell them apart")
        seen.add(run.label)
    return runs


def timing_mismatch(runs, names=None):
    """Why the runs' figures cannot be set beside one another at all, or None. `names` name
    the runs in the message (default: their paths).

    The deterministic guest's figures count instructions (2^shift ns each), not seconds: they
    go only with runs of the same mode and shift.
    """
    def what(run):
        mode, shift = run.timing
        return f"in the deterministic guest (icount shift={shift})" if mode == "icount" \
            else "in real time"

    if len({run.timing for run in runs}) < 2:
        return None
    names = names or [run.path for run in runs]
    first = runs[0]
    other = next(i for i, run in enumerate(runs) if run.timing != first.timing)
    return (f"{names[0]} was measured {what(first)} and {names[other]} {what(runs[other])}: "
            "deterministic figures count guest instructions, not seconds, so the two cannot be "
            "judged against each other; compare a deterministic run with a deterministic "
            "baseline (tools/gate --deterministic) and an ordinary run with an ordinary one")


def stack_differences(base, new):
    """What differs between two deterministic runs' stacks (Run.stack), as printable
    "QEMU 7.2.0 vs 8.2.1" phrases; [] for ordinary runs, whose noise repetitions judge."""
    if base.timing[0] != "icount" or new.timing[0] != "icount":
        return []
    b, n = base.stack, new.stack
    return [f"{what} {excerpt(b[what]) if b[what] else 'not recorded'} vs "
            f"{excerpt(n[what]) if n[what] else 'not recorded'}" for what in b if b[what] != n[what]]


def tuning_differences(base, new):
    """Where two runs' kernels were tuned differently (context.<side>.kernel_tuning), as
    printable "client idle=poll vs none" phrases; a side either file does not say is left out."""
    def said(words):
        return " ".join(excerpt(str(w)) for w in words) or "none"
    out = []
    for side in ("client", "server"):
        b, n = base.side(side).get("kernel_tuning"), new.side(side).get("kernel_tuning")
        if isinstance(b, list) and isinstance(n, list) and b != n:
            out.append(f"{side} {said(b)} vs {said(n)}")
    return out


def stack_mismatch(base, new, names=("BASE", "NEW")):
    """Why two deterministic runs' figures do not carry over from one to the other, or None:
    a guest kernel, rdma-core, QEMU or compiler that differs (or that one file does not name)
    can move every row by more than a gate's threshold."""
    differ = stack_differences(base, new)
    if not differ:
        return None
    return (f"not judged: the stack differs ({'; '.join(differ)}): {names[0]} and {names[1]} are "
            "deterministic runs, whose figures carry over only with the same guest kernel, "
            "rdma-core, QEMU and compiler (such a change can move every row by more than the "
            "threshold). Refresh the baseline on this stack with tools/gate refresh "
            "--deterministic, or judge across them on purpose with --across-stacks")


def choose_transport(runs, transport=""):
    """Makes every run's select() take `transport` (empty: each file's first). Returns the notes
    to print: one per file that holds rows of more than one transport, naming what is drawn.
    Raises ResultsError when a file has no row over `transport`."""
    notes = []
    for run in runs:
        held = run.transports
        if transport and transport not in held:
            raise ResultsError(f"{run.path}: no rows over transport '{transport}' "
                               f"(it holds {', '.join(held) or 'none'})")
        run.chosen_transport = transport
        if len(held) > 1:
            drawn = transport or held[0]
            notes.append(f"{run.path}: holds rows over {', '.join(held)}; only {drawn} is "
                         "used (choose with --transport)")
    return notes


def size_value(text):
    """A size as rdmabench reads one: bytes, or K, M or G (powers of 1024, KiB also written):
    "4K" -> 4096. ValueError says why not; a decimal unit (KB) is told that K is KiB."""
    written = text.strip()
    number = written[:-2] if len(written) > 3 and written[-2:].lower() == "ib" else written
    if len(number) > 1 and number[-1] in "bB" and number[-2] in "KMGkmg":
        raise ValueError(f"'{written}': K, M and G are KiB, MiB and GiB (powers of 1024): "
                         "write 4K or 4KiB")
    factor = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(number[-1:].upper(), 1)
    digits = number[:-1] if factor > 1 else number
    if not digits.isdigit() or len(digits) > 12 or int(digits) == 0:
        raise ValueError(f"'{written}' is not a size (4096, 4K, 1M)")
    return int(digits) * factor


def size_text(size):
    """2 -> '2', 4096 -> '4K', 1048576 -> '1M'."""
    for unit, factor in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if size >= factor and size % factor == 0:
            return f"{size // factor}{unit}"
    return str(size)
