// What kind of clock this host's figures were measured against: real time, or the
// instruction-counted guest time of tools/rxe-vm --deterministic (QEMU -icount), which that
// tool announces on the guest kernel's command line (rdmabench.timing=icount ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmabench {

struct TimingEnvironment {
  std::string mode = "realtime";  // "realtime" or "icount"
  // icount only, as the command line says them; unset (empty) where it says nothing usable: a
  // shift that is not 0-10 (QEMU's range), a version that is not a short word of printable
  // ASCII.
  std::optional<int> icount_shift;  // guest ns per instruction is 2^shift
  std::string qemu_version;
  // What runs this host's instructions: "none" (no hypervisor says it is there), "kvm", "tcg"
  // (QEMU's software emulation: timing is the emulator's), "tcg-icount" (the deterministic
  // guest), "hyperv", "vmware", "xen" or "other".
  std::string acceleration = "none";
  // The kernel command line's words that change how fast the host runs (kernel_tuning.h):
  // "idle=poll", "isolcpus=2-5", ...; empty when it says none.
  std::vector<std::string> kernel_tuning;

  bool deterministic() const { return mode == "icount"; }
  bool software_emulated() const { return acceleration.starts_with("tcg"); }
  // One line for the JSON context and the run banner (the tuning words at its end).
  std::string describe() const;

 private:
  std::string describe_clock() const;
};

// The hypervisor a CPUID vendor signature (leaf 0x40000000's 12 bytes) names, as
// TimingEnvironment::acceleration words it ("other" for one it does not know).
std::string hypervisor_of(std::string_view signature);

// Parses a kernel command line (the contents of /proc/cmdline); `hypervisor`: what CPUID says,
// for when the command line does not (tools/rxe-vm's guests carry rdmabench.accel=).
TimingEnvironment parse_timing_environment(std::string_view kernel_cmdline,
                                           std::string_view hypervisor = "none");
// This host's, read from /proc/cmdline (realtime when it cannot be read).
TimingEnvironment timing_environment();

}  // namespace rdmabench
