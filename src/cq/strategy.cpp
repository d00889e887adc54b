#include "cq/strategy.h"

#include <algorithm>
#include <charconv>

#include "core/comma_list.h"
#include "core/error.h"

namespace rdmabench {

namespace {

std::string known_strategies() {
  return join_comma_list(registered_strategies(), [](const StrategyInfo& i) { return i.usage; });
}

Error bad_strategy(const std::string& text, const std::string& why) {
  return Error(ExitCode::kUsage, "--cq '" + text.substr(0, 60) + "': " + why + " (strategies: " +
                                     known_strategies() + "; per side: client=S,server=S)");
}

const StrategyInfo* find_info(std::string_view name) {
  for (const StrategyInfo& info : registered_strategies())
    if (info.name == name) return &info;
  return nullptr;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

uint32_t parse_argument(const std::string& text, const std::string& item, uint32_t max) {
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
  if (ec != std::errc{} || end != item.data() + item.size() || item.empty())
    throw bad_strategy(text, "'" + item.substr(0, 20) + "' is not a whole number");
  if (value > max)
    throw bad_strategy(text, "'" + item + "' is above the limit " + std::to_string(max));
  return value;
}

// "busy,hybrid:50": a comma separates choices only while none takes arguments (moderated's
// "4,2" are its own); before a choice's first ':' it was meant as a ';'.
void refuse_a_comma_meant_as_semicolon(const std::string& item) {
  const size_t comma = item.find(',');
  const size_t colon = item.find(':');
  if (item.find('=') != std::string::npos || comma == std::string::npos || colon < comma) return;
  std::string as_list = item;
  std::replace(as_list.begin(), as_list.end(), ',', ';');
  throw bad_strategy(item, "separate CQ strategies with ';' when one takes arguments: --cq '" +
                               as_list.substr(0, 60) + "'");
}

}  // namespace

CqStrategy parse_cq_strategy(const std::string& text) {
  const size_t colon = text.find(':');
  CqStrategy s;
  s.name = text.substr(0, colon);
  const StrategyInfo* info = find_info(s.name);
  if (info == nullptr) throw bad_strategy(text, "'" + s.name.substr(0, 20) + "' is unknown");
  const std::vector<std::string> items =
      colon == std::string::npos ? std::vector<std::string>{} : split(text.substr(colon + 1), ',');
  if (items.size() != info->arguments)
    throw bad_strategy(text, std::string(info->name) + " takes " + std::to_string(info->arguments) +
                                 " argument(s): " + std::string(info->usage));
  for (size_t i = 0; i < items.size(); ++i)
    s.arguments.push_back(parse_argument(text, items[i], info->argument_max[i]));
  return s;
}

CqChoice parse_cq_choice(const std::string& written) {
  const std::string text = lower_case(written);  // BUSY, as every named value
  const bool sided = text.starts_with("client=") || text.starts_with("server=");
  if (!sided) {
    const CqStrategy both = parse_cq_strategy(text);
    return {both, both};
  }
  for (const char* side : {"client=", "server="})
    if (text.find(side) != text.rfind(side))
      throw bad_strategy(text, std::string("names ") + side +
                                   " twice: a choice is one client=S "
                                   "and one server=S; separate choices with ';' "
                                   "(client=busy,server=event;client=event,server=event)");
  // The second side starts at ",client=" or ",server=" (arguments hold no '=').
  const std::string other = text.starts_with("client=") ? ",server=" : ",client=";
  const size_t split_at = text.find(other);
  if (split_at == std::string::npos) throw bad_strategy(text, "name both sides: client=S,server=S");
  const CqStrategy first = parse_cq_strategy(text.substr(7, split_at - 7));
  const CqStrategy second = parse_cq_strategy(text.substr(split_at + other.size()));
  return text.starts_with("client=") ? CqChoice{first, second} : CqChoice{second, first};
}

std::vector<CqChoice> parse_cq_choices(const std::string& written) {
  const std::string text = lower_case(written);
  if (text == "all") return {parse_cq_choice("busy"), parse_cq_choice("event")};
  // ';' always separates; ',' too while no choice has arguments or sides.
  std::string items = text;
  if (items.find_first_of(":=") == std::string::npos)
    std::replace(items.begin(), items.end(), ',', ';');
  std::vector<CqChoice> out;
  for (const std::string& item : split(items, ';')) {
    if (item == "all")
      throw bad_strategy(text, "'all' stands alone (--cq all: busy and event), not in a list");
    refuse_a_comma_meant_as_semicolon(item);
    const CqChoice choice = parse_cq_choice(item);
    if (std::find(out.begin(), out.end(), choice) == out.end()) out.push_back(choice);
  }
  return out;
}

const StrategyInfo& strategy_info(const CqStrategy& strategy) {
  const StrategyInfo* info = find_info(strategy.name);
  if (info == nullptr) throw Error(ExitCode::kInternal, "unregistered strategy " + strategy.name);
  return *info;
}

}  // namespace rdmabench
