#include "bootstrap/oob_bootstrap.h"

#include <algorithm>
#include <random>

#include "bootstrap/datagram_proof.h"
#include "core/gid.h"
#include "messages/control_messages.h"

namespace rdmabench {

namespace {

uint32_t random_psn() {
  std::random_device rd;
  return rd() & 0xffffff;
}

// Everything this side tells the peer in the out-of-band exchange, per stream.
struct OobLocal {
  QpAddress address;
  QpPath path;
  ibv_mtu active_mtu;
};

// This side's own GID index: where given, the option that gave it (a server's refusal goes to
// the client, which must hear whose option it was).
struct GidChoice {
  std::optional<uint32_t> index;
  const char* option;  // "--gid-index" or "serve --gid-index"
};

// The port's path for every stream: port state, GRH, the GID index (this side's own, given or
// the device's default).
OobLocal prepare_path(Endpoint& ep, const GidChoice& gid_choice) {
  const TestSpec& spec = ep.spec();
  OobLocal local{};
  const ibv_port_attr port = ep.context().query_port(ep.port());
  if (port.state != IBV_PORT_ACTIVE)
    throw Error(ExitCode::kNoDevice, ep.context().device_name() + " port " +
                                         std::to_string(ep.port()) + " is not ACTIVE");
  local.path.port = ep.port();
  local.path.use_grh = port.link_layer == IBV_LINK_LAYER_ETHERNET;
  local.path.rd_atomic = static_cast<uint8_t>(ep.rd_atomic());
  local.path.ack_timeout = static_cast<uint8_t>(spec.oob_qp_timeout());
  local.path.traffic_class = static_cast<uint8_t>(spec.tclass.value_or(0));
  local.path.service_level = static_cast<uint8_t>(spec.sl.value_or(0));
  if (gid_choice.index) {
    local.path.sgid_index = *gid_choice.index;
  } else {
    const std::vector<GidEntry> mine = ep.context().query_gids(ep.port());
    auto chosen = choose_default_gid(mine, !local.path.use_grh);
    if (!chosen && local.path.use_grh)
      throw Error(ExitCode::kNoDevice,
                  ep.context().device_name() + " has no usable GID (RoCE needs one)");
    local.path.sgid_index = chosen.value_or(0);
  }
  GidEntry gid;
  try {
    gid = ep.context().query_gid(ep.port(), local.path.sgid_index);
  } catch (const VerbsError& e) {
    throw Error(ExitCode::kUsage, std::string(gid_choice.option) + " " +
                                      std::to_string(local.path.sgid_index) + " is not valid on " +
                                      ep.context().device_name() + ": " + e.what() +
                                      " (see rdmabench devices)");
  }
  local.address = {0, 0, port.lid, gid.raw};
  local.active_mtu = port.active_mtu;
  return local;
}

// Each stream's own part (QP number, PSN), its QP moved to INIT and, where this side
// receives, its receive queue filled.
std::vector<OobLocal> prepare_streams(Endpoint& ep, bool receives, const GidChoice& gid_choice) {
  const OobLocal path = prepare_path(ep, gid_choice);
  std::vector<OobLocal> locals;
  for (auto& s : ep.streams()) {
    OobLocal local = path;
    local.address.qp_number = s->qp().number();
    local.address.psn = random_psn();
    s->qp().to_init(ep.port(), s->access_flags());
    if (receives) s->post_initial_receives();
    locals.push_back(local);
  }
  return locals;
}

// The "oob" message of stream `s`, offering `mtu`.
nlohmann::json oob_of(const OobLocal& local, ibv_mtu mtu, QpStream& s) {
  return oob_message({local.address, mtu, s.rd_atomic(), s.local_buffer()});
}

void connect_qp(QpStream& s, OobLocal& local, const OobPeer& peer, ibv_mtu mtu) {
  local.path.mtu = mtu;
  local.path.rd_atomic =
      static_cast<uint8_t>(std::min<uint32_t>(local.path.rd_atomic, peer.rd_atomic));
  s.set_rd_atomic(local.path.rd_atomic);
  s.qp().to_rtr(peer.address, local.path);
  s.qp().to_rts(local.address.psn, local.path);
  if (!s.spec().transport->connected) s.connect_datagram(peer.address, local.path);
  s.connect_remote(peer.buffer);
}

}  // namespace

std::unique_ptr<Endpoint> oob_client(ControlChannel& control, const TestSpec& spec,
                                     const BootstrapOptions& options) {
  auto ep =
      std::make_unique<Endpoint>(options.local.device, options.local.ib_port, spec, Side::kClient);
  std::vector<OobLocal> locals =
      prepare_streams(*ep, spec.client_receives(), {options.local.gid_index, "--gid-index"});
  for (size_t i = 0; i < locals.size(); ++i)
    control.send(oob_of(locals[i], locals[i].active_mtu, ep->stream(i)));
  std::vector<QpAddress> named;
  for (size_t i = 0; i < locals.size(); ++i) {
    const OobPeer peer = read_oob_peer(control.receive("oob"), spec.size);
    connect_qp(ep->stream(i), locals[i], peer, peer.mtu);
    named.push_back(peer.address);
  }
  if (!spec.transport->connected)
    prove_datagram_peers(control, *ep, Side::kClient, named, options.timeout);
  return ep;
}

std::unique_ptr<Endpoint> oob_server(ControlChannel& control, const TestSpec& spec,
                                     const BootstrapOptions& options) {
  // The first message is read before the endpoint is built, and judged after: the spec is
  // checked against the device first, so a spec the device cannot take is what the client
  // hears (exit 2), not what its message says of a buffer for it.
  const nlohmann::json first = control.receive("oob");
  auto ep =
      std::make_unique<Endpoint>(options.local.device, options.local.ib_port, spec, Side::kServer);
  std::vector<OobLocal> locals =
      prepare_streams(*ep, spec.server_receives(), {options.local.gid_index, "serve --gid-index"});
  std::vector<QpAddress> named;
  for (size_t i = 0; i < locals.size(); ++i) {
    const OobPeer peer = read_oob_peer(i == 0 ? first : control.receive("oob"), spec.size);
    ibv_mtu mtu = std::min(locals[i].active_mtu, peer.mtu);
    if (spec.mtu != 0) mtu = std::min(mtu, mtu_from_bytes(spec.mtu));
    connect_qp(ep->stream(i), locals[i], peer, mtu);
    control.send(oob_of(locals[i], mtu, ep->stream(i)));
    named.push_back(peer.address);
  }
  if (!spec.transport->connected)
    prove_datagram_peers(control, *ep, Side::kServer, named, options.timeout);
  return ep;
}

}  // namespace rdmabench
