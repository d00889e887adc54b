#include "core/printable_text.h"

#include <algorithm>
#include <cstdint>

namespace rdmabench {

namespace {

// The length of the UTF-8 character at text[i] when it is one to show: well formed, shortest
// form, and neither a C1 control, a line separator nor a bidirectional override or isolate.
// 0 otherwise.
std::size_t shown_character(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (length == 0 || lead > 0xf4 || i + length > text.size()) return 0;
  uint32_t code = lead & (0x7f >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xc0) != 0x80) return 0;
    code = (code << 6) | (next & 0x3f);
  }
  static constexpr uint32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool malformed =
      code < kShortest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
  const bool hidden = code <= 0x9f || code == 0x2028 || code == 0x2029 ||
                      (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
  return malformed || hidden ? 0 : length;
}

void append_escaped(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

}  // namespace

bool is_printable_ascii(std::string_view text) {
  return std::ranges::all_of(text, [](char c) { return c >= 0x20 && c < 0x7f; });
}

std::string printable(std::string_view text, Keep keep, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit;) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool ascii_shown =
        (c >= 0x20 && c < 0x7f) || (keep == Keep::kUtf8 && (c == '\n' || c == '\t'));
    const std::size_t character =
        ascii_shown ? 1 : (keep == Keep::kUtf8 && c >= 0x80 ? shown_character(text, i) : 0);
    if (character == 0) {
      append_escaped(out, c);
      ++i;
    } else if (i + character > limit) {
      break;  // the character would be cut
    } else {
      out.append(text.substr(i, character));
      i += character;
    }
  }
  return out;
}

std::string peer_excerpt(std::string_view text, std::size_t limit) {
  std::string shown = printable(text, Keep::kPrintableAscii, limit);
  if (text.size() > limit) shown += "...";
  return shown;
}

}  // namespace rdmabench
