#include "messages/message_fields.h"

#include <cmath>

#include "core/bounded_json.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {
// A message's value, in an error: parse_control_message bounded its depth.
std::string shown(const nlohmann::json& value) {
  return json_excerpt(value);
}
}  // namespace

void throw_bad_field(const MessageContext& ctx, const std::string& key,
                     const std::string& problem) {
  throw Error(ctx.code, ctx.where + "." + key + " " + problem);
}

const nlohmann::json& field(const nlohmann::json& msg, const MessageContext& ctx,
                            const std::string& key) {
  if (!msg.is_object()) throw Error(ctx.code, ctx.where + " must be a JSON object");
  const auto it = msg.find(key);
  if (it == msg.end()) throw_bad_field(ctx, key, "is missing");
  return *it;
}

uint64_t unsigned_field(const nlohmann::json& msg, const MessageContext& ctx,
                        const std::string& key, uint64_t min, uint64_t max) {
  const nlohmann::json& value = field(msg, ctx, key);
  const bool non_negative_integer =
      value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0);
  if (!non_negative_integer)
    throw_bad_field(ctx, key, "must be an unsigned integer, not " + shown(value));
  const uint64_t v = value.get<uint64_t>();
  if (v < min || v > max)
    throw_bad_field(ctx, key,
                    "is " + std::to_string(v) + "; it must be between " + std::to_string(min) +
                        " and " + std::to_string(max));
  return v;
}

std::string string_field(const nlohmann::json& msg, const MessageContext& ctx,
                         const std::string& key) {
  const nlohmann::json& value = field(msg, ctx, key);
  if (!value.is_string()) throw_bad_field(ctx, key, "must be a string, not " + shown(value));
  return value.get<std::string>();
}

bool bool_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key) {
  const nlohmann::json& value = field(msg, ctx, key);
  if (!value.is_boolean()) throw_bad_field(ctx, key, "must be true or false, not " + shown(value));
  return value.get<bool>();
}

double number_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key,
                    double min, double max) {
  const nlohmann::json& value = field(msg, ctx, key);
  if (!value.is_number()) throw_bad_field(ctx, key, "must be a number, not " + shown(value));
  const double v = value.get<double>();
  if (!std::isfinite(v) || v < min || v > max)
    throw_bad_field(
        ctx, key,
        "is " + shown(value) + "; it must be between " + shown(min) + " and " + shown(max));
  return v;
}

std::string text_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key,
                       size_t max_bytes) {
  std::string text = string_field(msg, ctx, key);
  if (!is_printable_ascii(text) || text.size() > max_bytes)
    throw_bad_field(ctx, key,
                    "must be printable text of at most " + std::to_string(max_bytes) +
                        " characters, not " + shown(text));
  return text;
}

bool null_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key) {
  return field(msg, ctx, key).is_null();
}

}  // namespace rdmabench
