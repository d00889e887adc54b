#include "messages/spec_json.h"

#include <limits>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "core/printable_text.h"
#include "cq/strategy.h"
#include "messages/message_fields.h"
#include "spec/spec_validation.h"

namespace rdmabench {

namespace {
// An optional spec field as JSON: its value, or null when unset.
nlohmann::json or_null(const std::optional<uint32_t>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
}  // namespace

nlohmann::json to_json(const TestSpec& s) {
  nlohmann::json j = {{"transport", s.transport.name()},
                      {"pattern", s.pattern.name()},
                      {"mode", to_string(s.mode)},
                      {"cq", s.cq.text()},
                      {"size", s.size},
                      {"tx_depth", s.tx_depth},
                      {"rx_depth", s.rx_depth},
                      {"signal_every", s.signal_every},
                      {"poll_batch", s.poll_batch},
                      {"rate", s.rate},
                      {"arrivals", to_string(s.arrivals)},
                      {"qps", s.qps},
                      {"threads", s.threads},
                      {"cq_per_qp", s.cq_per_qp},
                      {"bidir", s.bidir},
                      {"verify", s.verify},
                      {"validate", s.validate},
                      {"cm", to_string(s.bootstrap)},
                      {"mtu", s.mtu}};
  j["qp_timeout"] = or_null(s.qp_timeout);
  j["outs"] = or_null(s.outs);
  j["post_list"] = s.post_list;
  j["inline"] = or_null(s.inline_size);
  j["srq"] = s.srq;
  j["tclass"] = or_null(s.tclass);
  j["sl"] = or_null(s.sl);
  j["hugepages"] = s.hugepages;
  j["post_api"] = to_string(s.post_api);
  return j;
}

namespace {
template <typename E>
E enum_field(const nlohmann::json& j, const MessageContext& ctx, const std::string& key,
             std::optional<E> (*parse)(const std::string&), const std::string& choices) {
  const std::string text = string_field(j, ctx, key);
  const auto value = parse(text);
  if (!value) throw_bad_field(ctx, key, "'" + peer_excerpt(text) + "' is not one of " + choices);
  return *value;
}
// An optional spec field, which must be present: null (unset) or an unsigned 32-bit value.
std::optional<uint32_t> optional_u32(const nlohmann::json& j, const MessageContext& ctx,
                                     const std::string& key) {
  if (field(j, ctx, key).is_null()) return std::nullopt;
  return unsigned_as<uint32_t>(j, ctx, key, 0, std::numeric_limits<uint32_t>::max());
}
CqChoice cq_field(const nlohmann::json& j, const MessageContext& ctx) {
  const std::string text = string_field(j, ctx, "cq");
  try {
    return parse_cq_choice(text);
  } catch (const Error& e) {
    throw_bad_field(ctx, "cq", e.what());
  }
}
}  // namespace

TestSpec spec_from_json(const nlohmann::json& j) {
  const MessageContext ctx{"spec", ExitCode::kUsage};
  constexpr uint32_t kU32 = std::numeric_limits<uint32_t>::max();
  TestSpec s;
  s.transport = enum_field(j, ctx, "transport", parse_transport, transport_names());
  s.pattern = enum_field(j, ctx, "pattern", parse_pattern, pattern_names());
  s.mode = enum_field(j, ctx, "mode", parse_mode, "bw, lat");
  s.cq = cq_field(j, ctx);
  s.bootstrap = enum_field(j, ctx, "cm", parse_bootstrap, "rdmacm, oob");
  s.size = unsigned_as<uint64_t>(j, ctx, "size");
  s.tx_depth = unsigned_as<uint32_t>(j, ctx, "tx_depth", 0, kU32);
  s.rx_depth = unsigned_as<uint32_t>(j, ctx, "rx_depth", 0, kU32);
  s.signal_every = unsigned_as<uint32_t>(j, ctx, "signal_every", 0, kU32);
  s.poll_batch = unsigned_as<uint32_t>(j, ctx, "poll_batch", 0, kU32);
  s.rate = unsigned_as<uint64_t>(j, ctx, "rate");
  // Absent from the specs of peers before open-loop runs (issue 68): fixed, as theirs were.
  if (j.contains("arrivals"))
    s.arrivals = enum_field(j, ctx, "arrivals", parse_arrivals, "fixed, poisson");
  s.qps = unsigned_as<uint32_t>(j, ctx, "qps", 1, kMaxQps);
  s.threads = unsigned_as<uint32_t>(j, ctx, "threads", 1, kMaxThreads);
  s.cq_per_qp = bool_field(j, ctx, "cq_per_qp");
  s.bidir = bool_field(j, ctx, "bidir");
  s.verify = bool_field(j, ctx, "verify");
  s.validate = bool_field(j, ctx, "validate");
  s.mtu = unsigned_as<uint32_t>(j, ctx, "mtu", 0, kU32);
  s.qp_timeout = optional_u32(j, ctx, "qp_timeout");
  s.outs = optional_u32(j, ctx, "outs");
  s.post_list = unsigned_as<uint32_t>(j, ctx, "post_list", 1, kMaxPostList);
  s.inline_size = optional_u32(j, ctx, "inline");
  s.srq = bool_field(j, ctx, "srq");
  s.tclass = optional_u32(j, ctx, "tclass");
  s.sl = optional_u32(j, ctx, "sl");
  s.hugepages = bool_field(j, ctx, "hugepages");
  s.post_api = enum_field(j, ctx, "post_api", parse_post_api, "auto, ex, classic");
  validate_spec(s);
  return s;
}

}  // namespace rdmabench
