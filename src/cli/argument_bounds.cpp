#include "cli/argument_bounds.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {
constexpr std::size_t kPathLimit = 4096;
constexpr std::size_t kStackBytesPerCharacter = 512;  // measured: about 250, and a margin
}  // namespace

std::size_t longest_argument(std::size_t stack_limit_bytes) {
  return std::min(kPathLimit, stack_limit_bytes / kStackBytesPerCharacter);
}

std::size_t longest_argument() {
  rlimit stack{};
  if (getrlimit(RLIMIT_STACK, &stack) != 0 || stack.rlim_cur == RLIM_INFINITY) return kPathLimit;
  return longest_argument(static_cast<std::size_t>(stack.rlim_cur));
}

void check_argument_lengths(int argc, const char* const* argv, std::size_t longest) {
  for (int i = 1; i < argc; ++i) {
    const std::size_t length = std::strlen(argv[i]);
    if (length <= longest) continue;
    throw Error(ExitCode::kUsage,
                "argument " + std::to_string(i) + " ('" + peer_excerpt(argv[i], 30) + "') is " +
                    std::to_string(length) + " bytes long; rdmabench takes at most " +
                    std::to_string(longest) + " bytes in one argument" +
                    (longest < kPathLimit ? " under this stack limit (ulimit -s)" : ""));
  }
}

}  // namespace rdmabench
