# Shared by tools/demo, tools/gate and tools/vs-perftest (source it from the repository root).

# True when this machine has an RDMA device (a real NIC, or rxe from tools/rxe-setup).
has_rdma_device() { compgen -G "/sys/class/infiniband/*" >/dev/null; }

# Install the Debian packages, configure the build directory $1 if needed, and build quietly.
build_rdmabench() {
  tools/setup-deps &&
    { [[ -f "$1/build.ninja" ]] || meson setup "$1" >/dev/null; } &&
    ninja -C "$1" >/dev/null
}
