#include "session/server.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>
#include <syncstream>

#include "bench/pattern_catalogue.h"
#include "bootstrap/bootstrap.h"
#include "channel/socket_error.h"
#include "core/cpu_ranges.h"
#include "core/printable_text.h"
#include "core/version.h"
#include "core/wait_readable.h"
#include "datapath/pattern.h"
#include "datapath/resource_usage.h"
#include "datapath/run_watch.h"
#include "datapath/side_figures.h"
#include "datapath/side_run.h"
#include "host/host_info.h"
#include "host/side_placement.h"
#include "host/timing_environment.h"
#include "messages/control_channel.h"
#include "messages/control_messages.h"
#include "messages/protocol_version.h"
#include "session/control_protocol.h"
#include "session/lobby.h"
#include "session/port_reading.h"
#include "session/session_waits.h"
#include "session/stop_signals.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {

using SteadyClock = std::chrono::steady_clock;

// The device side of one client's tests: bootstrap over the control channel, run patterns.
// `asked` collects the name of every benchmark the client sets up, for the server's log.
class VerbsTestHost final : public TestHost {
 public:
  VerbsTestHost(ControlChannel& control, const ServerOptions& options, const SessionWaits& waits,
                std::ostream& log, std::vector<std::string>& asked)
      : control_(control), options_(options), waits_(waits), log_(log), asked_(asked) {}

  void setup(const TestSpec& spec) override {
    asked_.push_back(spec.name());
    check_spec_within(with_huge_pages_now(options_.caps), spec);  // before anything is registered
    port_.reset();
    endpoint_.reset();
    // The buffers are registered during the bootstrap, under this thread's memory policy:
    // placed for the device expected (--device's, or the one the last test used).
    placement_ = place_this_side(expected_device(), {options_.cpus, options_.numa});
    endpoint_ = server_bootstrap(control_, spec,
                                 BootstrapOptions::server(options_.local, options_.timeout));
    replace_for(endpoint_->context().device_name());
    pattern_ = make_pattern(spec.pattern);
    port_.emplace(port_place_of(*endpoint_));
    log_ << "  " << spec.name() << " via " << to_string(spec.bootstrap) << " on "
         << endpoint_->context().device_name() << "\n"
         << std::flush;
  }

  // "  write/bw/busy/65536: 1234.56 MiB/s, 0.019753 Mpps, 19753 messages (the client's
  // figures)", as perftest's server prints its table.
  void result(const ClientFigures& f) override {
    char line[160];
    if (f.lat_p50_us)
      std::snprintf(line, sizeof line, "t_p50 %.2f us, t_p99 %.2f us, %llu messages", *f.lat_p50_us,
                    *f.lat_p99_us, static_cast<unsigned long long>(f.msgs));
    else
      std::snprintf(line, sizeof line, "%.2f MiB/s, %.6f Mpps, %llu messages",
                    f.bytes_per_second / (1 << 20), f.msgs_per_second / 1e6,
                    static_cast<unsigned long long>(f.msgs));
    log_ << "  " << endpoint_->spec().name() << ": " << line << " (the client's figures)\n"
         << std::flush;
  }

