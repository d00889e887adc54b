#include "core/fabric.h"

namespace rdmabench {

std::string to_string(Fabric fabric) {
  switch (fabric) {
    case Fabric::kInfiniBand:
      return "InfiniBand";
    case Fabric::kRoceV1:
      return "RoCE v1";
    case Fabric::kRoceV2:
      return "RoCE v2";
    case Fabric::kIwarp:
      return "iWARP";
  }
  return "unknown";
}

std::optional<Fabric> parse_fabric(const std::string& text) {
  for (Fabric f : {Fabric::kInfiniBand, Fabric::kRoceV1, Fabric::kRoceV2, Fabric::kIwarp})
    if (to_string(f) == text) return f;
  return std::nullopt;
}

Fabric fabric_of(const FabricFacts& facts) {
  if (facts.iwarp_transport) return Fabric::kIwarp;
  if (!facts.ethernet_link) return Fabric::kInfiniBand;
  const auto chosen = choose_default_gid(facts.gids, false);
  for (const GidEntry& gid : facts.gids)
    if (chosen && gid.index == *chosen)
      return gid.type == GidType::kRoceV1 ? Fabric::kRoceV1 : Fabric::kRoceV2;
  return Fabric::kRoceV2;  // no usable GID yet: RoCE's default version
}

bool connects_out_of_band(Fabric fabric) {
  return fabric != Fabric::kIwarp;
}

bool carries_transport(Fabric fabric, bool reliable, bool connected) {
  return (reliable && connected) || fabric != Fabric::kIwarp;
}

bool routes_by_gid(Fabric fabric) {
  return fabric != Fabric::kIwarp;
}

}  // namespace rdmabench
