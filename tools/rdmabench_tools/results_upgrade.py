"""Results files of schemas 2 to 4 in schema 5's layout, so that every tool reads one layout:
the context's flat keys (device, server_device, client_host, host_name, ...) grouped under
`client` and `server` with the same keys, the parameters typed (lists as arrays), counts as
integers on iteration rows, and each lat row's round trips. The figures are not touched.
tools/rdmabench_tools/upgrade_results.py writes a file so converted."""
import copy
import math

SCHEMA = 5

# Schema 5's side keys, in order, and where schema 4 kept each (client, server; None: not kept).
SIDE_KEYS = {
    "host": ("client_host", "server_host"), "version": ("rdmabench_version", "server_version"),
    "kernel": ("client_kernel", "server_kernel"), "rdma_core": ("rdma_core", "server_rdma_core"),
    "timing": ("timing", "server_timing"), "timing_mode": ("timing_mode", None),
    "icount_shift": ("icount_shift", None), "qemu_version": ("qemu_version", None),
    "device": ("device", "server_device"), "driver": ("driver", None),
    "firmware": ("firmware", "server_firmware"), "link_layer": ("link_layer", None),
    "link_speed_gbps": ("link_speed_gbps", "server_link_speed_gbps"),
    "link_width": ("link_width", "server_link_width"), "active_mtu": ("active_mtu", None),
    "port": ("port", "server_port"), "gid_index": ("gid_index", "server_gid_index"),
    "gid": ("gid", "server_gid"), "gid_type": ("gid_type", None),
    "path_mtu": ("path_mtu", "server_path_mtu"), "qp_timeout": ("qp_timeout", "server_qp_timeout"),
    "outs": ("outs", "server_outs"), "inline": ("inline", "server_inline"),
    "srq": ("srq", "server_srq"), "tclass": ("tclass", "server_tclass"), "sl": ("sl", "server_sl"),
    "comp_vectors": ("comp_vectors", "server_comp_vectors"),
    "page_size": ("page_size", "server_page_size"), "cpus": ("cpus", "server_cpus"),
    "cpu_choice": ("cpu_choice", "server_cpu_choice"), "numa_node": ("numa_node", "server_numa_node"),
    "memory_node": ("memory_node", "server_memory_node"), "pci": ("pci", "server_pci"),
    "pcie_link": ("pcie_link", "server_pcie_link"), "machine": (None, None),
}
MACHINE_KEYS = ("num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "caches", "load_avg")
TOP_KEYS = ("rdmabench_version", "rdmabench_revision", "rdmabench_build_type", "date", "executable",
            "path_error", "bootstrap", "bootstrap_reason", "clock", "sample_clock",
            "sample_clock_detail", "rdmabench_params", "rdmabench_counters",
            "rdmabench_device_alarms", "merged_runs")
COUNT_UNITS = {"messages", "count", "packets", "episodes", "errors"}
# What files from before a field existed ran with: the defaults of their day (the CQ was polled
# 32 completions at a time before --poll-batch; a QP timeout and GID index unset are null, the
# bootstrap's own), or null where nothing was recorded.
SPEC_BEFORE = {"poll_batch": 32, "qp_timeout": None, "gid_index": None, "mtu": 0}
PARAMS_BEFORE = {"transport": "rc", "bidir": False, "cq_per_qp": False, "duration_s": None,
                 "margin_s": None, "ib_port": 1, "threads": 1, "min_bw_gbps": None,
                 "max_lat": None, "report_every_s": None, "iters": None, "poll_batch": 32,
                 "warmup": 0}  # no warm-up before --warmup
CONTEXT_BEFORE = {"rdmabench_revision": "unknown", "rdmabench_build_type": "unknown",
                  "path_error": "", "rdmabench_device_alarms": []}


def is_count(entry):
    """Whether a catalogue entry of a file before schema 5 (which did not say) is a count."""
    if "integer" in entry:
        return entry["integer"]
    return entry["name"] in ("size", "half_round_trip", "offered_rate") or (
        entry["unit"] in COUNT_UNITS and entry["per"] in ("", "qp", "thread"))


def grouped(flat, partial=False):
    """A flat context's side facts as {"client": {...}, "server": {...}}; with `partial`, only
    the keys `flat` has (a merged run's differing keys)."""
    sides = {"client": {}, "server": {}}
    for key, (client_key, server_key) in SIDE_KEYS.items():
        for side, old in (("client", client_key), ("server", server_key)):
            if old is not None and old in flat:
                sides[side][key] = flat[old]
            elif not partial:
                sides[side][key] = None
    if "client_host" not in flat and "host_name" in flat:
        sides["client"]["host"] = flat["host_name"]
    if not partial:
        if sides["client"]["qemu_version"] == "":
            sides["client"]["qemu_version"] = None
        machine = {k: flat[k] for k in MACHINE_KEYS if k in flat}
        sides["client"]["machine"] = machine if len(machine) == len(MACHINE_KEYS) else None
    return {side: facts for side, facts in sides.items() if facts or not partial}


def split_list(text, rows, field, numbers=False):
    """A schema 4 list parameter ('1,2', 'all', '') as the array schema 5 writes: 'all' is
    what the rows ran."""
    if isinstance(text, list):
        return text
    text = str(text)
    if text == "all":
        return list(dict.fromkeys(r["rdmabench_spec"][field] for r in rows if "rdmabench_spec" in r))
    items = [i.strip() for i in text.replace(";", ",").split(",") if i.strip()]
    if field == "cq" and ";" not in text and any("=" in i for i in items):
        items = [text]  # one choice of the form client=busy,server=event
    if not numbers:
        return items
    return [int(i) if i.isdigit() else i for i in items]


def typed_params(params, rows):
    p = {**PARAMS_BEFORE, **params}
    p.setdefault("profile", "full")  # runs before profiles swept what was named, or all of it
    p["patterns"] = split_list(p.get("patterns", "all"), rows, "pattern")
    p["modes"] = split_list(p.get("modes", "all"), rows, "mode")
    p["cq"] = split_list(p.get("cq", "all"), rows, "cq")
    sizes = p.get("sizes", "")
    p["sizes"] = sizes if isinstance(sizes, list) else sorted(
        {r["rdmabench_spec"]["size"] for r in rows if "rdmabench_spec" in r})
    for key in ("rates", "qps", "post_list", "cpus"):
        p[key] = split_list(p.get(key, "0" if key == "rates" else "1" if key != "cpus" else ""),
                            rows, key, numbers=True)
    numa = p.get("numa", "")
    p["numa"] = None if numa in ("", None) else "off" if numa == "off" else int(numa)
    counters = p.get("counters", "on")
    p["counters"] = counters if isinstance(counters, bool) else counters == "on"
    p.setdefault("clock", "auto")
    return p


def typed_row(row, counts, schema):
    row = dict(row)
    spec = row.get("rdmabench_spec")
    if isinstance(spec, dict):  # schema 2 came before the transport axis: every row ran over rc
        row["rdmabench_spec"] = {**({"transport": "rc"} if schema == 2 else {}), **SPEC_BEFORE, **spec}
    row.setdefault("repetition_index", 0 if row.get("run_type") == "iteration" else -1)
    if row.get("run_type") != "iteration":
        return row
    for key, value in list(row.items()):
        if key in counts(key) and isinstance(value, float) and math.isfinite(value) \
                and value >= 0 and value == int(value):
            row[key] = int(value)
    mode = (row.get("rdmabench_spec") or {}).get("mode")
    if mode == "lat" and "msgs" in row and "round_trips" not in row and not row.get("error_occurred"):
        half = row.get("half_round_trip", 1) == 1
        row["round_trips"] = int(row["msgs"] // 2) if half else int(row["msgs"])
    return row


def upgrade(doc, catalogue_entry):
    """`doc` (schema 2, 3 or 4, checked by the caller) in schema 5's layout; a new document.
    `catalogue_entry(catalogue, key)` finds a counter's entry."""
    old = doc["context"]
    rows = doc["benchmarks"]
    catalogue = [dict(e, integer=is_count(e)) for e in old.get("rdmabench_counters", [])]
    context = {"rdmabench_schema": SCHEMA, **copy.deepcopy(CONTEXT_BEFORE)}
    context.update({k: copy.deepcopy(old[k]) for k in TOP_KEYS if k in old})
    context.update(grouped(old))
    context.setdefault("sample_clock", "monotonic")
    context.setdefault("sample_clock_detail", "not recorded before schema 4")
    context["rdmabench_counters"] = catalogue
    context["rdmabench_params"] = typed_params(old.get("rdmabench_params", {}), rows)
    for merged in context.get("merged_runs", []):
        own = merged["context"]
        merged["context"] = {**{k: v for k, v in own.items() if k in TOP_KEYS},
                             **grouped(own, partial=True)}

    def counts(key):
        entry = catalogue_entry(catalogue, key)
        return {key} if entry is not None and entry["integer"] else set()
    rows = [typed_row(r, counts, old.get("rdmabench_schema")) for r in rows]
    if any("round_trips" in r for r in rows) and not any(e["name"] == "round_trips" for e in catalogue):
        catalogue.append(ROUND_TRIPS)
    return {"context": context, "benchmarks": rows}


ROUND_TRIPS = {"name": "round_trips", "unit": "round trips", "per": "", "better": "neither",
               "description": "lat: round trips counted (the table's #iters); msgs counts two one-way "
                              "messages for each where half_round_trip is 1", "integer": True}
