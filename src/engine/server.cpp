#include "engine/server.h"

#include <memory>
#include <ostream>

#include "core/version.h"
#include "engine/bootstrap.h"
#include "engine/host_info.h"
#include "engine/pattern.h"
#include "engine/resource_usage.h"
#include "engine/stop_signals.h"
#include "engine/timing_environment.h"
#include "engine/transfer_loops.h"
#include "net/control_channel.h"
#include "net/message_fields.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {

// More messages than any run could send in a day at a billion per second.
constexpr uint64_t kMaxIterations = 1ull << 46;

class ClientHandler {
 public:
  ClientHandler(ControlChannel& control, const ServerOptions& options, int stop_fd,
                std::ostream& log)
      : control_(control), options_(options), stop_fd_(stop_fd), log_(log) {}

  void serve() {
    greet();
    for (;;) {
      const auto msg = control_.receive(options_.idle_timeout, stop_fd_);
      const std::string type = msg["type"];  // ControlChannel checked it is a string
      if (type == "setup") {
        setup(spec_from_json(field(msg, {"setup", ExitCode::kUsage}, "spec")));
      } else if (type == "run") {
        run(unsigned_as<uint64_t>(msg, {"run"}, "iters", 1, kMaxIterations));
      } else if (type == "teardown") {
        endpoint_.reset();
      } else if (type == "bye") {
        return;
      } else {
        throw Error(ExitCode::kConnection, "unexpected message '" + type + "'");
      }
    }
  }

 private:
  void greet() {
    const auto hello = control_.receive(options_.timeout, stop_fd_, "hello");
    const auto protocol = hello.find("protocol");
    const int64_t theirs =
        protocol != hello.end() && protocol->is_number_integer() ? protocol->get<int64_t>() : -1;
    const auto version = hello.find("version");
    if (theirs != kControlProtocolVersion) {
      const std::string text =
          "protocol version mismatch: client speaks " + std::to_string(theirs) + " (rdmabench " +
          (version != hello.end() && version->is_string() ? version->get<std::string>()
                                                          : std::string("?")) +
          "), server speaks " + std::to_string(kControlProtocolVersion) + " (rdmabench " +
          kVersion + "); run the same rdmabench version on both hosts";
      control_.send_error(static_cast<int>(ExitCode::kConnection), text);
      throw Error(ExitCode::kConnection, text);
    }
    control_.send({{"type", "hello"},
                   {"protocol", kControlProtocolVersion},
                   {"version", kVersion},
                   {"hostname", host_name()},
                   {"kernel", kernel_release()},
                   {"rdma_core", rdma_core_version()},
                   {"timing", timing_environment().describe()}});
  }

  void setup(const TestSpec& spec) {
    endpoint_.reset();
    BootstrapOptions bo;
    bo.device = options_.device;
    bo.timeout = options_.timeout;
    endpoint_ = server_bootstrap(control_, spec, bo);
    pattern_ = make_pattern(spec.pattern);
    log_ << "  " << spec.name() << " via " << to_string(spec.bootstrap) << " on "
         << endpoint_->context().device_name() << "\n"
         << std::flush;
  }

  void run(uint64_t iterations) {
    if (!endpoint_) throw Error(ExitCode::kConnection, "'run' before 'setup'");
    const ResourceUsage before = ResourceUsage::now();
    control_.send({{"type", "ready"}});
    uint64_t errors = pattern_->run_server(*endpoint_, iterations, options_.timeout);
    control_.receive(options_.idle_timeout, stop_fd_, "finished");
    if (options_.debug_corrupt && endpoint_->spec().verify) {
      endpoint_->target(0)[0] ^= 0xff;  // proves a corrupt payload reaches the client's exit code
      errors += check_slot(*endpoint_, 0);
    }
    errors += pattern_->verify_after_run(*endpoint_);
    const ResourceUsage used = ResourceUsage::now() - before;
    control_.send({{"type", "done"},
                   {"cpu_ns", used.cpu_ns},
                   {"voluntary_switches", used.voluntary_switches},
                   {"verify_errors", errors}});
  }

  ControlChannel& control_;
  const ServerOptions& options_;
  int stop_fd_;
  std::ostream& log_;
  std::unique_ptr<TransportPattern> pattern_;
  std::unique_ptr<Endpoint> endpoint_;  // destroyed first: QP before anything it uses
};

}  // namespace

int run_server(const ServerOptions& options, std::ostream& log) {
  StopSignals stop;
  TcpSocket listener = TcpSocket::listen(options.port);
  {
    DeviceList devices;
    if (devices.empty()) throw Error(ExitCode::kNoDevice, no_device_advice());
    std::string names;
    for (const auto& n : devices.names()) names += " " + n;
    log << "rdmabench " << kVersion << " serving on TCP port " << options.port << " (protocol "
        << kControlProtocolVersion << "), devices:" << names << "\n"
        << std::flush;
  }
  for (;;) {
    auto client = listener.accept(stop.fd());
    if (!client) break;
    const std::string peer = client->peer_address();
    log << "client " << peer << " connected\n" << std::flush;
    ControlChannel control(std::move(*client), options.timeout);
    try {
      ClientHandler(control, options, stop.fd(), log).serve();
      log << "client " << peer << " done\n" << std::flush;
    } catch (const Error& e) {
      log << "client " << peer << " dropped: " << e.what() << "\n" << std::flush;
      control.send_error(static_cast<int>(e.exit_code()), e.what());
    } catch (const std::exception& e) {
      log << "client " << peer << " dropped: " << e.what() << "\n" << std::flush;
      control.send_error(static_cast<int>(ExitCode::kInternal), e.what());
    }
    if (stop.pending()) break;
    if (options.once) return 0;
  }
  log << "rdmabench serve: stopping on signal\n" << std::flush;
  return 0;
}

}  // namespace rdmabench
