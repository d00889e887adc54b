#include "host/kernel_cmdline.h"

namespace rdmabench {

namespace {
constexpr std::string_view kSpace = " \t\n\v\f\r";
}  // namespace

std::vector<std::string_view> kernel_cmdline_words(std::string_view cmdline) {
  std::vector<std::string_view> words;
  for (size_t at = cmdline.find_first_not_of(kSpace); at != std::string_view::npos;) {
    const size_t end = std::min(cmdline.find_first_of(kSpace, at), cmdline.size());
    words.push_back(cmdline.substr(at, end - at));
    at = cmdline.find_first_not_of(kSpace, end);
  }
  return words;
}

std::string_view kernel_cmdline_value(std::string_view cmdline, std::string_view key) {
  std::string_view value;
  for (const std::string_view word : kernel_cmdline_words(cmdline))
    if (word.size() > key.size() && word.starts_with(key) && word[key.size()] == '=')
      value = word.substr(key.size() + 1);
  return value;
}

}  // namespace rdmabench
