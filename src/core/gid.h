// GID table entries: formatting, classification and the default choice.
// Pure functions with no device access, so they are unit-tested on any host.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace rdmabench {

using RawGid = std::array<uint8_t, 16>;

// kIwarp: an iWARP port's GID, which the kernel makes from the netdev's MAC (and calls IB):
// it names the port but routes nothing.
enum class GidType { kIb, kRoceV1, kRoceV2, kIwarp };

struct GidEntry {
  uint32_t index = 0;
  uint8_t port = 1;
  RawGid raw{};
  GidType type = GidType::kIb;
  std::string netdev;  // empty for IB
};

// "IB", "RoCE v1", "RoCE v2" (the spelling ibv_devinfo and sysfs use), "iWARP".
std::string to_string(GidType type);
// The type to_string names; nullopt for any other text.
std::optional<GidType> parse_gid_type(const std::string& text);

// The GID as IPv6 text, e.g. "fe80::200:ff:fe00:0" or "::ffff:127.0.0.1".
std::string format_gid(const RawGid& gid);

// Parses IPv6 text (as format_gid writes it); nullopt when malformed.
std::optional<RawGid> parse_gid(const std::string& text);

// "127.0.0.1" for an IPv4-mapped GID (::ffff:a.b.c.d), nullopt otherwise.
std::optional<std::string> mapped_ipv4(const RawGid& gid);

bool is_ipv6_link_local(const RawGid& gid);
bool is_zero(const RawGid& gid);

// Whether `gid` is one of `port_gids`, one port's table: a GID names one port on its fabric
// (IB: the port's GUID; RoCE: an address of its netdev; iWARP: its MAC), so a peer whose path
// has a GID of this port's table goes out of this same port. Never for the zero GID.
bool names_this_port(const RawGid& gid, std::span<const GidEntry> port_gids);

// How well an entry suits RoCE traffic; higher is better. Negative means unusable.
int gid_preference(const GidEntry& entry);

// The index rdmabench uses when --gid-index is not given. For InfiniBand (and iWARP) ports
// `lowest_index` is true and this is the lowest index;
// on RoCE it prefers RoCE v2 with an IPv4-mapped address, then RoCE v2 IPv6 (global before
// link-local), then RoCE v1, lowest index first within a class. nullopt when the table is empty.
std::optional<uint32_t> choose_default_gid(std::span<const GidEntry> entries, bool lowest_index);

}  // namespace rdmabench
