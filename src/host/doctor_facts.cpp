#include "host/doctor_facts.h"

#include <sys/resource.h>

#include "host/device_probe.h"
#include "host/host_memory.h"
#include "host/sysfs_file.h"

namespace rdmabench {

namespace fs = std::filesystem;

std::map<int, std::string> read_governors(const fs::path& sys) {
  std::map<int, std::string> governors;
  for (const int cpu : read_cpu_topology(sys).online) {
    std::string governor = first_line(sys / "devices/system/cpu" / ("cpu" + std::to_string(cpu)) /
                                      "cpufreq/scaling_governor");
    if (!governor.empty()) governors[cpu] = std::move(governor);
  }
  return governors;
}

DoctorFacts gather_doctor_facts(uint64_t default_run_bytes, std::vector<std::string> kernel_tuning,
                                const fs::path& sys) {
  DoctorFacts facts;
  facts.devices = describe_all_devices();
  for (const DeviceReport& d : facts.devices)
    facts.locality[d.name] = read_device_locality(sys, d.name);
  facts.topology = read_cpu_topology(sys);
  facts.governors = read_governors(sys);
  facts.meminfo = whole_file("/proc/meminfo");
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    facts.memlock_bytes = limit.rlim_cur;
  facts.lock_capability = has_lock_capability(whole_file("/proc/self/status"));
  facts.default_run_bytes = default_run_bytes;
  facts.kernel_tuning = std::move(kernel_tuning);
  return facts;
}

}  // namespace rdmabench
