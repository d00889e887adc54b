#include "messages/control_messages.h"

#include "core/error.h"
#include "core/fabric.h"
#include "core/gid.h"
#include "core/post_api.h"
#include "core/version.h"
#include "host/kernel_tuning.h"
#include "messages/message_fields.h"
#include "messages/peer_buffer.h"
#include "messages/protocol_version.h"
#include "messages/side_report_fields.h"
#include "messages/spec_json.h"
#include "spec/spec_validation.h"

namespace rdmabench {

namespace {
nlohmann::json of_type(const char* type) {
  return {{"type", type}};
}

// How long a peer's texts may be: a name (a host, a kernel, a device, a version), a reason or
// a description, a list of CPUs ("0,2,4,...": every CPU of a large host).
constexpr size_t kMaxNameText = 256;
constexpr size_t kMaxReasonText = 1024;
constexpr size_t kMaxCpuListText = 16384;
constexpr double kMaxLinkGbps = 1e6;
constexpr uint64_t kMaxGidIndex = 0xffff;
constexpr uint64_t kMaxNumaNode = 0xffff;

// A field that names one of a kind of value, read by its parser (parse_fabric, ...).
template <typename Parse>
auto named_field(const nlohmann::json& m, const MessageContext& ctx, const char* key, Parse parse) {
  const auto value = parse(text_field(m, ctx, key, kMaxNameText));
  if (!value) throw_bad_field(ctx, key, "names nothing this rdmabench knows");
  return *value;
}

// A fact the side may not know: null then.
template <typename Read>
auto unless_null(const nlohmann::json& m, const MessageContext& ctx, const char* key, Read read) {
  using Value = decltype(read());
  return null_field(m, ctx, key) ? std::optional<Value>() : std::optional<Value>(read());
}

// The server's kernel tuning words: an array of at most kMaxTuningWords, each one
// kernel_tuning_words could have said.
std::vector<std::string> read_kernel_tuning(const nlohmann::json& hello,
                                            const MessageContext& ctx) {
  const nlohmann::json& words = field(hello, ctx, "kernel_tuning");
  if (!words.is_array() || words.size() > kMaxTuningWords)
    throw_bad_field(ctx, "kernel_tuning",
                    "is not an array of at most " + std::to_string(kMaxTuningWords) + " words");
  std::vector<std::string> out;
  for (const nlohmann::json& word : words) {
    if (!word.is_string() || !is_kernel_tuning_word(word.get_ref<const std::string&>()))
      throw_bad_field(ctx, "kernel_tuning",
                      "holds something that is not a kernel tuning word (idle=poll, nosmt, ...)");
    out.push_back(word.get<std::string>());
  }
  return out;
}

PlacementFacts read_placement(const nlohmann::json& m, const MessageContext& ctx) {
  const auto node = [&](const char* key) {
    return unless_null(m, ctx, key, [&] {
      return static_cast<int>(unsigned_field(m, ctx, key, 0, kMaxNumaNode));
    });
  };
  const auto text = [&](const char* key) {
    return unless_null(m, ctx, key, [&] { return text_field(m, ctx, key, kMaxReasonText); });
  };
  return {.cpus = text_field(m, ctx, "cpus", kMaxCpuListText),
          .cpu_choice = text_field(m, ctx, "cpu_choice", kMaxReasonText),
          .numa_node = node("numa_node"),
          .memory_node = node("memory_node"),
          .pci = text("pci"),
          .pcie_link = text("pcie_link")};
}
}  // namespace

nlohmann::json client_hello() {
  return {{"type", "hello"}, {"protocol", kControlProtocolVersion}, {"version", kVersion}};
}

nlohmann::json server_hello_message(const ServerDetails& details) {
  return {{"type", "hello"},
          {"protocol", kControlProtocolVersion},
          {"version", details.version},
          {"hostname", details.hostname},
          {"kernel", details.kernel},
          {"rdma_core", details.rdma_core},
          {"timing", details.timing},
          {"kernel_tuning", details.kernel_tuning},
          {"cpus", details.cpus}};
}

ServerDetails read_server_hello(const nlohmann::json& hello) {
  const MessageContext ctx{"hello"};
  return {.version = text_field(hello, ctx, "version", kMaxNameText),
          .hostname = text_field(hello, ctx, "hostname", kMaxNameText),
          .kernel = text_field(hello, ctx, "kernel", kMaxNameText),
          .rdma_core = text_field(hello, ctx, "rdma_core", kMaxNameText),
          .timing = text_field(hello, ctx, "timing", kMaxReasonText),
          .kernel_tuning = read_kernel_tuning(hello, ctx),
          .cpus = text_field(hello, ctx, "cpus", kMaxCpuListText)};
}

nlohmann::json setup_message(const TestSpec& spec) {
  return {{"type", "setup"}, {"spec", to_json(spec)}};
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

nlohmann::json result_message(const ClientFigures& figures) {
  nlohmann::json j = {{"type", "result"},
                      {"msgs", figures.msgs},
                      {"bytes_per_second", figures.bytes_per_second},
                      {"msgs_per_second", figures.msgs_per_second}};
  if (figures.lat_p50_us) j["lat_p50_us"] = *figures.lat_p50_us;
  if (figures.lat_p99_us) j["lat_p99_us"] = *figures.lat_p99_us;
  return j;
}

ClientFigures read_result(const nlohmann::json& result) {
  const MessageContext ctx{"result"};
  ClientFigures f;
  f.msgs = unsigned_field(result, ctx, "msgs", 0, uint64_t{1} << 53);
  f.bytes_per_second = number_field(result, ctx, "bytes_per_second", 0, kMostFigure);
  f.msgs_per_second = number_field(result, ctx, "msgs_per_second", 0, kMostFigure);
  const bool lat = result.contains("lat_p50_us") || result.contains("lat_p99_us");
  if (lat) {  // both, or neither
    f.lat_p50_us = number_field(result, ctx, "lat_p50_us", 0, kMostFigure);
    f.lat_p99_us = number_field(result, ctx, "lat_p99_us", 0, kMostFigure);
  }
  return f;
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
nlohmann::json proved_message() {
  return of_type("proved");
}

nlohmann::json path_fields(const PathInUse& p) {
  return {{"device", p.device},
          {"fabric", to_string(p.fabric)},
          {"firmware", p.firmware},
          {"port", p.port},
          {"link_speed_gbps", p.link_speed_gbps},
          {"link_width", p.link_width},
          {"gid_index", p.gid_index},
          {"gid", format_gid(p.gid)},
          {"gid_type", to_string(p.gid_type)},
          {"mtu", p.mtu_bytes},
          {"qp_timeout", p.qp_timeout},
          {"outs", p.outs},
          {"inline", p.inline_bytes},
          {"srq", p.srq},
          {"post_api", to_string(p.post_api)},
          {"tclass", p.tclass},
          {"sl", p.sl},
          {"comp_vector", p.comp_vector},
          {"comp_vectors", p.comp_vectors},
          {"page_size", p.page_size}};
}

nlohmann::json placement_fields(const PlacementFacts& facts) {
  const auto or_null = [](const auto& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  return {{"cpus", facts.cpus},
          {"cpu_choice", facts.cpu_choice},
          {"numa_node", or_null(facts.numa_node)},
          {"memory_node", or_null(facts.memory_node)},
          {"pci", or_null(facts.pci)},
          {"pcie_link", or_null(facts.pcie_link)}};
}

nlohmann::json path_reply(const ServerPath& server) {
  nlohmann::json reply = path_fields(server.path);
  reply.update(placement_fields(server.placement));
  reply["type"] = "path";
  return reply;
}

ServerPath read_path_reply(const nlohmann::json& m) {
  const MessageContext ctx{"path"};
  PathInUse p;
  p.device = text_field(m, ctx, "device", kMaxNameText);
  p.fabric = named_field(m, ctx, "fabric", parse_fabric);
  p.firmware = text_field(m, ctx, "firmware", kMaxNameText);
  p.port = unsigned_as<uint8_t>(m, ctx, "port", 1);
  p.link_speed_gbps = number_field(m, ctx, "link_speed_gbps", 0, kMaxLinkGbps);
  p.link_width = text_field(m, ctx, "link_width", kMaxNameText);
  p.gid_index = unsigned_as<uint32_t>(m, ctx, "gid_index", 0, kMaxGidIndex);
  p.gid = named_field(m, ctx, "gid", parse_gid);
  p.gid_type = named_field(m, ctx, "gid_type", parse_gid_type);
  p.mtu_bytes = unsigned_as<uint32_t>(m, ctx, "mtu", 256, 4096);
  p.qp_timeout = unsigned_as<uint8_t>(m, ctx, "qp_timeout", 0, 31);
  p.outs = unsigned_as<uint8_t>(m, ctx, "outs");
  p.inline_bytes = unsigned_as<uint32_t>(m, ctx, "inline");
  p.srq = bool_field(m, ctx, "srq");
  p.post_api = named_field(m, ctx, "post_api", parse_post_api);
  p.tclass = unsigned_as<uint8_t>(m, ctx, "tclass");
  p.sl = unsigned_as<uint8_t>(m, ctx, "sl", 0, 15);
  p.comp_vector = unsigned_as<uint32_t>(m, ctx, "comp_vector");
  p.comp_vectors = unsigned_as<uint32_t>(m, ctx, "comp_vectors");
  p.page_size = unsigned_as<uint64_t>(m, ctx, "page_size", 1);
  return {p, read_placement(m, ctx)};
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
