#include "search/observation.h"

#include <algorithm>
#include <cmath>

namespace rdmabench {

std::optional<Band> Observation::band(const std::string& counter) const {
  std::vector<double> v;
  for (const Counters& run : runs)
    if (const auto it = run.find(counter); it != run.end() && std::isfinite(it->second))
      v.push_back(it->second);
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  const double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return Band{v.front(), median, v.back()};
}

}  // namespace rdmabench
