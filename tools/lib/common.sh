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
# pattern/mode/cq[:largest size]. Under QEMU -icount the two vCPUs take turns on one host
# thread, so a side that spins while its peer's user space has to act sees that peer's work
# only when QEMU switches vCPUs (about 6 ms). Measured over the demo's sweep (2 B..1 MiB) at
# icount shift 2 and 3: a row that reflects the software takes exactly twice as long at 3;
# every row kept here does (1.9-2.3x), the rows left out do not (1.0-1.8x, or 8.3x from 3 to
# 4), and busy polling holds only up to 64 KiB (write and read bw busy: 4.2x at 128 KiB,
# 1.1-1.3x at 512 KiB and 1 MiB). README, "Choosing a mode".
DETERMINISTIC_ROWS=(send/bw/event write_imm/bw/event write/bw/busy:65536 write/bw/event
  read/bw/busy:65536 read/bw/event send/lat/event write_imm/lat/event read/lat/busy:65536
  read/lat/event)
DETERMINISTIC_LEFT_OUT=(
  "send/bw/busy, write_imm/bw/busy: both sides spin, each paced by QEMU's vCPU switch"
  "send/lat/busy, write/lat/busy, write_imm/lat/busy: busy-CQ ping-pong measures QEMU's time slice (about 6 ms)"
  "write/lat/event: write lat polls memory for the peer's marker whatever --cq, so it spins like busy"
  "write/bw/busy, read/bw/busy, read/lat/busy above 64 KiB: no longer scale with the guest's time per instruction"
)
# Decimal sizes 1..65536, for the rows limited to 64 KiB.
UP_TO_64K='([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-6])'

# A Google Benchmark filter for DETERMINISTIC_ROWS; with arguments BW_SIZE LAT_SIZE (each at
# most 64 KiB), only bw rows of that size and lat rows of that size.
deterministic_filter() {
  local rows=() row size
  for row in "${DETERMINISTIC_ROWS[@]}"; do
    if [[ $# -eq 2 ]]; then
      [[ $row == */bw/* ]] && size=$1 || size=$2
      rows+=("${row%%:*}/$size")
    elif [[ $row == *:65536 ]]; then
      rows+=("${row%%:*}/$UP_TO_64K")
    else
      rows+=("$row/[0-9]+")
    fi
  done
  local IFS='|'
  echo "^(${rows[*]})/"
}
