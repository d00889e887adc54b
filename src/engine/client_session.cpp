#include "engine/client_session.h"

#include <chrono>
#include <ostream>
#include <thread>

#include "core/version.h"
#include "engine/resource_usage.h"
#include "net/message_fields.h"

namespace rdmabench {

ClientSession::ClientSession(const std::string& host, uint16_t port,
                             const BootstrapOptions& options)
    : control_(TcpSocket::connect(host, port, options.timeout), options.timeout),
      options_(options) {
  control_.send({{"type", "hello"}, {"protocol", kControlProtocolVersion}, {"version", kVersion}});
  nlohmann::json reply = control_.receive();
  auto text = [&](const char* key) {
    return reply[key].is_string() ? reply[key].get<std::string>() : std::string("?");
  };
  if (reply["type"] == "busy") throw ServerBusy(text("serving"), text("since"));
  if (reply["type"] != "hello")
    throw Error(ExitCode::kConnection,
                "control channel: expected 'hello', got '" + text("type").substr(0, 40) + "'");
  hello_ = std::move(reply);
}

ServerBusy::ServerBusy(std::string serving_host, std::string serving_since)
    : Error(ExitCode::kConnection,
            "the server is busy, serving " + serving_host + " since " + serving_since),
      serving(std::move(serving_host)),
      since(std::move(serving_since)) {}

std::unique_ptr<ClientSession> connect_when_free(const std::string& host, uint16_t port,
                                                 const BootstrapOptions& options,
                                                 const WaitPolicy& policy, std::ostream& progress) {
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0;; ++attempt) {
    try {
      return std::make_unique<ClientSession>(host, port, options);
    } catch (const ServerBusy& busy) {
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::steady_clock::now() - start);
      const bool stopping = policy.stop != nullptr && policy.stop->pending();
      if (waited >= policy.wait || stopping)
        throw Error(
            ExitCode::kConnection,
            std::string(busy.what()) +
                (policy.wait.count() == 0
                     ? " (--no-wait)"
                     : "; gave up after " + std::to_string(waited.count() / 1000) + " s (--wait)"));
      if (attempt % 10 == 0)
        progress << "rdmabench: " << host << ":" << port << " is busy, serving " << busy.serving
                 << " since " << busy.since << "; waiting for its turn (" << waited.count() / 1000
                 << " s of --wait " << policy.wait.count() / 1000 << ")\n"
                 << std::flush;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  }
}

ClientSession::~ClientSession() {
  endpoint_.reset();
  try {
    control_.send({{"type", "bye"}});
  } catch (...) {
    // The server is gone; nothing to say goodbye to.
  }
}

void ClientSession::setup(const TestSpec& spec) {
  if (endpoint_) {
    endpoint_.reset();
    control_.send({{"type", "teardown"}});
  }
  control_.send({{"type", "setup"}, {"spec", to_json(spec)}});
  endpoint_ = client_bootstrap(control_, spec, options_);
  pattern_ = make_pattern(spec.pattern);
}

nlohmann::json ClientSession::paths_in_use() {
  control_.send({{"type", "path"}});
  nlohmann::json server = control_.receive("path");
  server.erase("type");
  return {{"client", endpoint_->path_in_use()}, {"server", std::move(server)}};
}

RunResult ClientSession::run(uint64_t iterations, std::span<uint64_t> samples, bool check,
                             bool corrupt) {
  RunResult r;
  Endpoint& ep = *endpoint_;
  ep.checking = check;
  ep.posted = 0;
  ep.poll_counts = {};
  if (check && corrupt) ep.corrupt_from = iterations / 2;
  control_.send({{"type", "run"}, {"iters", iterations}, {"check", check}});
  control_.receive("ready");
  const ResourceUsage before = ResourceUsage::now();
  r.client = pattern_->run_client(ep, iterations, samples, options_.timeout);
  const ResourceUsage used = ResourceUsage::now() - before;
  if (check) ep.end_check_run();
  control_.send({{"type", "finished"}});
  const auto done = control_.receive("done");
  r.client_side = SideFigures::of(used, ep.poll_counts);
  r.server_side = side_figures_from(done);
  const MessageContext ctx{"done"};
  r.server_verify_errors = unsigned_as<uint64_t>(done, ctx, "verify_errors");
  return r;
}

}  // namespace rdmabench
