#include "messages/side_report_fields.h"

#include "core/counter_name.h"
#include "core/printable_text.h"
#include "messages/message_fields.h"

namespace rdmabench {

namespace {

nlohmann::json figures_json(const SideFigures& f) {
  return {{"cpu_ns", f.cpu_ns},
          {"voluntary_switches", f.voluntary_switches},
          {"involuntary_switches", f.involuntary_switches},
          {"page_faults", f.page_faults},
          {"wakeups", f.wakeups},
          {"empty_polls", f.empty_polls}};
}

SideFigures figures_from(const nlohmann::json& j, const MessageContext& ctx) {
  SideFigures f;
  f.cpu_ns = unsigned_as<uint64_t>(j, ctx, "cpu_ns");
  f.voluntary_switches = unsigned_as<uint64_t>(j, ctx, "voluntary_switches");
  f.involuntary_switches = unsigned_as<uint64_t>(j, ctx, "involuntary_switches");
  f.page_faults = unsigned_as<uint64_t>(j, ctx, "page_faults");
  f.wakeups = unsigned_as<uint64_t>(j, ctx, "wakeups");
  f.empty_polls = unsigned_as<uint64_t>(j, ctx, "empty_polls");
  return f;
}

const nlohmann::json& array_of(const nlohmann::json& j, const MessageContext& ctx,
                               const std::string& key, size_t length) {
  const nlohmann::json& a = field(j, ctx, key);
  if (!a.is_array() || a.size() != length)
    throw_bad_field(ctx, key, "must be an array of " + std::to_string(length));
  return a;
}

std::vector<uint64_t> counts_of(const nlohmann::json& j, const MessageContext& ctx,
                                const std::string& key, size_t length) {
  std::vector<uint64_t> out;
  for (const auto& c : array_of(j, ctx, key, length)) {
    if (!c.is_number_unsigned()) throw_bad_field(ctx, key, "must hold unsigned integers");
    out.push_back(c.get<uint64_t>());
  }
  return out;
}

std::map<std::string, uint64_t> device_counters_from(const nlohmann::json& j,
                                                     const MessageContext& ctx) {
  const std::string key = "device_counters";
  if (!j.is_object() || j.size() > kMaxDeviceCounters)
    throw_bad_field(
        ctx, key,
        "must be an object of at most " + std::to_string(kMaxDeviceCounters) + " counters");
  std::map<std::string, uint64_t> out;
  for (const auto& [name, value] : j.items()) {
    if (!valid_counter_name(name))
      throw_bad_field(ctx, key, "holds a name that is not [a-z0-9_]{1,64}");
    if (!value.is_number_unsigned()) throw_bad_field(ctx, key, "must hold unsigned integers");
    out[name] = value.get<uint64_t>();
  }
  return out;
}

// At most kMaxDeviceEvents strings of printable text, each at most kMaxDeviceEventText long.
std::vector<std::string> device_events_from(const nlohmann::json& events,
                                            const MessageContext& ctx) {
  if (!events.is_array() || events.size() > kMaxDeviceEvents)
    throw_bad_field(ctx, "device_events",
                    "must be an array of at most " + std::to_string(kMaxDeviceEvents) + " texts");
  std::vector<std::string> out;
  for (const auto& e : events) {
    const std::string text = e.is_string() ? e.get<std::string>() : std::string("\x01");
    if (text.size() > kMaxDeviceEventText || !is_printable_ascii(text))
      throw_bad_field(ctx, "device_events",
                      "each must be printable text of at most " +
                          std::to_string(kMaxDeviceEventText) + " characters");
    out.push_back(text);
  }
  return out;
}

// The first bad message: a stream of the spec's QPs, and a message number from 1.
BadMessage bad_message_from(const nlohmann::json& message, const MessageContext& ctx,
                            uint32_t qps) {
  const nlohmann::json& bad = field(message, ctx, "first_bad");
  if (!bad.is_object()) throw_bad_field(ctx, "first_bad", "must be an object");
  const MessageContext in{"done.first_bad"};
  return {unsigned_as<uint32_t>(bad, in, "stream", 0, qps - 1),
          unsigned_as<uint64_t>(bad, in, "message", 1)};
}

}  // namespace

void add_to_message(nlohmann::json& message, const SideReport& r) {
  message["figures"] = figures_json(r.total);
  nlohmann::json threads = nlohmann::json::array();
  for (const SideFigures& f : r.threads) threads.push_back(figures_json(f));
  message["threads"] = std::move(threads);
  message["window_ns"] = r.window_ns;
  message["counted"] = r.counted;
  message["sent"] = r.sent;
  message["received"] = r.received;
  message["verify_errors"] = r.verify.errors;
  if (r.verify.first)
    message["first_bad"] = {{"stream", r.verify.first->stream},
                            {"message", r.verify.first->message}};
  if (!r.device_counters.empty()) message["device_counters"] = r.device_counters;
  if (!r.device_events.empty()) message["device_events"] = r.device_events;
}

SideReport side_report_from(const nlohmann::json& message, uint32_t threads, uint32_t qps) {
  const MessageContext ctx{"done"};
  SideReport r;
  r.total = figures_from(field(message, ctx, "figures"), {"done.figures"});
  for (const auto& t : array_of(message, ctx, "threads", threads))
    r.threads.push_back(figures_from(t, {"done.threads[]"}));
  r.window_ns = unsigned_as<uint64_t>(message, ctx, "window_ns");
  r.counted = counts_of(message, ctx, "counted", qps);
  r.sent = counts_of(message, ctx, "sent", qps);
  r.received = counts_of(message, ctx, "received", qps);
  r.verify.errors = unsigned_as<uint64_t>(message, ctx, "verify_errors");
  if (message.contains("first_bad")) r.verify.first = bad_message_from(message, ctx, qps);
  if (message.contains("device_counters"))
    r.device_counters = device_counters_from(message["device_counters"], ctx);
  if (message.contains("device_events"))
    r.device_events = device_events_from(message["device_events"], ctx);
  return r;
}

}  // namespace rdmabench
