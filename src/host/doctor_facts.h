// The facts `rdmabench doctor` judges, read from this host: its devices (verbs), their
// locality and the CPUs' governors (/sys), hugepages (/proc/meminfo), and the memlock limit.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "host/doctor_checks.h"

namespace rdmabench {

// `default_run_bytes`: what a default run registers on one side (the caller knows the
// defaults); `kernel_tuning`: the timing environment's (timing_environment.h), the one reader of
// the kernel command line. `sys` is "/sys" but for the tests.
DoctorFacts gather_doctor_facts(uint64_t default_run_bytes, std::vector<std::string> kernel_tuning,
                                const std::filesystem::path& sys = "/sys");

// The cpufreq governor of each CPU under `sys` that has one.
std::map<int, std::string> read_governors(const std::filesystem::path& sys);

}  // namespace rdmabench
