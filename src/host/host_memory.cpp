#include "host/host_memory.h"

#include <sys/resource.h>

#include <algorithm>
#include <exception>

#include "core/byte_units.h"
#include "host/sysfs_file.h"

namespace rdmabench {

long meminfo_value(const std::string& meminfo, const std::string& key) {
  const auto at = meminfo.find(key + ":");
  if (at == std::string::npos) return -1;
  try {
    return std::stol(meminfo.substr(at + key.size() + 1));
  } catch (const std::exception&) {
    return -1;
  }
}

bool has_lock_capability(const std::string& proc_status) {
  const auto at = proc_status.find("CapEff:");
  if (at == std::string::npos) return false;
  try {
    return (std::stoull(proc_status.substr(at + 7), nullptr, 16) >> 14) & 1;
  } catch (const std::exception&) {
    return false;
  }
}

HostMemory host_memory_of(const std::string& meminfo, const std::string& proc_status,
                          std::optional<uint64_t> memlock_bytes) {
  const auto kib = [&](const char* key) {
    const long v = meminfo_value(meminfo, key);
    return v > 0 ? static_cast<uint64_t>(v) << 10 : 0;
  };
  const long huge_pages = meminfo_value(meminfo, "HugePages_Total");
  return {kib("MemTotal"),
          huge_pages > 0 ? static_cast<uint64_t>(huge_pages) * kib("Hugepagesize") : 0,
          memlock_bytes, has_lock_capability(proc_status)};
}

HostMemory this_host_memory() {
  rlimit limit{};
  std::optional<uint64_t> memlock;
  if (getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    memlock = limit.rlim_cur;
  return host_memory_of(whole_file("/proc/meminfo"), whole_file("/proc/self/status"), memlock);
}

std::optional<DefaultCap> default_pin_cap(const HostMemory& host) {
  if (host.physical_bytes == 0) return std::nullopt;
  const uint64_t half = host.physical_bytes / 2;
  if (host.memlock_bytes && !host.lock_capability && *host.memlock_bytes < half)
    return DefaultCap{*host.memlock_bytes, "this user's memlock limit (ulimit -l)"};
  return DefaultCap{half, "half this host's memory (" + mib_text(host.physical_bytes) + ")"};
}

std::optional<DefaultCap> default_huge_page_cap(const HostMemory& host) {
  if (host.huge_page_bytes == 0) return std::nullopt;
  return DefaultCap{host.huge_page_bytes / 2, "half this host's reserved huge pages (" +
                                                  mib_text(host.huge_page_bytes) + ")"};
}

std::optional<DefaultCap> latency_sample_cap(const HostMemory& host) {
  if (host.physical_bytes == 0) return std::nullopt;
  return DefaultCap{host.physical_bytes / 2,
                    "half this host's memory (" + mib_text(host.physical_bytes) + ")"};
}

}  // namespace rdmabench
