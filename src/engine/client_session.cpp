#include "engine/client_session.h"

#include "core/version.h"
#include "engine/resource_usage.h"

namespace rdmabench {

ClientSession::ClientSession(const std::string& host, uint16_t port,
                             const BootstrapOptions& options)
    : control_(TcpSocket::connect(host, port, options.timeout), options.timeout),
      options_(options) {
  control_.send({{"type", "hello"}, {"protocol", kControlProtocolVersion}, {"version", kVersion}});
  hello_ = control_.receive("hello");
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

RunResult ClientSession::run(uint64_t iterations, std::span<uint64_t> samples) {
  RunResult r;
  control_.send({{"type", "run"}, {"iters", iterations}});
  control_.receive("ready");
  const ResourceUsage before = ResourceUsage::now();
  r.client = pattern_->run_client(*endpoint_, iterations, samples, options_.timeout);
  const ResourceUsage used = ResourceUsage::now() - before;
  control_.send({{"type", "finished"}});
  const auto done = control_.receive("done");
  r.client_cpu_ns = used.cpu_ns;
  r.client_switches = used.voluntary_switches;
  r.server_cpu_ns = done.at("cpu_ns").get<uint64_t>();
  r.server_switches = done.at("voluntary_switches").get<int64_t>();
  r.server_verify_errors = done.at("verify_errors").get<uint64_t>();
  return r;
}

}  // namespace rdmabench
