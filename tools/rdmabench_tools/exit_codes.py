"""The exit codes every rdmabench tool uses: the same table as `rdmabench --help` and
`rdmabench version --json` (src/core/exit_codes.cpp; a host test holds the two together).
A tool's verdict never takes 1, which is an internal error (a bug, or Python's own exit on an
uncaught exception)."""

OK = 0
INTERNAL = 1
USAGE = 2          # bad options, an unreadable, malformed or foreign input file
NO_DEVICE = 3
CONNECTION = 4
RUNTIME = 5
VERIFICATION = 6
OUTLIERS = 7
LIMIT_MISSED = 8
DEVICE_EVENT = 9
DOCTOR_WARN = 10
DOCTOR_FAIL = 11
REGRESSION = 12    # tools/compare, tools/gate: slower, missing or failed; mesh-scale: a fault missed
INVALID_FILE = 13  # a results, mesh or doctor file that does not follow its schema

BY_NAME = {"ok": OK, "internal": INTERNAL, "usage": USAGE, "no_device": NO_DEVICE,
           "connection": CONNECTION, "runtime": RUNTIME, "verification": VERIFICATION,
           "outliers": OUTLIERS, "limit_missed": LIMIT_MISSED, "device_event": DEVICE_EVENT,
           "doctor_warn": DOCTOR_WARN, "doctor_fail": DOCTOR_FAIL, "regression": REGRESSION,
           "invalid_file": INVALID_FILE}
