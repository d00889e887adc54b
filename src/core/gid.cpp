#include "core/gid.h"

#include <arpa/inet.h>

#include <algorithm>

namespace rdmabench {

std::string to_string(GidType type) {
  switch (type) {
    case GidType::kIb:
      return "IB";
    case GidType::kRoceV1:
      return "RoCE v1";
    case GidType::kRoceV2:
      return "RoCE v2";
    case GidType::kIwarp:
      return "iWARP";
  }
  return "unknown";
}

std::optional<GidType> parse_gid_type(const std::string& text) {
  for (const GidType type : {GidType::kIb, GidType::kRoceV1, GidType::kRoceV2, GidType::kIwarp})
    if (to_string(type) == text) return type;
  return std::nullopt;
}

std::string format_gid(const RawGid& gid) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, gid.data(), text, sizeof(text));
  return text;
}

std::optional<RawGid> parse_gid(const std::string& text) {
  RawGid gid{};
  if (inet_pton(AF_INET6, text.c_str(), gid.data()) != 1) return std::nullopt;
  return gid;
}

std::optional<std::string> mapped_ipv4(const RawGid& gid) {
  static constexpr std::array<uint8_t, 12> kPrefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (!std::equal(kPrefix.begin(), kPrefix.end(), gid.begin())) return std::nullopt;
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, gid.data() + 12, text, sizeof(text));
  return std::string(text);
}

bool is_ipv6_link_local(const RawGid& gid) {
  return gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80;
}

bool is_zero(const RawGid& gid) {
  return std::all_of(gid.begin(), gid.end(), [](uint8_t b) { return b == 0; });
}

bool names_this_port(const RawGid& gid, std::span<const GidEntry> port_gids) {
  return !is_zero(gid) && std::any_of(port_gids.begin(), port_gids.end(),
                                      [&](const GidEntry& e) { return e.raw == gid; });
}

int gid_preference(const GidEntry& entry) {
  if (is_zero(entry.raw)) return -1;
  const bool v4 = mapped_ipv4(entry.raw).has_value();
  const bool link_local = is_ipv6_link_local(entry.raw);
  int score = 0;
  switch (entry.type) {
    case GidType::kRoceV2:
      score = 30;
      break;
    case GidType::kRoceV1:
      score = 10;
      break;
    case GidType::kIb:
    case GidType::kIwarp:
      score = 0;
      break;
  }
  if (v4) return score + 3;
  if (!link_local) return score + 2;
  return score + 1;
}

std::optional<uint32_t> choose_default_gid(std::span<const GidEntry> entries, bool lowest_index) {
  if (entries.empty()) return std::nullopt;
  if (lowest_index) {
    auto it = std::min_element(entries.begin(), entries.end(),
                               [](const auto& a, const auto& b) { return a.index < b.index; });
    return it->index;
  }
  const GidEntry* best = nullptr;
  for (const auto& e : entries) {
    const int score = gid_preference(e);
    if (score < 0) continue;
    if (best == nullptr || score > gid_preference(*best) ||
        (score == gid_preference(*best) && e.index < best->index)) {
      best = &e;
    }
  }
  if (best == nullptr) return std::nullopt;
  return best->index;
}

}  // namespace rdmabench