  SideReport run(const RunOrder& order) override {
    const RunLength& length = order.length;
    const bool check = order.check;
    Endpoint& ep = *endpoint_;
    const PortReading port_reading(port_, order.device_counters);  // before "ready"
    // A client that goes away, or SIGTERM, ends the run at once (not after --timeout); so
    // does a failure on one of this side's threads. The watch starts before "ready", so that
    // its start-up is in nobody's timed window.
    const RunAbort abort;
    const std::optional<SteadyClock::time_point>& deadline = waits_.deadline;
    if (deadline)
      check_run_within(
          options_.caps, length.duration_ns,
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - SteadyClock::now()));
    SideReport report;
    {
      const RunScope scope(
          ep, check, check && options_.debug_corrupt ? length.iterations / 2 : QpStream::kNever,
          &abort);
      // Over a transport that may lose messages, the client's "finished" (its sends are over)
      // is what ends this side's receives when its end marker was lost; and what ends the checks
      // of --validate's write bw target (every write landed before it).
      const bool lossy_receiver = ep.spec().mode == Mode::kBandwidth &&
                                  !ep.spec().transport->reliable &&
                                  side_receives(ep.spec(), Side::kServer);
      const RunWatch watch(control_.socket().fd(), waits_.stop_fd, abort,
                           lossy_receiver || ep.spec().checks_landed_writes(), deadline);
      try {
        report = run_watched(ep, length, abort);
      } catch (const Error&) {
        if (!abort.deadline_passed) throw;
      }
      if (abort.deadline_passed) throw waits_.session_over();
    }
    // The client's "finished": a passive target's run (write bw, read, the atomics) ends at
    // once and this is where its server waits.
    waits_.receive(options_.idle_timeout, "finished");
    // Only now is the client's run over too: a passive target's own run (write bw, read, the
    // atomics) ends at once, while its port still answers every read and atomic the client
    // goes on sending. (Read before "finished", the server's deltas missed all of read bw's
    // responses.)
    report.device_counters = port_reading.deltas();
    if (check) {
      for (auto& s : ep.streams()) {
        report.verify.errors += pattern_->verify_after_run(*s);
        if (ep.spec().bidir)  // this side sent too
          report.verify.errors += pattern_->verify_sent_after_run(*s, options_.timeout);
      }
      ep.end_check_run();
    }
    return report;
  }

  void teardown() override {
    port_.reset();
    endpoint_.reset();
  }
  ServerPath path() override { return {endpoint_->path_in_use(), placement_.facts()}; }

 private:
  std::string expected_device() const {
    if (!placement_.device.device.empty()) return placement_.device.device;
    if (!options_.local.device.empty()) return options_.local.device;
    const DeviceList devices;
    return devices.empty() ? std::string() : devices.names().front();
  }

  // rdma_cm chose another device than expected: its CPUs from now on; its buffers stay where
  // they were placed, which the reason says.
  void replace_for(const std::string& device) {
    if (device == placement_.device.device) return;
    const int memory = placement_.placement.memory_node;
    placement_ = place_this_side(device, {options_.cpus, options_.numa});
    placement_.placement.reason += "; this test's buffers were placed before rdma_cm chose " +
                                   device + ": " +
                                   (memory < 0 ? std::string("where the kernel put them")
                                               : "on NUMA node " + std::to_string(memory));
    placement_.placement.memory_node = memory;
  }

  // Tells the client to start, then runs the server's part of the pattern on every thread.
  // Each thread's CPU and context-switch window covers its own loop alone, as on the client.
  SideReport run_watched(Endpoint& ep, const RunLength& length, const RunAbort& abort) {
    for (auto& s : ep.streams()) pattern_->before_server_run(*s);
    control_.send(ready_message());
    const SideRunOptions o{length, options_.timeout, placement_.placement.cpus};
    std::vector<ThreadOutcome> threads;
    try {
      threads = run_side(ep, *pattern_, Side::kServer, o, {}, abort);
    } catch (const Error&) {
      ep.raise_device_failure();  // the cause of the flushed completions, if it was that
      throw;
    }
    ep.raise_device_failure();
    SideReport report = summarize_side(threads, ep.spec(), Side::kServer);
    report.device_events = ep.run_device_events();
    return report;
  }

  ControlChannel& control_;
  const ServerOptions& options_;
  const SessionWaits& waits_;
  std::ostream& log_;
  std::unique_ptr<TransportPattern> pattern_;
  std::unique_ptr<Endpoint> endpoint_;  // destroyed first: QP before anything it uses
  std::optional<PortCounters> port_;    // where endpoint_'s QPs go out
  SidePlacement placement_;             // this side's CPUs and memory, for endpoint_'s device
  std::vector<std::string>& asked_;
};

// One client, message by message, until it says goodbye (or an Error drops it). Until the
// client has earned the idle timeout (proved the key; without one, set up a benchmark) each
// message is due within --timeout; none is waited for past the session's --max-duration.
void serve_client(ControlChannel& control, const ServerOptions& options,
                  const ServerDetails& details, int stop_fd, std::ostream& log,
                  std::vector<std::string>& asked) {
  const SessionWaits waits(options.caps, stop_fd, control);  // every wait, the bootstraps' too
  VerbsTestHost host(control, options, waits, log, asked);
  ControlProtocol protocol(host, details, control.secured());
  while (!protocol.finished()) {
    const auto timeout = protocol.trusted() ? options.idle_timeout : options.timeout;
    std::optional<nlohmann::json> reply = protocol.handle(waits.receive(timeout));
    if (reply) control.send(*reply);
  }
}

}  // namespace

