#include "bootstrap/rdmacm_bootstrap.h"

#include "channel/shared_key.h"
#include "core/printable_text.h"
#include "core/system_error.h"
#include "host/device_address.h"
#include "host/device_probe.h"
#include "messages/control_messages.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {

// An rdma_cm stream before connect or accept: its receives posted where this side receives,
// and the local ACK timeout set when --qp-timeout gave one (else rdma_cm chooses).
void ready_cm_stream(QpStream& s, bool receives) {
  if (receives) s.post_initial_receives();
  if (s.spec().qp_timeout) s.cm_id()->set_ack_timeout(static_cast<uint8_t>(*s.spec().qp_timeout));
}

rdma_conn_param conn_param(const QpStream& s, const std::string& token = {}) {
  rdma_conn_param p{};
  p.private_data = token.empty() ? nullptr : token.data();
  p.private_data_len = static_cast<uint8_t>(token.size());
  p.initiator_depth = static_cast<uint8_t>(s.rd_atomic());
  p.responder_resources = static_cast<uint8_t>(s.rd_atomic());
  p.retry_count = 7;
  p.rnr_retry_count = 7;
  return p;
}

// After rdma_cm failed on the client: when the server failed first (its endpoint could not be
// built, so it rejected the connection), its error on the control channel says why; raise
// that instead of the bare rejection. Returns when the server said nothing within a second.
void raise_peer_error(ControlChannel& control) {
  try {
    control.receive(std::chrono::milliseconds(1000), -1);
  } catch (const PeerError&) {
    throw;
  } catch (const Error&) {
    // Nothing (or nothing readable) from the server: the rdma_cm error stands.
  }
}

// The server's wait for a stream's connection request. The client may fail on its side first
// (building its endpoint, resolving the route): it then says so on the control channel, or
// closes it, and never connects. Either ends the wait at once, raising what the client said,
// instead of holding the server (and the client's next session, told "busy") for --timeout.
// On the server, the session's deadline and stop signal bound it too
// (ControlChannel::within_bounds).
void await_connect_request(CmEventChannel& listen_channel, ControlChannel& control,
                           std::chrono::milliseconds timeout) {
  if (control.within_bounds(timeout, [&](std::chrono::milliseconds t, int stop_fd) {
        return listen_channel.wait(t, "RDMA_CM_EVENT_CONNECT_REQUEST", control.socket().fd(),
                                   stop_fd);
      }))
    return;
  const auto said = control.receive();  // the client's error is raised here as a PeerError
  throw Error(ExitCode::kConnection, "rdma_cm: the client sent '" +
                                         peer_excerpt(said.value("type", std::string("?"))) +
                                         "' instead of connecting");
}

// The next connection request that carries `token`, within `timeout`; a request without it
// is rejected (and logged nowhere: the client hears of it) and the wait goes on.
CmEventChannel::Event bound_connect_request(CmEventChannel& listen_channel, ControlChannel& control,
                                            const std::string& token,
                                            std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::max(
        std::chrono::milliseconds(1),
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
    await_connect_request(listen_channel, control, left);
    auto request = control.within_bounds(left, [&](std::chrono::milliseconds t, int stop_fd) {
      return listen_channel.expect(RDMA_CM_EVENT_CONNECT_REQUEST, t, stop_fd);
    });
    if (request.private_data.substr(0, token.size()) == token) return request;
    CmEventChannel discard;
    CmId(request.id, discard).reject();  // and destroyed
  }
}

// rdma_cm's last step on both sides: each stream's buffer, the client's first.
void exchange_buffers(ControlChannel& control, Endpoint& ep, bool client) {
  if (client)
    for (auto& st : ep.streams()) control.send(buf_message(st->local_buffer()));
  for (auto& st : ep.streams())
    st->connect_remote(buf_from(control.receive("buf"), ep.spec().size));
  if (!client)
    for (auto& st : ep.streams()) control.send(buf_message(st->local_buffer()));
}

// iWARP's connections are TCP's: the driver binds a TCP socket to the port rdma_cm chose for an
// id, and rdma_cm chooses from its own port space, blind to TCP's. A port a TCP socket holds (a
// listener, or a socket bound without SO_REUSEADDR) would fail rdma_listen or rdma_connect with
// EADDRINUSE: such an id is dropped for a new one (with another port), up to kPortTries.
constexpr int kPortTries = 64;

Error ports_held(const std::string& where) {
  return Error(ExitCode::kConnection,
               "rdma_cm: each of the " + std::to_string(kPortTries) +
                   " local ports rdma_cm chose " + where +
                   " was held by a TCP socket (on iWARP rdma_cm's ports are TCP's): " +
                   "widen net.ipv4.ip_local_port_range or close the sockets that hold its ports");
}

