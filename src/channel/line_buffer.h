// What a control channel received and has not yet handed out as lines: the bytes after the
// last newline, bounded, so that a peer that never ends its line cannot grow it without end.
// One for the socket in clear and one for the TLS stream, whichever carries the channel.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/bounded_json.h"
#include "core/error.h"

namespace rdmabench {

class LineBuffer {
 public:
  // The next whole line (without its newline), if one has come.
  std::optional<std::string> next_line() {
    const auto nl = pending_.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    std::string line = pending_.substr(0, nl);
    pending_.erase(0, nl + 1);
    return line;
  }
  // Adds what was received; throws Error(kConnection) once more than a message's bound is
  // waiting for its newline.
  void append(const char* bytes, size_t count) {
    pending_.append(bytes, count);
    if (pending_.size() > kMessageBounds.max_bytes)
      throw Error(ExitCode::kConnection,
                  "control channel: message too long (not an rdmabench peer?)");
  }

 private:
  std::string pending_;
};

}  // namespace rdmabench
