#include "session/server_caps.h"

#include "core/byte_units.h"
#include "core/error.h"
#include "datapath/endpoint.h"
#include "host/host_memory.h"

namespace rdmabench {

namespace {

std::string seconds(std::chrono::milliseconds ms) {
  return std::to_string(ms.count() / 1000) +
         (ms.count() % 1000 ? "." + std::to_string(ms.count() % 1000) : "") + " s";
}

Error over(const std::string& what, const std::string& cap) {
  return Error(ExitCode::kUsage, what + ", more than this server allows (" + cap +
                                     "); ask for less, or ask its operator");
}

}  // namespace

std::string ServerCaps::memory_cap() const {
  if (!max_memory_bytes) return "none";
  const std::string cap = "--max-memory " + mib_text(*max_memory_bytes);
  return max_memory_default.empty()
             ? cap
             : cap + " by default: " + max_memory_default + "; the server's --max-memory sets it";
}

std::string ServerCaps::huge_page_cap() const {
  if (!max_huge_page_bytes) return "none";
  return "huge pages " + mib_text(*max_huge_page_bytes) + " by default: " + max_huge_page_default +
         "; the server's --max-memory sets the cap instead";
}

std::string ServerCaps::describe() const {
  std::string all;
  auto add = [&](const std::string& item) { all += (all.empty() ? "" : ", ") + item; };
  if (max_duration) add("--max-duration " + seconds(*max_duration));
  if (max_memory_bytes)
    add("--max-memory " + mib_text(*max_memory_bytes) +
        (max_memory_default.empty() ? "" : " (default: " + max_memory_default + ")"));
  if (max_huge_page_bytes)
    add("huge pages " + mib_text(*max_huge_page_bytes) + " (default: " + max_huge_page_default +
        ")");
  if (max_qps) add("--max-qps " + std::to_string(*max_qps));
  if (max_threads) add("--max-threads " + std::to_string(*max_threads));
  return all.empty() ? "none" : all;
}

void check_spec_within(const ServerCaps& caps, const TestSpec& spec) {
  if (caps.max_qps && spec.qps > *caps.max_qps)
    throw over(spec.name() + " asks " + std::to_string(spec.qps) + " QPs",
               "--max-qps " + std::to_string(*caps.max_qps));
  if (caps.max_threads && spec.threads > *caps.max_threads)
    throw over(spec.name() + " asks " + std::to_string(spec.threads) + " threads",
               "--max-threads " + std::to_string(*caps.max_threads));
  const uint64_t bytes = registered_bytes(spec, Side::kServer);
  if (caps.max_memory_bytes && bytes > *caps.max_memory_bytes)
    throw over(spec.name() + " would register " + mib_text(bytes) + " on the server",
               caps.memory_cap());
  if (spec.hugepages && caps.max_huge_page_bytes && bytes > *caps.max_huge_page_bytes)
    throw over(spec.name() + " would take " + mib_text(bytes) + " of huge pages on the server",
               caps.huge_page_cap());
}

ServerCaps with_huge_pages_now(ServerCaps caps) {
  if (!caps.huge_pages_by_default) return caps;
  const auto cap = default_huge_page_cap(this_host_memory());
  caps.max_huge_page_bytes = cap ? std::optional<uint64_t>(cap->bytes) : std::nullopt;
  caps.max_huge_page_default = cap ? cap->why : "";
  return caps;
}

void check_run_within(const ServerCaps& caps, uint64_t duration_ns,
                      std::chrono::milliseconds left) {
  if (!caps.max_duration) return;
  const std::string cap = "--max-duration " + seconds(*caps.max_duration) + " a client";
  if (left.count() <= 0) throw over("this client's session has used its time", cap);
  const auto asked = std::chrono::milliseconds(duration_ns / 1'000'000);
  if (asked > left)
    throw over("a run of " + seconds(asked) + " with " + seconds(left) + " of the session left",
               cap);
}

}  // namespace rdmabench
