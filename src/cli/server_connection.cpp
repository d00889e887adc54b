#include "cli/server_connection.h"

#include <algorithm>
#include <chrono>

#include "cli/channel_security_options.h"
#include "cli/number_options.h"
#include "cli/option_checks.h"
#include "core/error.h"

namespace rdmabench {

using namespace std::chrono_literals;

void add_server_connection(cxxopts::Options& options, const std::string& group) {
  options.add_options(group)("host", "Server address", cxxopts::value<std::string>())(
      "p,port", "Server's TCP control port",
      cxxopts::value<std::string>()->default_value(std::to_string(kDefaultControlPort)),
      "N")("cm", "auto, rdmacm or oob (out-of-band QP exchange over TCP)",
           cxxopts::value<std::string>()->default_value("auto"))(
      "d,device",
      "Local RDMA device (default: the first; over rdma_cm the route's, and one named is "
      "connected from its own address)",
      cxxopts::value<std::string>())(
      "ib-port",
      "The device's port (like perftest -i); out of band only, so --cm auto then picks oob "
      "(rdma_cm picks the port from the address)",
      cxxopts::value<std::string>()->default_value("1"),
      "N")("gid-index",
           "This side's GID index, out of band only (like perftest -x; default: as `rdmabench "
           "devices` marks it); the server chooses its own (serve --gid-index)",
           cxxopts::value<std::string>(),
           "N")("timeout", "Time any blocking step may take (5s, 500ms)",
                cxxopts::value<std::string>()->default_value("5s"), "TIME")(
      "wait", "Time to wait for a server that is busy with another client (2m, 30s)",
      cxxopts::value<std::string>()->default_value("2m"),
      "TIME")("no-wait", "Fail at once when the server is busy with another client");
  add_channel_security(options, group, ChannelSide::kClient);
}

namespace {

std::chrono::milliseconds wait_of(const cxxopts::ParseResult& args) {
  if (args.count("no-wait") && args.count("wait"))
    throw Error(ExitCode::kUsage, "give --wait TIME or --no-wait, not both");
  if (args.count("no-wait")) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(
      time_option(args, "wait", {0ms, 24h, 1ms}));
}

}  // namespace

ServerConnection server_connection_of(const cxxopts::ParseResult& args) {
  ServerConnection c;
  if (args.count("host")) c.address.host = args["host"].as<std::string>();
  if (args.count("host") && c.address.host.empty())
    throw Error(ExitCode::kUsage,
                "HOST is empty: give the address or name of the host `rdmabench serve` runs on");
  c.address.port = port_option(args);
  const std::string cm = args["cm"].as<std::string>();
  if (cm != "auto") {
    c.cm = parse_bootstrap(cm);
    if (!c.cm) throw Error(ExitCode::kUsage, "--cm must be auto, rdmacm or oob");
  }
  c.device = text_option(args, "device");
  if (args.count("ib-port")) c.ib_port = ib_port_option(args);
  if (args.count("gid-index")) c.gid_index = gid_index_option(args);
  c.timeout = timeout_option(args);
  c.wait = wait_of(args);
  c.credentials = channel_security_of(args);
  return c;
}

std::optional<OobOnly> oob_only_option(const ServerConnection& c) {
  if (c.ib_port) return OobOnly{"--ib-port", "rdma_cm picks the port from the address"};
  if (c.gid_index) return OobOnly{"--gid-index", "rdma_cm picks the GID from the address"};
  return std::nullopt;
}

std::string oob_only_reason(std::optional<Bootstrap> cm, const std::optional<OobOnly>& only) {
  if (!only) return "";
  if (cm == Bootstrap::kRdmaCm)
    throw Error(ExitCode::kUsage, only->option + " is for the out-of-band bootstrap: " + only->why +
                                      " (give --cm oob, or drop " + only->option + ")");
  return only->option + " given (" + only->why + ")";
}

PeerConnection ServerConnection::peer() const {
  PeerConnection p;
  p.address = address;
  p.timeout = timeout;
  p.local = {device, ib_port.value_or(uint8_t{1}), gid_index};
  p.tls = credentials.context(TlsContext::Role::kClient);
  p.wait.wait = wait;
  return p;
}

std::vector<std::string> ServerConnection::run_arguments() const {
  std::vector<std::string> args = {address.host, "--port", std::to_string(address.port)};
  if (!device.empty()) args.insert(args.end(), {"--device", device});
  if (ib_port) args.insert(args.end(), {"--ib-port", std::to_string(*ib_port)});
  if (gid_index) args.insert(args.end(), {"--gid-index", std::to_string(*gid_index)});
  return args;
}

}  // namespace rdmabench
