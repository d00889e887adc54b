// What this host can give one client or one run without harm: the default caps on the memory a
// server pins for a client (`serve --max-memory`), on the huge pages it takes, and on the
// latency samples a client keeps. Read from /proc/meminfo, RLIMIT_MEMLOCK and the process's
// capabilities; the caps are pure functions of what was read, so fakes test them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rdmabench {

struct HostMemory {
  uint64_t physical_bytes = 0;            // MemTotal
  uint64_t huge_page_bytes = 0;           // HugePages_Total x Hugepagesize: the reserved ones
  std::optional<uint64_t> memlock_bytes;  // RLIMIT_MEMLOCK's soft limit; nullopt: unlimited
  bool lock_capability = false;           // CAP_IPC_LOCK: the limit does not bind
};

// A /proc/meminfo figure ("HugePages_Free:      12", "MemTotal: 8000 kB": the number) or -1.
long meminfo_value(const std::string& meminfo, const std::string& key);
// CAP_IPC_LOCK (bit 14) in a /proc/PID/status's effective capabilities.
bool has_lock_capability(const std::string& proc_status);

HostMemory host_memory_of(const std::string& meminfo, const std::string& proc_status,
                          std::optional<uint64_t> memlock_bytes);
HostMemory this_host_memory();

// A default cap and why it is what it is, for the errors that name it.
struct DefaultCap {
  uint64_t bytes = 0;
  std::string why;  // "half this host's memory"
};

// What a server pins for one client by default: half the physical memory, or the memlock
// limit where that is lower and binds (no CAP_IPC_LOCK); none when the memory is unknown.
std::optional<DefaultCap> default_pin_cap(const HostMemory& host);
// The huge pages one client may take by default: half of those reserved (none reserved: no
// cap, a run on huge pages fails on its own saying how to reserve them).
std::optional<DefaultCap> default_huge_page_cap(const HostMemory& host);
// The latency samples a client keeps for one run: half the physical memory (none unknown).
std::optional<DefaultCap> latency_sample_cap(const HostMemory& host);

}  // namespace rdmabench
