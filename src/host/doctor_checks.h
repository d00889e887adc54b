// The checks of `rdmabench doctor`, each a function of facts already read (DoctorFacts), so
// that fake devices and fake sysfs trees drive every verdict in the tests.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/device_report.h"
#include "host/cpu_placement.h"
#include "host/doctor_finding.h"

namespace rdmabench {

struct DoctorFacts {
  std::vector<DeviceReport> devices;
  std::map<std::string, DeviceLocality> locality;  // by device name
  CpuTopology topology;
  std::map<int, std::string> governors;    // CPU -> cpufreq governor (empty: no cpufreq)
  std::string meminfo;                     // /proc/meminfo's text
  std::optional<uint64_t> memlock_bytes;   // RLIMIT_MEMLOCK; nullopt: unlimited
  bool lock_capability = false;            // CAP_IPC_LOCK: no limit applies
  uint64_t default_run_bytes = 0;          // what a default run registers on one side
  std::vector<std::string> kernel_tuning;  // the kernel command line's tuning words
};

std::vector<Finding> check_ports(const DeviceReport& device);
std::vector<Finding> check_locality(const DeviceReport& device, const DeviceLocality& where,
                                    const CpuTopology& topology);
Finding check_firmware(const DeviceReport& device);
std::optional<Finding> check_roce_gids(const DeviceReport& device);
Finding check_governors(const std::map<int, std::string>& governors);
Finding check_hugepages(const std::string& meminfo);
Finding check_memlock(const DoctorFacts& facts);
// The kernel's tuning words (host/kernel_tuning.h), said and compared: a mesh names a host
// booted otherwise than the rest (idle=poll moves latency more than the tools compared).
Finding check_kernel_tuning(const std::vector<std::string>& words);
// No device: the one failing line, with what to look at; its check is kNoDeviceCheck.
inline constexpr const char* kNoDeviceCheck = "RDMA devices";
Finding no_device_finding();

// Every check, devices first.
std::vector<Finding> run_checks(const DoctorFacts& facts);

}  // namespace rdmabench
