#include "engine/bootstrap.h"

#include <algorithm>
#include <random>

#include "core/gid.h"
#include "net/message_fields.h"

namespace rdmabench {

namespace {

nlohmann::json buffer_json(const RemoteBuffer& b) {
  return {{"addr", b.address}, {"rkey", b.rkey}, {"len", b.length}};
}

// What the peer sends is checked field by field (any program may be on the other end).
const MessageContext kOob{"oob"};
const MessageContext kBuf{"buf.buf"};

// The peer's buffer, which must hold a whole message of `size` bytes.
RemoteBuffer buffer_from(const nlohmann::json& message, const MessageContext& ctx, uint64_t size) {
  const nlohmann::json& j = field(message, ctx, "buf");
  return {unsigned_as<uint64_t>(j, kBuf, "addr"), unsigned_as<uint32_t>(j, kBuf, "rkey"),
          unsigned_as<uint64_t>(j, kBuf, "len", size)};
}

// The peer's path MTU, as the ibv_mtu enum value it sends (IBV_MTU_256 .. IBV_MTU_4096).
ibv_mtu peer_mtu(const nlohmann::json& m) {
  return static_cast<ibv_mtu>(unsigned_as<uint32_t>(m, kOob, "mtu", IBV_MTU_256, IBV_MTU_4096));
}

uint32_t random_psn() {
  std::random_device rd;
  return rd() & 0xffffff;
}

// Everything this side tells the peer in the out-of-band exchange.
struct OobLocal {
  QpAddress address;
  QpPath path;
  ibv_mtu active_mtu;
};

OobLocal prepare_oob(Endpoint& ep) {
  const TestSpec& spec = ep.spec();
  OobLocal local{};
  const ibv_port_attr port = ep.context().query_port(ep.port());
  if (port.state != IBV_PORT_ACTIVE)
    throw Error(ExitCode::kNoDevice, ep.context().device_name() + " port " +
                                         std::to_string(ep.port()) + " is not ACTIVE");
  local.path.port = ep.port();
  local.path.use_grh = port.link_layer == IBV_LINK_LAYER_ETHERNET;
  local.path.rd_atomic = static_cast<uint8_t>(ep.rd_atomic);
  if (spec.gid_index) {
    local.path.sgid_index = *spec.gid_index;
  } else {
    const auto gids = ep.context().query_gids();
    std::vector<GidEntry> mine;
    std::copy_if(gids.begin(), gids.end(), std::back_inserter(mine),
                 [&](const GidEntry& g) { return g.port == ep.port(); });
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
    throw Error(ExitCode::kUsage, "--gid-index " + std::to_string(local.path.sgid_index) +
                                      " is not valid on " + ep.context().device_name() + ": " +
                                      e.what() + " (see rdmabench devices)");
  }
  local.address = {ep.qp().number(), random_psn(), port.lid, gid.raw};
  local.active_mtu = port.active_mtu;
  ep.qp().to_init(ep.port());
  return local;
}

nlohmann::json oob_message(const OobLocal& local, ibv_mtu mtu, Endpoint& ep) {
  return {{"type", "oob"},
          {"qpn", local.address.qp_number},
          {"psn", local.address.psn},
          {"lid", local.address.lid},
          {"gid", format_gid(local.address.gid)},
          {"mtu", static_cast<int>(mtu)},
          {"rd_atomic", ep.rd_atomic},
          {"buf", buffer_json(ep.local_buffer())}};
}

QpAddress peer_address(const nlohmann::json& m) {
  QpAddress a;
  a.qp_number = unsigned_as<uint32_t>(m, kOob, "qpn", 1, 0xffffff);
  a.psn = unsigned_as<uint32_t>(m, kOob, "psn", 0, 0xffffff);
  a.lid = unsigned_as<uint16_t>(m, kOob, "lid");
  auto gid = parse_gid(string_field(m, kOob, "gid"));
  if (!gid) throw Error(ExitCode::kConnection, "peer sent a malformed GID");
  a.gid = *gid;
  return a;
}

void connect_qp(Endpoint& ep, OobLocal& local, const nlohmann::json& peer, ibv_mtu mtu) {
  local.path.mtu = mtu;
  local.path.rd_atomic = static_cast<uint8_t>(std::min<uint32_t>(
      local.path.rd_atomic, unsigned_as<uint32_t>(peer, kOob, "rd_atomic", 1, 255)));
  ep.rd_atomic = local.path.rd_atomic;
  ep.qp().to_rtr(peer_address(peer), local.path);
  ep.qp().to_rts(local.address.psn, local.path);
  ep.remote = buffer_from(peer, kOob, ep.spec().size);
}

rdma_conn_param conn_param(const Endpoint& ep) {
  rdma_conn_param p{};
  p.initiator_depth = static_cast<uint8_t>(ep.rd_atomic);
  p.responder_resources = static_cast<uint8_t>(ep.rd_atomic);
  p.retry_count = 7;
  p.rnr_retry_count = 7;
  return p;
}

}  // namespace

ibv_mtu mtu_from_bytes(uint32_t bytes) {
  switch (bytes) {
    case 256:
      return IBV_MTU_256;
    case 512:
      return IBV_MTU_512;
    case 1024:
      return IBV_MTU_1024;
    case 2048:
      return IBV_MTU_2048;
    case 4096:
      return IBV_MTU_4096;
    default:
      throw Error(ExitCode::kUsage,
                  "--mtu must be 256, 512, 1024, 2048 or 4096, not " + std::to_string(bytes));
  }
}

namespace {
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
}  // namespace

std::unique_ptr<Endpoint> client_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options) {
  if (spec.bootstrap == Bootstrap::kOob) {
    auto ep = std::make_unique<Endpoint>(options.device, spec, Side::kClient);
    OobLocal local = prepare_oob(*ep);
    if (spec.client_receives()) ep->post_initial_receives();
    control.send(oob_message(local, local.active_mtu, *ep));
    const auto reply = control.receive("oob");
    connect_qp(*ep, local, reply, peer_mtu(reply));
    return ep;
  }
  const auto listen = control.receive("cm_listen");
  auto channel = std::make_unique<CmEventChannel>();
  auto id = std::make_unique<CmId>(*channel);
  id->resolve(options.server_host, unsigned_as<uint16_t>(listen, {"cm_listen"}, "port", 1),
              options.timeout);
  auto ep = std::make_unique<Endpoint>(std::move(channel), std::move(id), spec, Side::kClient);
  if (spec.client_receives()) ep->post_initial_receives();
  try {
    ep->cm_id()->connect(conn_param(*ep), options.timeout);
  } catch (const Error&) {
    raise_peer_error(control);
    throw;
  }
  control.send({{"type", "buf"}, {"buf", buffer_json(ep->local_buffer())}});
  ep->remote = buffer_from(control.receive("buf"), {"buf"}, spec.size);
  return ep;
}