// The client's id of one connection, resolved to the server's listener at `port`, on a local
// port the fabric can take.
std::unique_ptr<CmId> resolved_id(CmEventChannel& channel, const TestSpec& spec,
                                  const BootstrapOptions& options, uint16_t port) {
  for (int tries = 0; tries < kPortTries; ++tries) {
    auto id = std::make_unique<CmId>(channel, spec.transport->cm_port_space);
    // The server's id takes the traffic class from the connection request's path.
    if (spec.tclass) id->set_type_of_service(static_cast<uint8_t>(*spec.tclass));
    id->resolve(options.server_host, port, options.timeout, options.source_host);
    if (!id->local_port_held_by_tcp()) return id;
  }
  throw ports_held("to connect to " + options.server_host);
}

// The server's listener on `host`, on a port rdma_cm chose and the fabric could take.
std::unique_ptr<CmId> listening_id(CmEventChannel& channel, const TestSpec& spec,
                                   const std::string& host) {
  for (int tries = 0; tries < kPortTries; ++tries) {
    auto id = std::make_unique<CmId>(channel, spec.transport->cm_port_space);
    try {
      id->listen(host, 0);
      return id;
    } catch (const SystemError& e) {
      if (e.error_number() != EADDRINUSE) throw;
    }
  }
  throw ports_held("to listen on " + host);
}

// The device rdma_cm took is the one `option` named, or an error that says which it took.
void check_device(const CmId& id, const std::string& named, const std::string& option,
                  const std::string& how) {
  if (named.empty()) return;
  const std::string took = ibv_get_device_name(id.verbs()->device);
  if (took == named) return;
  throw Error(ExitCode::kNoDevice, option + " " + printable(named, Keep::kPrintableAscii, 64) +
                                       ": " + how + " through " + took +
                                       " (rdma_cm takes the device of the " +
                                       "route's local address): give an address that " + named +
                                       " routes, or use --cm oob");
}

}  // namespace

BootstrapOptions with_device_address(BootstrapOptions options) {
  if (options.local.device.empty() || !options.source_host.empty()) return options;
  const auto address = device_ipv4(describe_device(DeviceList().open(options.local.device)));
  if (!address) {
    const std::string device = printable(options.local.device, Keep::kPrintableAscii, 64);
    throw Error(ExitCode::kNoDevice,
                "-d " + device + ": rdma_cm connects from an IP address of the device, and no " +
                    "active port of " + device + " has one: give its netdev an address, or " +
                    "use --cm oob");
  }
  options.source_host = *address;
  return options;
}

std::unique_ptr<Endpoint> rdmacm_client(ControlChannel& control, const TestSpec& spec,
                                        const BootstrapOptions& options) {
  // Each setup's rdma_cm connections carry the token the server gave on the control channel,
  // as private data: its listener takes no connection request but this client's.
  const auto [port, token] = read_cm_listen(control.receive("cm_listen"));
  std::unique_ptr<Endpoint> ep;
  for (uint32_t i = 0; i < spec.qps; ++i) {
    StreamConnection c{std::make_unique<CmEventChannel>(), nullptr};
    c.id = resolved_id(*c.channel, spec, options, port);
    check_device(*c.id, options.local.device, "-d", "rdma_cm reached " + options.server_host);
    if (!ep) ep = std::make_unique<Endpoint>(*c.id, spec, Side::kClient);
    QpStream& s = ep->add_stream(std::move(c));
    ready_cm_stream(s, spec.client_receives());
    try {
      s.cm_id()->connect(conn_param(s, token), options.timeout);
    } catch (const Error&) {
      raise_peer_error(control);
      throw;
    }
  }
  exchange_buffers(control, *ep, true);
  return ep;
}

std::unique_ptr<Endpoint> rdmacm_server(ControlChannel& control, const TestSpec& spec,
                                        const BootstrapOptions& options) {
  CmEventChannel listen_channel;
  const auto listener = listening_id(listen_channel, spec, control.socket().local_address());
  const std::string token = new_challenge().substr(0, kCmTokenLength);
  control.send(cm_listen_message({listener->local_port(), token}));
  std::unique_ptr<Endpoint> ep;
  for (uint32_t i = 0; i < spec.qps; ++i) {
    const auto request = bound_connect_request(listen_channel, control, token, options.timeout);
    StreamConnection c{std::make_unique<CmEventChannel>(), nullptr};
    c.id = std::make_unique<CmId>(request.id, *c.channel);
    check_device(*c.id, options.local.device, "serve -d", "the client's connection arrived");
    if (!ep) ep = std::make_unique<Endpoint>(*c.id, spec, Side::kServer);
    QpStream& s = ep->add_stream(std::move(c));
    ready_cm_stream(s, spec.server_receives());
    control.within_bounds(options.timeout, [&](std::chrono::milliseconds t, int stop_fd) {
      s.cm_id()->accept(conn_param(s), t, stop_fd);
    });
  }
  exchange_buffers(control, *ep, false);
  return ep;
}

}  // namespace rdmabench
