#include "mesh/outliers.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace rdmabench {

void check_min_fraction(double min_fraction) {
  if (!(min_fraction > 0 && min_fraction <= 1))
    throw Error(ExitCode::kUsage, "--min-fraction must be above 0 and at most 1, not " +
                                      std::to_string(min_fraction));
}

double slow_threshold(double median, const OutlierRule& rule) {
  return rule.higher_is_better ? median * rule.min_fraction : median / rule.min_fraction;
}

std::vector<int> OutlierReport::slow_hosts() const {
  std::vector<int> hosts = slow_senders;
  hosts.insert(hosts.end(), slow_receivers.begin(), slow_receivers.end());
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  return hosts;
}

}  // namespace rdmabench
