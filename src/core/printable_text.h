// Text from outside (a command-line value, a peer's message) made safe for a terminal or a
// log: the bytes it must not show raw become \xNN.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rdmabench {

enum class Keep {
  // Control characters escaped; newlines, tabs and printable UTF-8 kept (our own messages).
  // Escaped too: bytes that are not UTF-8, the C1 controls a terminal may obey (U+0080 to
  // U+009F, CSI among them), line separators and the bidirectional overrides.
  kUtf8,
  kPrintableAscii,  // everything but printable ASCII escaped (a peer's raw bytes)
};

// Whether every byte of `text` is printable ASCII (so it is one line, with no escape sequence).
bool is_printable_ascii(std::string_view text);

// At most `limit` bytes of `text` (a character is never cut), made printable.
std::string printable(std::string_view text, Keep keep = Keep::kUtf8,
                      std::size_t limit = std::string_view::npos);

// What a peer sent (a message type, a version, its error text), for an error or a log line:
// printable ASCII alone (so one line, and no escape sequence), at most `limit` bytes of it,
// "..." when it was cut.
std::string peer_excerpt(std::string_view text, std::size_t limit = 40);

}  // namespace rdmabench
