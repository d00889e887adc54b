# shellcheck shell=bash
# Shared by tools/demo, tools/vs-perftest, tools/search-replay, tools/ci/gate-change and tools/package
# (source it from the repository root).

# The tool's name on its error lines: set PROG before sourcing.
: "${PROG:=rdmabench}"

# A usage or input error, said on one line: exit 2, as in the table of `rdmabench --help`.
die() { echo "$PROG: $*" >&2; exit 2; }

# True when this machine has an RDMA device (a real NIC, or rxe from tools/rxe-setup).
has_rdma_device() { compgen -G "/sys/class/infiniband/*" >/dev/null; }

# Install the Debian packages of the groups after $1 (tools/setup-deps; build and mesh always),
# configure the build directory $1 if needed, and build rdmabench quietly: the program and its
# man page, all these tools run and show (the unit tests and mesh_scale are ./tools/test's to
# build; the CI recipe builds two trees). A failed build shows ninja's errors and its log.
build_rdmabench() {
  tools/setup-deps build mesh "${@:2}" &&
    { [[ -f "$1/build.ninja" ]] || meson setup "$1" >/dev/null; } || return
  local log=$1/build-rdmabench.log
  ninja -C "$1" rdmabench rdmabench.1 >"$log" 2>&1 && return 0
  { echo "$PROG: the build failed (ninja -C $1 rdmabench rdmabench.1); its errors:"
    grep -E "FAILED|error" "$log" | head -20
    echo "$PROG: the whole log: $log"; } >&2
  return 1
}

# The rows the deterministic guest (tools/rxe-vm --deterministic) can measure, decided by
# tools/rdmabench_gate/row_selection.py from what $BUILD/rdmabench says of its patterns and strategies: a
# Google Benchmark filter; with arguments BW_SIZE LAT_SIZE (each at most 64 KiB), only bw rows of
# that size and lat rows of that size.
# Any further arguments go to row_selection.py (--transport T: the rows over T).
deterministic_filter() {
  tools/lib/run-module rdmabench_gate.row_selection "$BUILD/rdmabench" deterministic ${1:+--bw-size "$1" --lat-size "$2"} "${@:3}"
}
# What that guest cannot measure, a line each with the reason (--this-device: of this host's
# device, which may hold off more).
deterministic_left_out() {
  tools/lib/run-module rdmabench_gate.row_selection "$BUILD/rdmabench" left-out "$@"
}
