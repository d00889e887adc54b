// What kind of clock this host's figures were measured against: real time, or the
// instruction-counted guest time of tools/rxe-vm --deterministic (QEMU -icount), which that
// tool announces on the guest kernel's command line (rdmabench.timing=icount ...).
#pragma once

#include <string>
#include <string_view>

namespace rdmabench {

struct TimingEnvironment {
  std::string mode = "realtime";  // "realtime" or "icount"
  std::string icount_shift;       // icount only: guest ns per instruction is 2^shift
  std::string qemu_version;       // icount only

  bool deterministic() const { return mode == "icount"; }
  // One line for the JSON context and the run banner.
  std::string describe() const;
};

// Parses a kernel command line (the contents of /proc/cmdline).
TimingEnvironment parse_timing_environment(std::string_view kernel_cmdline);
// This host's, read from /proc/cmdline (realtime when it cannot be read).
TimingEnvironment timing_environment();

}  // namespace rdmabench
