// JSON from outside (a peer's message, a file, another rank's text) parsed within bounds: its
// length and its nesting depth are checked before anything is built from it. nlohmann's parser
// does not recurse, but dumping, copying and comparing a value do, one level a call: a value
// nested 200,000 deep ended the server with SIGSEGV when its error text dumped it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/error.h"

namespace rdmabench {

struct JsonBounds {
  std::size_t max_bytes;
  int max_depth;  // arrays and objects inside one another, the outermost counted
};

// A control message (a line of the control channel, an MPI rank's text): the deepest one
// rdmabench sends is 4 levels, its longest well under 64 KiB.
inline constexpr JsonBounds kMessageBounds{1u << 20, 16};
// A file rdmabench wrote (a search state or report, a results file): deeper, much longer.
inline constexpr JsonBounds kFileBounds{1u << 30, 64};

// What makes `text` exceed `bounds` ("nests deeper than 16 levels", "is longer than ..."), or
// empty when it is within them. Looks at the bytes alone, in one pass, without recursion.
std::string json_bounds_problem(std::string_view text, JsonBounds bounds);

// `text` parsed, when it is JSON within `bounds`; otherwise Error(code, what + ": " + the
// problem). `what` names the input ("search state file x.json"); it is not made printable here.
nlohmann::json parse_bounded_json(std::string_view text, JsonBounds bounds, ExitCode code,
                                  const std::string& what);

// The JSON in the file at `path`, within `bounds` (its size checked before it is read);
// Error(kUsage, what + ": " + the problem) when it cannot be read or is not bounded JSON: a bad
// input file, as tools/plot and tools/compare say. JSON that does not follow the file's schema
// is the caller's to refuse (kInvalidFile).
nlohmann::json read_bounded_json_file(const std::string& path, JsonBounds bounds,
                                      const std::string& what);

// A value as text for an error or a log: at most `limit` bytes, printable ASCII (other bytes,
// and bytes of a string that is not UTF-8, escaped), never throwing.
std::string json_excerpt(const nlohmann::json& value, std::size_t limit = 40);

}  // namespace rdmabench
