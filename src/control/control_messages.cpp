#include "control/control_messages.h"

#include "control/key_handshake.h"
#include "control/message_fields.h"
#include "control/peer_buffer.h"
#include "control/protocol_version.h"
#include "control/side_report_fields.h"
#include "control/spec_json.h"
#include "core/error.h"
#include "core/gid.h"
#include "core/version.h"
#include "spec/spec_validation.h"

namespace rdmabench {

namespace {
nlohmann::json of_type(const char* type) {
  return {{"type", type}};
}
}  // namespace

nlohmann::json client_hello(const std::string& nonce) {
  return {{"type", "hello"},
          {"protocol", kControlProtocolVersion},
          {"version", kVersion},
          {"nonce", nonce}};
}

nlohmann::json server_hello_message(nlohmann::json details) {
  details["type"] = "hello";
  details["protocol"] = kControlProtocolVersion;
  details["version"] = kVersion;
  return details;
}

nlohmann::json keyed_server_hello(const std::string& version, const std::string& challenge,
                                  const std::string& proof) {
  return {{"type", "hello"},
          {"protocol", kControlProtocolVersion},
          {"version", version},
          {"auth", {{"method", kAuthMethod}, {"challenge", challenge}, {"proof", proof}}}};
}

nlohmann::json auth_response(const std::string& proof) {
  return {{"type", "auth"}, {"response", proof}};
}

nlohmann::json auth_accepted(const nlohmann::json& hello) {
  return {{"type", "auth"}, {"ok", true}, {"hello", hello}};
}

nlohmann::json setup_message(const TestSpec& spec) {
  nlohmann::json shared = to_json(spec);
  // The GID index is each side's own choice (oob_bootstrap: BootstrapOptions::gid_index): the
  // client's is never sent for the server to apply, which a server before that did.
  shared["gid_index"] = nullptr;
  return {{"type", "setup"}, {"spec", shared}};
}

nlohmann::json run_message(const RunOrder& order) {
  return {{"type", "run"},
          {"iters", order.length.iterations},
          {"duration_ms", order.length.duration_ns / 1'000'000},
          {"margin_ms", order.length.margin_ns / 1'000'000},
          {"check", order.check},
          {"counters", order.device_counters}};
}

RunLength run_length_from(const nlohmann::json& run) {
  const MessageContext ctx{"run"};
  RunLength length;
  length.iterations = unsigned_as<uint64_t>(run, ctx, "iters", 1, kMaxIterations);
  length.duration_ns =
      unsigned_as<uint64_t>(run, ctx, "duration_ms", 0, kMaxDurationMs) * 1'000'000;
  length.margin_ns = unsigned_as<uint64_t>(run, ctx, "margin_ms", 0, kMaxMarginMs) * 1'000'000;
  return length;
}

RunOrder run_order_from(const nlohmann::json& run) {
  return {run_length_from(run), bool_field(run, {"run"}, "check"),
          bool_field(run, {"run"}, "counters")};
}

nlohmann::json ready_message() {
  return of_type("ready");
}
nlohmann::json finished_message() {
  return of_type("finished");
}
nlohmann::json path_request() {
  return of_type("path");
}
nlohmann::json teardown_message() {
  return of_type("teardown");
}
nlohmann::json bye_message() {
  return of_type("bye");
}

nlohmann::json path_reply(nlohmann::json path) {
  path["type"] = "path";
  return path;
}

nlohmann::json done_message(const SideReport& report) {
  nlohmann::json done = of_type("done");
  add_to_message(done, report);
  return done;
}

nlohmann::json busy_message(const std::string& since) {
  return {{"type", "busy"}, {"serving", "another client"}, {"since", since}};
}

BusyServer busy_from(const nlohmann::json& message) {
  const auto text = [&](const char* key) {
    const auto it = message.find(key);
    return it != message.end() && it->is_string() ? it->get<std::string>() : std::string("?");
  };
  return {text("serving"), text("since")};
}

nlohmann::json error_message(int exit_code, const std::string& message) {
  return {{"type", "error"}, {"exit_code", exit_code}, {"message", message}};
}

nlohmann::json buf_message(const RemoteBuffer& buffer) {
  return {{"type", "buf"}, {"buf", buffer_json(buffer)}};
}

RemoteBuffer buf_from(const nlohmann::json& message, uint64_t size) {
  return buffer_from(message, {"buf"}, size);
}

nlohmann::json cm_listen_message(const CmListen& listen) {
  return {{"type", "cm_listen"}, {"port", listen.port}, {"token", listen.token}};
}

CmListen read_cm_listen(const nlohmann::json& message) {
  const MessageContext ctx{"cm_listen"};
  CmListen listen{unsigned_as<uint16_t>(message, ctx, "port", 1),
                  string_field(message, ctx, "token")};
  if (listen.token.size() != kCmTokenLength ||
      listen.token.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw_bad_field(ctx, "token", "must be " + std::to_string(kCmTokenLength) + " hex digits");
  return listen;
}

nlohmann::json oob_message(const OobPeer& stream) {
  return {{"type", "oob"},
          {"qpn", stream.address.qp_number},
          {"psn", stream.address.psn},
          {"lid", stream.address.lid},
          {"gid", format_gid(stream.address.gid)},
          {"mtu", static_cast<int>(stream.mtu)},
          {"rd_atomic", stream.rd_atomic},
          {"buf", buffer_json(stream.buffer)}};
}

OobPeer read_oob_peer(const nlohmann::json& m, uint64_t size) {
  const MessageContext oob{"oob"};
  OobPeer peer{};
  peer.address.qp_number = unsigned_as<uint32_t>(m, oob, "qpn", 1, 0xffffff);
  peer.address.psn = unsigned_as<uint32_t>(m, oob, "psn", 0, 0xffffff);
  peer.address.lid = unsigned_as<uint16_t>(m, oob, "lid");
  const auto gid = parse_gid(string_field(m, oob, "gid"));
  if (!gid) throw Error(ExitCode::kConnection, "peer sent a malformed GID");
  peer.address.gid = *gid;
  peer.mtu = static_cast<ibv_mtu>(unsigned_as<uint32_t>(m, oob, "mtu", IBV_MTU_256, IBV_MTU_4096));
  peer.rd_atomic = unsigned_as<uint32_t>(m, oob, "rd_atomic", 1, 255);
  peer.buffer = buffer_from(m, oob, size);
  return peer;
}

}  // namespace rdmabench
