#include "core/system_error.h"

#include <cstring>

namespace rdmabench {

namespace {
// A call that failed without setting errno says so, rather than "Success (errno 0)".
std::string describe(const std::string& call, int err, const std::string& detail) {
  std::string text =
      err == 0 ? call + " failed, and set no errno to say why"
               : call + " failed: " + std::strerror(err) + " (errno " + std::to_string(err) + ")";
  if (!detail.empty()) text += " [" + detail + "]";
  return text;
}
}  // namespace

SystemError::SystemError(const std::string& call, int err, const std::string& detail, ExitCode code)
    : Error(code, describe(call, err, detail)), call_(call), errno_(err) {}

}  // namespace rdmabench
