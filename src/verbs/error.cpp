#include "verbs/error.h"

#include <cstring>

namespace rdmabench {

namespace {
std::string describe(const std::string& verb, int err, const std::string& detail) {
  std::string text =
      verb + " failed: " + std::strerror(err) + " (errno " + std::to_string(err) + ")";
  if (!detail.empty()) text += " [" + detail + "]";
  return text;
}
}  // namespace

VerbsError::VerbsError(const std::string& verb, int err, const std::string& detail, ExitCode code)
    : Error(code, describe(verb, err, detail)), verb_(verb), errno_(err) {}

}  // namespace rdmabench
