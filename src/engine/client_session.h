// The client's side of one control connection: hello, then setup/run/teardown per benchmark.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "engine/bootstrap.h"
#include "engine/pattern.h"
#include "net/control_channel.h"

namespace rdmabench {

struct RunResult {
  ClientMeasurement client;
  uint64_t client_cpu_ns = 0;
  int64_t client_switches = 0;
  uint64_t server_cpu_ns = 0;
  int64_t server_switches = 0;
  uint64_t server_verify_errors = 0;
};

class ClientSession {
 public:
  ClientSession(const std::string& host, uint16_t port, const BootstrapOptions& options);
  ~ClientSession();
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  const nlohmann::json& server_hello() const noexcept { return hello_; }
  // Tears down the previous benchmark's connection (if any) and connects for `spec`.
  void setup(const TestSpec& spec);
  const TestSpec* current() const noexcept { return endpoint_ ? &endpoint_->spec() : nullptr; }
  RunResult run(uint64_t iterations, std::span<uint64_t> samples);

 private:
  ControlChannel control_;
  BootstrapOptions options_;
  nlohmann::json hello_;
  std::unique_ptr<TransportPattern> pattern_;
  std::unique_ptr<Endpoint> endpoint_;
};

}  // namespace rdmabench
