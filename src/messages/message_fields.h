// Typed, range-checked reads of control-message fields. Any program may connect to the control
// port, so every field a peer sends is checked for presence, type and range before use, and a
// bad one is named in the error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"

namespace rdmabench {

// Where a field sits, for messages: "setup.spec", "oob", "run", ...
struct MessageContext {
  std::string where;
  ExitCode code = ExitCode::kConnection;  // what a bad field means to the peer
};

[[noreturn]] void throw_bad_field(const MessageContext& ctx, const std::string& key,
                                  const std::string& problem);
// The field itself (missing, or `msg` not an object, is an error).
const nlohmann::json& field(const nlohmann::json& msg, const MessageContext& ctx,
                            const std::string& key);
uint64_t unsigned_field(const nlohmann::json& msg, const MessageContext& ctx,
                        const std::string& key, uint64_t min, uint64_t max);
std::string string_field(const nlohmann::json& msg, const MessageContext& ctx,
                         const std::string& key);
bool bool_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key);
// A finite number within [min, max].
double number_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key,
                    double min, double max);
// A peer's name or description of something (a host, a kernel, a device, a reason), for a
// report, a log or a terminal: printable ASCII alone, at most `max_bytes` of it.
std::string text_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key,
                       size_t max_bytes);
// Whether the field is null: a fact the peer does not know (missing is an error).
bool null_field(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key);

// An unsigned integer that fits T, within [min, max].
template <typename T>
T unsigned_as(const nlohmann::json& msg, const MessageContext& ctx, const std::string& key,
              uint64_t min = 0, uint64_t max = std::numeric_limits<T>::max()) {
  static_assert(std::is_unsigned_v<T>);
  return static_cast<T>(unsigned_field(msg, ctx, key, min, max));
}

}  // namespace rdmabench
