# Shared by tools/demo, tools/gate and tools/vs-perftest (source it from the repository root).

# True when this machine has an RDMA device (a real NIC, or rxe from tools/rxe-setup).
has_rdma_device() { compgen -G "/sys/class/infiniband/*" >/dev/null; }

# Install the Debian packages, configure the build directory $1 if needed, and build quietly.
build_rdmabench() {
  tools/setup-deps &&
    { [[ -f "$1/build.ninja" ]] || meson setup "$1" >/dev/null; } &&
    ninja -C "$1" >/dev/null
}

# The rows the deterministic guest (tools/rxe-vm --deterministic) can measure, as
# pattern/mode/cq. Under QEMU -icount the two vCPUs take turns on one host thread, so a side
# that spins while its peer's user space has to act sees that peer's work only when QEMU
# switches vCPUs (about 6 ms). Measured: the rows left out do not scale with the guest's time
# per instruction, every row kept does (2.00-2.04x from shift 2 to shift 3; README,
# "Choosing a mode"). The target of write and read is passive, so busy polling is fine there.
DETERMINISTIC_ROWS=(send/bw/event write_imm/bw/event write/bw/busy write/bw/event read/bw/busy
  read/bw/event send/lat/event write_imm/lat/event read/lat/busy read/lat/event)
DETERMINISTIC_LEFT_OUT=(
  "send/bw/busy, write_imm/bw/busy: both sides spin, each paced by QEMU's vCPU switch"
  "send/lat/busy, write/lat/busy, write_imm/lat/busy: busy-CQ ping-pong measures QEMU's time slice (about 6 ms)"
  "write/lat/event: write lat polls memory for the peer's marker whatever --cq, so it spins like busy"
)

# A Google Benchmark filter for DETERMINISTIC_ROWS; with arguments BW_SIZE LAT_SIZE, only bw
# rows of that size and lat rows of that size.
deterministic_filter() {
  local rows=() row
  for row in "${DETERMINISTIC_ROWS[@]}"; do
    if [[ $# -eq 2 ]]; then
      [[ $row == */bw/* ]] && rows+=("$row/$1") || rows+=("$row/$2")
    else
      rows+=("$row")
    fi
  done
  local IFS='|'
  echo "^(${rows[*]})/"
}
