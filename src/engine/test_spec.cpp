#include "engine/test_spec.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

#include "core/error.h"
#include "engine/spec_validation.h"
#include "net/message_fields.h"

namespace rdmabench {

namespace {
template <typename E, size_t N>
std::optional<E> lookup(const std::pair<const char*, E> (&table)[N], const std::string& text) {
  for (const auto& [name, value] : table)
    if (text == name) return value;
  return std::nullopt;
}
template <typename E, size_t N>
std::string reverse(const std::pair<const char*, E> (&table)[N], E value) {
  for (const auto& [name, v] : table)
    if (v == value) return name;
  return "?";
}

constexpr std::pair<const char*, Mode> kModes[] = {{"bw", Mode::kBandwidth},
                                                   {"lat", Mode::kLatency}};
constexpr std::pair<const char*, Bootstrap> kBootstraps[] = {{"rdmacm", Bootstrap::kRdmaCm},
                                                             {"oob", Bootstrap::kOob}};
}  // namespace

std::string to_string(Mode m) {
  return reverse(kModes, m);
}
std::string to_string(Bootstrap b) {
  return reverse(kBootstraps, b);
}
std::optional<Mode> parse_mode(const std::string& t) {
  return lookup(kModes, t);
}
std::optional<Bootstrap> parse_bootstrap(const std::string& t) {
  return lookup(kBootstraps, t);
}

namespace {
// What the name adds after the size: rate, scale-out, direction.
std::string name_suffix(const TestSpec& s) {
  return (s.rate > 0 ? "/rate:" + std::to_string(s.rate) : "") +
         (s.qps > 1 ? "/qps:" + std::to_string(s.qps) : "") +
         (s.threads > 1 ? "/threads:" + std::to_string(s.threads) : "") +
         (s.cq_per_qp ? "/cq-per-qp" : "") + (s.bidir ? "/bidir" : "");
}
}  // namespace

std::string TestSpec::name() const {
  return pattern.name() + "/" + to_string(mode) + "/" + cq.text() + "/" + std::to_string(size) +
         name_suffix(*this);
}

std::string TestSpec::table_name() const {
  return pattern.name() + "/" + to_string(mode) + "/" + cq.text() + name_suffix(*this);
}

bool TestSpec::client_receives() const {
  return server_receives() && (mode == Mode::kLatency || bidir);
}

namespace {
// An optional spec field as JSON: its value, or null when unset.
nlohmann::json or_null(const std::optional<uint32_t>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
}  // namespace

nlohmann::json to_json(const TestSpec& s) {
  nlohmann::json j = {{"pattern", s.pattern.name()},
                      {"mode", to_string(s.mode)},
                      {"cq", s.cq.text()},
                      {"size", s.size},
                      {"tx_depth", s.tx_depth},
                      {"rx_depth", s.rx_depth},
                      {"signal_every", s.signal_every},
                      {"poll_batch", s.poll_batch},
                      {"rate", s.rate},
                      {"qps", s.qps},
                      {"threads", s.threads},
                      {"cq_per_qp", s.cq_per_qp},
                      {"bidir", s.bidir},
                      {"verify", s.verify},
                      {"cm", to_string(s.bootstrap)},
                      {"mtu", s.mtu}};
  j["qp_timeout"] = or_null(s.qp_timeout);
  j["gid_index"] = or_null(s.gid_index);
  return j;
}

namespace {
template <typename E>
E enum_field(const nlohmann::json& j, const MessageContext& ctx, const std::string& key,
             std::optional<E> (*parse)(const std::string&), const std::string& choices) {
  const std::string text = string_field(j, ctx, key);
  const auto value = parse(text);
  if (!value) throw_bad_field(ctx, key, "'" + text.substr(0, 40) + "' is not one of " + choices);
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
  s.qps = unsigned_as<uint32_t>(j, ctx, "qps", 1, kMaxQps);
  s.threads = unsigned_as<uint32_t>(j, ctx, "threads", 1, kMaxThreads);
  s.cq_per_qp = bool_field(j, ctx, "cq_per_qp");
  s.bidir = bool_field(j, ctx, "bidir");
  s.verify = bool_field(j, ctx, "verify");
  s.mtu = unsigned_as<uint32_t>(j, ctx, "mtu", 0, kU32);
  s.qp_timeout = optional_u32(j, ctx, "qp_timeout");
  s.gid_index = optional_u32(j, ctx, "gid_index");
  validate_spec(s);
  return s;
}

std::optional<uint64_t> parse_size(const std::string& raw) {
  std::string text = raw;
  text.erase(std::remove_if(text.begin(), text.end(), ::isspace), text.end());
  if (text.empty()) return std::nullopt;
  uint64_t mult = 1;
  const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  if (last == 'K' || last == 'M' || last == 'G') {
    mult = last == 'K' ? 1ull << 10 : last == 'M' ? 1ull << 20 : 1ull << 30;
    text.pop_back();
  }
  if (text.empty() || !std::all_of(text.begin(), text.end(), ::isdigit) || text.size() > 12)
    return std::nullopt;
  const uint64_t value = std::stoull(text) * mult;
  if (value == 0) return std::nullopt;
  return value;
}

std::vector<uint64_t> parse_sizes(const std::string& text) {
  std::vector<uint64_t> out;
  std::stringstream items(text);
  std::string item;
  auto bad = [&](const std::string& why) {
    return Error(ExitCode::kUsage,
                 "--sizes '" + text + "': " + why + " (examples: 2:8M, 4096, 2,64K,1M)");
  };
  while (std::getline(items, item, ',')) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) {
      auto v = parse_size(item);
      if (!v) throw bad("'" + item + "' is not a size");
      out.push_back(*v);
      continue;
    }
    auto lo = parse_size(item.substr(0, colon));
    auto hi = parse_size(item.substr(colon + 1));
    if (!lo || !hi) throw bad("'" + item + "' is not a range");
    if (*lo > *hi) throw bad("range '" + item + "' goes down");
    for (uint64_t v = *lo; v <= *hi; v *= 2) out.push_back(v);
  }
  if (out.empty()) throw bad("no sizes");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace rdmabench
