// The options every command that measures against `rdmabench serve` takes alike (run, search):
// the server, this side's device and port, the GID, the bootstrap, how long to wait, the key or
// certificates. One declaration and one parse, so that their names, defaults and limits cannot
// drift apart (search lacked --wait, --gid-index, --ib-port and --cm, and took --timeout up to 3600
// s where run takes 86400).
#pragma once

#include <chrono>
#include <cstdint>
#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <vector>

#include "channel/tls_context.h"
#include "core/peer_address.h"
#include "runner/suite_options.h"
#include "spec/test_spec.h"

namespace rdmabench {

struct ServerConnection {
  PeerAddress address;
  std::optional<Bootstrap> cm;     // --cm rdmacm or oob; none: auto
  std::string device;              // this side's; "" the first
  std::optional<uint8_t> ib_port;  // given: out of band only, so --cm auto picks oob
  std::optional<uint32_t> gid_index;
  std::chrono::milliseconds timeout{5000};
  std::chrono::milliseconds wait{120000};  // for a server busy with another client
  ChannelCredentials credentials;          // --key, or --cert, --cert-key and --ca

  // Where a run goes, as `rdmabench run` takes it: HOST --port P, and --device, --ib-port and
  // --gid-index where given (the start of a search report's run lines).
  std::vector<std::string> run_arguments() const;
  // Where a suite connects, as these say (--ib-port, not given: 1).
  PeerConnection peer() const;
};

// Adds the options, in `group` of `options`.
void add_server_connection(cxxopts::Options& options, const std::string& group);

// Reads and checks them. Throws Error(kUsage) naming the option, with the same limits for
// every command.
ServerConnection server_connection_of(const cxxopts::ParseResult& args);

// An option given that only the out-of-band bootstrap honours, and why rdma_cm does not.
struct OobOnly {
  std::string option, why;
};

// --ib-port, when given.
std::optional<OobOnly> oob_only_option(const ServerConnection& connection);

// Why the out-of-band bootstrap is the only one `only` allows ("--ib-port given (rdma_cm picks
// the port from the address)"), or "" when any will do. Throws Error(kUsage) when --cm rdmacm
// (`cm`) was asked for as well.
std::string oob_only_reason(std::optional<Bootstrap> cm, const std::optional<OobOnly>& only);
inline std::string oob_only_reason(const ServerConnection& connection) {
  return oob_only_reason(connection.cm, oob_only_option(connection));
}

}  // namespace rdmabench
