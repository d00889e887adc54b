#include "core/printable_text.h"

namespace rdmabench {

namespace {

bool shown_raw(unsigned char c, Keep keep) {
  if (c >= 0x20 && c < 0x7f) return true;
  return keep == Keep::kUtf8 && (c == '\n' || c == '\t' || c >= 0x80);
}

}  // namespace

std::string printable(std::string_view text, Keep keep, std::size_t limit) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (shown_raw(c, keep)) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace rdmabench
