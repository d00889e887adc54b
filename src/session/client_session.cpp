#include "session/client_session.h"

#include <chrono>
#include <ostream>
#include <thread>

#include "bench/pattern_catalogue.h"
#include "bootstrap/rdmacm_bootstrap.h"
#include "channel/socket_error.h"
#include "core/printable_text.h"
#include "datapath/run_watch.h"
#include "messages/control_messages.h"
#include "messages/side_report_fields.h"
#include "session/port_reading.h"

namespace rdmabench {

ClientSession::ClientSession(const PeerAddress& address, const BootstrapOptions& options,
                             const TlsContext* tls)
    : control_(TcpSocket::connect(address.host, address.port, options.timeout), options.timeout),
      options_(options) {
  if (tls != nullptr) secure(*tls, address);
  control_.send(client_hello());
  server_ = greeted(control_.receive());
}

void ClientSession::secure(const TlsContext& tls, const PeerAddress& address) {
  const std::string server = address.text();
  try {
    if (control_.connect_tls(tls, address.host)) return;
  } catch (const ReceiveTimeout&) {
    throw;
  } catch (const Error& e) {
    throw Error(ExitCode::kConnection,
                std::string(e.what()) +
                    (tls.uses_certificates()
                         ? "; check that its certificate names " + address.host +
                               " and that --ca signed it, and that the server's --ca signed "
                               "this side's --cert"
                         : "; a different --key file on each side, or not the server you meant"));
  }
  // It answered in clear: busy, an error (its words raised), or a hello without TLS.
  greeted(control_.receive());
  throw Error(ExitCode::kConnection,
              server +
                  " asks for no key, and this client was given --key or --cert: it cannot prove "
                  "either, so it may not be the server you meant (serve it with the same, or "
                  "leave them out here)");
}

ServerDetails ClientSession::greeted(const nlohmann::json& reply) {
  if (reply["type"] == "busy") {
    const BusyServer busy = busy_from(reply);
    throw ServerBusy(peer_excerpt(busy.serving, 80), peer_excerpt(busy.since));
  }
  if (reply["type"] != "hello")
    throw Error(ExitCode::kConnection, "control channel: expected 'hello', got '" +
                                           peer_excerpt(reply["type"].get<std::string>()) + "'");
  return read_server_hello(reply);
}

void ClientSession::raise_server_error() {
  try {
    control_.receive(std::chrono::milliseconds(100), -1);  // what the server said, if anything
  } catch (const PeerError&) {
    throw;
  } catch (const Error&) {
    // Nothing (or no more than a closed connection): the run's own error stands.
  }
}

ServerBusy::ServerBusy(std::string serving_host, std::string serving_since)
    : Error(ExitCode::kConnection,
            "the server is busy, serving " + serving_host + " since " + serving_since),
      serving(std::move(serving_host)),
      since(std::move(serving_since)) {}

std::unique_ptr<ClientSession> connect_when_free(const PeerAddress& server,
                                                 const BootstrapOptions& options,
                                                 const WaitPolicy& policy, std::ostream& progress,
                                                 const TlsContext* tls) {
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0;; ++attempt) {
    try {
      return std::make_unique<ClientSession>(server, options, tls);
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
        progress << "rdmabench: " << server.text() << " is busy, serving " << busy.serving
                 << " since " << busy.since << "; waiting for its turn (" << waited.count() / 1000
                 << " s of --wait " << policy.wait.count() / 1000 << ")\n"
                 << std::flush;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  }
}

void ClientSession::set_deadline(std::chrono::steady_clock::time_point deadline,
                                 std::function<Error()> over) {
  deadline_ = deadline;
  over_ = over;
  control_.bound_waits({-1, deadline, std::move(over)});
}

ClientSession::~ClientSession() {
  endpoint_.reset();
  try {
    control_.send(bye_message());
  } catch (...) {
    // The server is gone; nothing to say goodbye to.
  }
}

void ClientSession::setup(const TestSpec& spec) {
  if (endpoint_) {
    endpoint_.reset();
    control_.send(teardown_message());
  }
  control_.send(setup_message(spec));
  port_.reset();
  one_port_.reset();
  // Over rdma_cm, a named device's address: found at the first such setup, kept for the rest.
  if (spec.bootstrap == Bootstrap::kRdmaCm) options_ = with_device_address(std::move(options_));
  endpoint_ = client_bootstrap(control_, spec, options_);
  pattern_ = make_pattern(spec.pattern);
  port_.emplace(port_place_of(*endpoint_));
}

PathsInUse ClientSession::paths_in_use() {
  control_.send(path_request());
  return {endpoint_->path_in_use(), read_path_reply(control_.receive("path"))};
}

RunResult ClientSession::run(const ClientRun& request, std::span<uint64_t> samples) {
  RunResult r;
  Endpoint& ep = *endpoint_;
  const TestSpec& spec = ep.spec();
  const RunLength& length = request.length;
  // One thread needs no flag to stop the others (and its event waits watch one fd less), unless
  // a deadline is to stop it.
  const RunAbort abort;
  const RunAbort* team_abort = spec.threads > 1 || deadline_ ? &abort : nullptr;
  if (request.device_counters && !one_port_)  // outside the window, before "run"
    one_port_ = peer_on_this_port(ep.context(), port_->place().port, paths_in_use().server.path);
  r.one_port = request.device_counters && *one_port_;
  // Before "run", not beside the server's reading after it: a client still reading when
  // "ready" came started its traffic at once, inside a passive server's few-microsecond window
  // (read lat: 74 us of rxe softirq charged to it, against under 50 without the overlap).
  const PortReading port_reading(port_, request.device_counters);
  std::vector<ThreadOutcome> threads;
  {
    const RunScope scope(
        ep, request.check,
        request.check && request.corrupt ? length.iterations / 2 : QpStream::kNever, team_abort);
    std::optional<RunWatch> watch;  // the deadline's, raising abort when it passes
    if (deadline_) watch.emplace(control_.socket().fd(), -1, abort, false, deadline_);
    control_.send(run_message({length, request.check, request.device_counters}));
    control_.receive("ready");
    const SideRunOptions o{length, options_.timeout, request.cpus, request.live, &clock_};
    try {
      threads = run_side(ep, *pattern_, Side::kClient, o, samples, abort);
    } catch (const Error&) {
      if (abort.deadline_passed) throw over_();
      ep.raise_device_failure();  // the cause of the flushed completions, if it was that
      raise_server_error();       // or the server's, when it ended the run (--max-duration)
      throw;
    }
    ep.raise_device_failure();
  }
  r.client = summarize_side(threads, spec, Side::kClient);
  for (const ThreadOutcome& t : threads) r.client_lat.push_back(t.lat);
  r.client.device_events = ep.run_device_events();
  if (request.check)  // what this side sent is over: its targets at the server hold it all
    for (auto& s : ep.streams())
      r.client.verify.errors += pattern_->verify_sent_after_run(*s, options_.timeout);
  control_.send(finished_message());
  r.server = side_report_from(control_.receive("done"), spec.threads, spec.qps);
  r.client.device_counters = port_reading.deltas();  // both sides' runs are over
  // Only now has the server ended its own sends (with --bidir they may outlast ours): what it
  // wrote here is complete, and nothing of it lands here any more while end_check_run
  // refills the buffers (which once put back an atomic counter the server's fetch_adds were
  // still moving, and their fetched values then failed the server's checks).
  if (request.check) {
    if (spec.bidir)
      for (auto& s : ep.streams()) r.client.verify.errors += pattern_->verify_after_run(*s);
    ep.end_check_run();
  }
  if (spec.mode == Mode::kLatency) clock_.check();  // the session is in step again: may throw
  return r;
}

}  // namespace rdmabench
