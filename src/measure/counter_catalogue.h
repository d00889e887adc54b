// What every counter of a result row means: its unit, what it is counted per, and which
// direction is better. The --out file carries this catalogue in its context, so that tools
// take titles, units and directions from the engine instead of keeping their own lists.
// A name may hold one placeholder: {qp} (a QP index), {thread} (a thread index) or {name} (a
// device counter's name, measure/device_counters.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rdmabench {

enum class Better { kHigher, kLower, kNeither };

// A count is a whole number on every row of one run (an aggregate row's statistic of it need
// not be); a figure is any number. None is negative.
enum class CounterKind { kCount, kFigure };

struct CounterInfo {
  std::string_view name;         // "bytes_per_second", "qp{qp}_msgs"
  std::string_view unit;         // "B/s", "us", "messages", "1" (a plain number)
  std::string_view per;          // "" (a total), "msg", "thread"...
  Better better;                 // for comparisons and regression verdicts
  std::string_view description;  // one line
  CounterKind kind;
};

const std::vector<CounterInfo>& counter_catalogue();
// The entry a counter name belongs to (placeholders match a decimal index), or nullptr.
const CounterInfo* find_counter(std::string_view name);
nlohmann::json counter_catalogue_json();

}  // namespace rdmabench