std::unique_ptr<Endpoint> server_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options) {
  if (spec.bootstrap == Bootstrap::kOob) {
    const auto peer = control.receive("oob");
    auto ep = std::make_unique<Endpoint>(options.device, spec, Side::kServer);
    OobLocal local = prepare_oob(*ep);
    if (spec.server_receives()) ep->post_initial_receives();
    ibv_mtu mtu = std::min(local.active_mtu, peer_mtu(peer));
    if (spec.mtu != 0) mtu = std::min(mtu, mtu_from_bytes(spec.mtu));
    connect_qp(*ep, local, peer, mtu);
    control.send(oob_message(local, mtu, *ep));
    return ep;
  }
  CmEventChannel listen_channel;
  CmId listener(listen_channel);
  listener.listen(control.socket().local_address(), 0);
  control.send({{"type", "cm_listen"}, {"port", listener.local_port()}});
  const auto request = listen_channel.expect(RDMA_CM_EVENT_CONNECT_REQUEST, options.timeout);
  auto channel = std::make_unique<CmEventChannel>();
  auto id = std::make_unique<CmId>(request.id, *channel);
  auto ep = std::make_unique<Endpoint>(std::move(channel), std::move(id), spec, Side::kServer);
  if (spec.server_receives()) ep->post_initial_receives();
  ep->cm_id()->accept(conn_param(*ep), options.timeout);
  ep->remote = buffer_from(control.receive("buf"), {"buf"}, spec.size);
  control.send({{"type", "buf"}, {"buf", buffer_json(ep->local_buffer())}});
  return ep;
}

}  // namespace rdmabench