namespace {

// How much of the error that dropped a client its log line shows.
constexpr size_t kLoggedErrorLimit = 2000;

// "write/bw/busy/4096, read/bw/busy/4096 and 3 more" (what the log line says a client asked).
std::string asked_text(const std::vector<std::string>& asked) {
  if (asked.empty()) return "no benchmark";
  std::string text;
  for (size_t i = 0; i < asked.size() && i < 3; ++i) text += (i ? ", " : "") + asked[i];
  if (asked.size() > 3) text += " and " + std::to_string(asked.size() - 3) + " more";
  return std::to_string(asked.size()) + " set up (" + text + ")";
}

}  // namespace

ServerDetails server_details(const ServerOptions& options) {
  const TimingEnvironment timing = timing_environment();
  return {.version = kVersion,
          .hostname = host_name(),
          .kernel = kernel_release(),
          .rdma_core = rdma_core_version(),
          .timing = timing.describe(),
          .kernel_tuning = timing.kernel_tuning,
          .cpus = cpu_list_text(options.cpus)};
}

void serve_clients(TcpSocket& listener, const ServerOptions& options, const ServerDetails& details,
                   int stop_fd, std::ostream& log) {
  // Two threads write the log, a line at a time each: the lobby's and this one.
  std::osyncstream lobby_log(log), session_log(log);
  lobby_log << std::emit_on_flush;
  session_log << std::emit_on_flush;
  Lobby lobby(listener,
              {.allow = options.allow.restricts() ? &options.allow : nullptr,
               .tls = options.tls ? &*options.tls : nullptr,
               .deadline = options.timeout},
              lobby_log);
  for (;;) {
    std::optional<AdmittedClient> client = lobby.next(stop_fd);
    if (!client) return;
    const std::string peer = client->peer;
    session_log << "client " << peer << " connected\n" << std::flush;
    ControlChannel control(std::move(client->socket), options.timeout, std::move(client->tls));
    std::optional<Error> failure;
    std::vector<std::string> asked;
    try {
      serve_client(control, options, details, stop_fd, session_log, asked);
    } catch (const Error& e) {
      failure = e;
    } catch (const std::exception& e) {
      failure = Error(ExitCode::kInternal, e.what());
    }
    lobby.session_over();  // free before the client hears how it ended: it may come straight back
    if (failure) {
      // One line, whatever the client wrote into the error (its type, its version, its text).
      session_log << "client " << peer
                  << " dropped: " << peer_excerpt(failure->what(), kLoggedErrorLimit) << " ["
                  << asked_text(asked) << "]\n"
                  << std::flush;
      control.send_error(static_cast<int>(failure->exit_code()), failure->what());
    } else {
      session_log << "client " << peer << " done [" << asked_text(asked) << "]\n" << std::flush;
    }
    if (wait_readable(stop_fd, std::chrono::milliseconds(0), "poll(stop)") || options.once) return;
  }
}

int run_server(const ServerOptions& options, std::ostream& log) {
  StopSignals stop;
  const ServerDetails details = server_details(options);
  TcpSocket listener = TcpSocket::listen(options.port, options.bind_address);
  {
    DeviceList devices;
    if (devices.empty()) throw Error(ExitCode::kNoDevice, no_device_advice());
    // What --cm oob clients will get, checked now rather than at the first client.
    check_port_exists(devices.open(options.local.device), options.local.ib_port);
    std::string names;
    for (const auto& n : devices.names()) names += " " + n;
    log << "rdmabench " << kVersion << " serving on "
        << (options.bind_address.empty() ? std::string() : options.bind_address + " ")
        << "TCP port " << options.port << " (protocol " << kControlProtocolVersion
        << "), devices:" << names << "\n"
        << "  clients: "
        << (options.allow.restricts() ? "from " + options.allow.text() : "any address")
        << (!options.tls                       ? ", no key (control channel in clear)"
            : options.tls->uses_certificates() ? ", with a certificate the CA signed (TLS 1.3)"
                                               : ", with the key (TLS 1.3)")
        << "; caps: " << options.caps.describe() << "\n"
        << std::flush;
  }
  serve_clients(listener, options, details, stop.fd(), log);
  if (stop.pending()) log << "rdmabench serve: stopping on signal\n" << std::flush;
  return 0;
}

}  // namespace rdmabench
