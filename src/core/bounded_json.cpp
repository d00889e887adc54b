#include "core/bounded_json.h"

#include <cerrno>
#include <cstring>

#include "core/bounded_read.h"
#include "core/printable_text.h"

namespace rdmabench {

std::string json_bounds_problem(std::string_view text, JsonBounds bounds) {
  if (text.size() > bounds.max_bytes)
    return "is longer than " + std::to_string(bounds.max_bytes) + " bytes";
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > bounds.max_depth)
        return "nests deeper than " + std::to_string(bounds.max_depth) + " levels";
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return {};
}

nlohmann::json parse_bounded_json(std::string_view text, JsonBounds bounds, ExitCode code,
                                  const std::string& what) {
  if (const std::string problem = json_bounds_problem(text, bounds); !problem.empty())
    throw Error(code, what + ": " + problem);
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded()) throw Error(code, what + ": not JSON");
  return value;
}

nlohmann::json read_bounded_json_file(const std::string& path, JsonBounds bounds,
                                      const std::string& what) {
  constexpr ExitCode code = ExitCode::kUsage;
  const std::optional<std::string> text = read_file_up_to(path, bounds.max_bytes + 1);
  if (!text) throw Error(code, what + ": cannot read it (" + std::strerror(errno) + ")");
  if (text->size() > bounds.max_bytes)
    throw Error(code, what + ": is longer than " + std::to_string(bounds.max_bytes) + " bytes");
  return parse_bounded_json(*text, bounds, code, what);
}

std::string json_excerpt(const nlohmann::json& value, std::size_t limit) {
  // Dumped whole first: only a bounded value may come here (depth within its bounds).
  const std::string text = value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  return peer_excerpt(text, limit);
}

}  // namespace rdmabench
