#include "runner/progress_line.h"

#include <unistd.h>

#include <cstdio>

namespace rdmabench {

namespace {
constexpr const char* kClearLine = "\r\033[K";
}  // namespace

void show_progress(const std::string& text) {
  if (isatty(STDERR_FILENO) == 0) return;
  std::fprintf(stderr, "%s%s", kClearLine, text.c_str());
  std::fflush(stderr);
}

void clear_progress() {
  if (isatty(STDERR_FILENO) == 0) return;
  std::fflush(stdout);
  std::fputs(kClearLine, stderr);
  std::fflush(stderr);
}

}  // namespace rdmabench
