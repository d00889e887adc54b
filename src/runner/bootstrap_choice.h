// Which bootstrap `rdmabench run` uses (--cm auto, rdmacm, oob), and why: the context and the
// banner say both.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "core/peer_address.h"
#include "spec/test_spec.h"

namespace rdmabench {

struct BootstrapChoice {
  Bootstrap method;
  std::string reason;
  std::string device;  // the local device the traffic will use
};

// choose_bootstrap: `requested` is --cm rdmacm or oob; none is auto: rdma_cm when the server's
// address resolves to an RDMA device and a route; oob on a loopback address or when rdma_cm cannot
// resolve it. Throws Error(kConnection) when rdmacm was asked for and cannot resolve. `oob_only`:
// why only oob will do, an option given that only it honours (e.g. "--ib-port given (rdma_cm picks
// the port from the address)"), so auto picks oob, saying that; so does a `transport` that rdma_cm
// cannot connect. The choice on a device that connects through rdma_cm only and carries reliable
// connected QPs only (iWARP: `iwarp`): rdma_cm stands, its reason saying so; another transport, or
// out of band, is refused (Error(kUsage)), with why and what to do. On any other device `choice`
// stands as it is.
BootstrapChoice settle_for_fabric(BootstrapChoice choice, bool iwarp,
                                  std::optional<Bootstrap> requested, Transport transport);

// What the choice is made from: --cm, where the server is, --device ("" the first, or the
// route's), how long resolving may take, why only oob will do ("" when nothing says so), and
// the transport.
struct BootstrapQuestion {
  std::optional<Bootstrap> requested;
  PeerAddress server;
  std::string device;
  std::chrono::milliseconds timeout{5000};
  std::string oob_only;
  Transport transport = default_transport();
};
BootstrapChoice choose_bootstrap(const BootstrapQuestion& question);

}  // namespace rdmabench
