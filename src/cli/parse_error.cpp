#include "cli/parse_error.h"

#include <string_view>

namespace rdmabench {

namespace {

// `text` with cxxopts' curly quotes made plain.
std::string plain_quotes(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const std::string_view rest = std::string_view(text).substr(i);
    if (rest.starts_with("\u2018") || rest.starts_with("\u2019")) {
      out.push_back('\'');
      i += std::string_view("\u2018").size() - 1;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The option a value was given to, as "--iters" ("" when the value is not found).
std::string option_of(const std::string& value, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == value && i > 1 && argv[i - 1][0] == '-') return argv[i - 1];
    const size_t equals = arg.find('=');
    if (arg.starts_with("-") && equals != std::string_view::npos && arg.substr(equals + 1) == value)
      return std::string(arg.substr(0, equals));
  }
  return "";
}

}  // namespace

std::string explain_parse_error(std::string message, int argc, char** argv) {
  message = plain_quotes(message);
  constexpr std::string_view kPrefix = "Argument '";
  constexpr std::string_view kSuffix = "' failed to parse";
  if (!message.starts_with(kPrefix) || !message.ends_with(kSuffix)) return message;
  const std::string value =
      message.substr(kPrefix.size(), message.size() - kPrefix.size() - kSuffix.size());
  const std::string option = option_of(value, argc, argv);
  if (option.empty()) return message;
  return option + " '" + value + "': not a value " + option + " takes";
}

}  // namespace rdmabench
