#include "host/doctor_facts.h"

#include <sys/resource.h>

#include <fstream>
#include <sstream>

#include "host/device_probe.h"

namespace rdmabench {

namespace fs = std::filesystem;

namespace {

std::string file_text(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// CAP_IPC_LOCK (bit 14) in this process's effective capabilities.
bool has_lock_capability() {
  const std::string status = file_text("/proc/self/status");
  const auto at = status.find("CapEff:");
  if (at == std::string::npos) return false;
  try {
    return (std::stoull(status.substr(at + 7), nullptr, 16) >> 14) & 1;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

std::map<int, std::string> read_governors(const fs::path& sys) {
  std::map<int, std::string> governors;
  for (const int cpu : read_cpu_topology(sys).online) {
    std::ifstream in(sys / "devices/system/cpu" / ("cpu" + std::to_string(cpu)) /
                     "cpufreq/scaling_governor");
    std::string governor;
    if (std::getline(in, governor) && !governor.empty()) governors[cpu] = governor;
  }
  return governors;
}

DoctorFacts gather_doctor_facts(uint64_t default_run_bytes, const fs::path& sys) {
  DoctorFacts facts;
  facts.devices = describe_all_devices();
  for (const DeviceReport& d : facts.devices)
    facts.locality[d.name] = read_device_locality(sys, d.name);
  facts.topology = read_cpu_topology(sys);
  facts.governors = read_governors(sys);
  facts.meminfo = file_text("/proc/meminfo");
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    facts.memlock_bytes = limit.rlim_cur;
  facts.lock_capability = has_lock_capability();
  facts.default_run_bytes = default_run_bytes;
  return facts;
}

}  // namespace rdmabench
