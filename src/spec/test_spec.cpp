#include "spec/test_spec.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

#include "core/comma_list.h"
#include "core/error.h"
#include "spec/spec_validation.h"

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
  return (s.transport != default_transport() ? "/" + s.transport.name() : "") +
         (s.rate > 0 ? "/rate:" + std::to_string(s.rate) : "") +
         (s.arrivals != Arrivals::kFixed ? "/arrivals:" + to_string(s.arrivals) : "") +
         (s.qps > 1 ? "/qps:" + std::to_string(s.qps) : "") +
         (s.threads > 1 ? "/threads:" + std::to_string(s.threads) : "") +
         (s.cq_per_qp ? "/cq-per-qp" : "") + (s.bidir ? "/bidir" : "") +
         (s.outs ? "/outs:" + std::to_string(*s.outs) : "") +
         (s.post_list > 1 ? "/post_list:" + std::to_string(s.post_list) : "") +
         (s.inline_size ? "/inline:" + std::to_string(*s.inline_size) : "") +
         (s.srq ? "/srq" : "") + (s.tclass ? "/tclass:" + std::to_string(*s.tclass) : "") +
         (s.sl ? "/sl:" + std::to_string(*s.sl) : "") + (s.hugepages ? "/hugepages" : "") +
         (s.post_api != PostApi::kAuto ? "/post_api:" + to_string(s.post_api) : "");
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

std::optional<uint64_t> parse_size(const std::string& raw) {
  std::string text = raw;
  text.erase(std::remove_if(text.begin(), text.end(), ::isspace), text.end());
  if (text.empty()) return std::nullopt;
  // 64KiB is 64K (K, M and G are powers of 1024 here).
  const bool binary_unit =
      text.size() > 3 && std::string("KMGkmg").find(text[text.size() - 3]) != std::string::npos;
  if (binary_unit && (text.ends_with("iB") || text.ends_with("ib") || text.ends_with("IB")))
    text.erase(text.size() - 2);
  uint64_t mult = 1;
  const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  if (last == 'K' || last == 'M' || last == 'G') {
    mult = last == 'K' ? 1ull << 10 : last == 'M' ? 1ull << 20 : 1ull << 30;
    text.pop_back();
  }
  if (text.empty() || !std::all_of(text.begin(), text.end(), ::isdigit) || text.size() > 12)
    return std::nullopt;
  if (std::stoull(text) > std::numeric_limits<uint64_t>::max() / mult) return std::nullopt;
  const uint64_t value = std::stoull(text) * mult;
  if (value == 0) return std::nullopt;
  return value;
}

namespace {
// Digits, not all zero, with an optional K, M or G: a size in form that parse_size refused
// only for its value.
bool written_like_a_size(const std::string& item) {
  const size_t digits = item.find_first_not_of("0123456789");
  if (digits == 0 || item.substr(0, digits).find_first_not_of('0') == std::string::npos)
    return false;
  return digits == std::string::npos ||
         (digits + 1 == item.size() &&
          std::string("KMGkmg").find(item.back()) != std::string::npos);
}

// "64KB", "1mb": a decimal unit's spelling, which a size here does not take.
bool written_in_decimal_units(const std::string& text) {
  for (size_t at = text.find_first_of("bB"); at != std::string::npos;
       at = text.find_first_of("bB", at + 1))
    if (at > 0 && std::string("KMGkmg").find(text[at - 1]) != std::string::npos) return true;
  return false;
}

// Why `item` is not a size: zero, too large, or not written as one.
std::string not_a_size(const std::string& item) {
  if (!item.empty() && item.find_first_not_of('0') == std::string::npos)
    return "'" + item + "' is no size: a size is at least 1 byte";
  return "'" + item + "' is " + (written_like_a_size(item) ? "too large" : "not a size");
}

constexpr const char* kDecimalUnits =
    "K, M and G are KiB, MiB and GiB (powers of 1024): write 64K or 64KiB, not 64KB";
}  // namespace

uint64_t parse_one_size(const std::string& text, std::string_view option,
                        std::string_view examples) {
  auto bad = [&](const std::string& why) {
    return Error(ExitCode::kUsage, std::string(option) + " '" + text + "': " + why +
                                       " (examples: " + std::string(examples) + ")");
  };
  if (written_in_decimal_units(text)) throw bad(kDecimalUnits);
  const auto v = parse_size(text);
  if (!v) throw bad(not_a_size(text));
  return *v;
}

std::vector<uint64_t> parse_sizes(const std::string& text, std::string_view option) {
  std::vector<uint64_t> out;
  auto bad = [&](const std::string& why) {
    return Error(ExitCode::kUsage, std::string(option) + " '" + text + "': " + why +
                                       " (examples: 2:8M, 4096, 2,64K,1M)");
  };
  if (written_in_decimal_units(text)) throw bad(kDecimalUnits);
  for (const std::string& item : split_comma_list(text)) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) {
      auto v = parse_size(item);
      if (!v) throw bad(not_a_size(item));
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
