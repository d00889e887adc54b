// The RDMA fabric a port speaks (InfiniBand, RoCE v1 or v2, iWARP), told from the device's own
// attributes, and what each fabric carries: the facts rdmabench decides by on a NIC it never
// ran on. Pure functions, unit-tested with fake attributes.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "core/gid.h"

namespace rdmabench {

enum class Fabric { kInfiniBand, kRoceV1, kRoceV2, kIwarp };
inline constexpr Fabric kFabrics[] = {Fabric::kInfiniBand, Fabric::kRoceV1, Fabric::kRoceV2,
                                      Fabric::kIwarp};

// "InfiniBand", "RoCE v1", "RoCE v2", "iWARP".
std::string to_string(Fabric fabric);
// The fabric to_string names; nullopt for any other text.
std::optional<Fabric> parse_fabric(const std::string& text);

// What the fabric is told from: the device's transport (ibv_device's transport_type is
// IBV_TRANSPORT_IWARP), the port's link layer, and its GID table (RoCE's version is that of
// the GID rdmabench picks).
struct FabricFacts {
  bool iwarp_transport = false;
  bool ethernet_link = false;
  std::span<const GidEntry> gids;
};
Fabric fabric_of(const FabricFacts& facts);

// iWARP connects through rdma_cm only (MPA runs over a TCP connection it sets up): there is no
// out-of-band exchange of QP numbers to connect with.
bool connects_out_of_band(Fabric fabric);
// Whether the fabric carries a transport that is (or is not) reliable and connected: iWARP
// carries reliable connected QPs only (no UD, no UC).
bool carries_transport(Fabric fabric, bool reliable, bool connected);
// The GIDs of a port are addresses routed by (IB, RoCE); on iWARP the one GID is made from the
// netdev's MAC and routes nothing (the IP address does).
bool routes_by_gid(Fabric fabric);

}  // namespace rdmabench
