// Open-loop load (issue 68): when each round trip of one connection is meant to start. Fixed
// spacing puts them a period apart, connection i of n shifted by i/n of a period so that the
// connections' starts interleave rather than come together; Poisson draws each gap from the
// exponential distribution of that mean, each connection from its own stream of a seeded
// generator (the same seed and connection give the same starts, run after run).
#pragma once

#include <cstdint>
#include <random>

#include "spec/arrivals.h"

namespace rdmabench {

class ArrivalTimes {
 public:
  // Connection `index` of `count`, its round trips `period_ns` apart (the mean gap: Poisson),
  // from `start_ns`.
  ArrivalTimes(Arrivals kind, uint64_t start_ns, uint64_t period_ns, uint32_t index, uint32_t count,
               uint64_t seed)
      : kind_(kind),
        period_ns_(period_ns),
        random_(seed ^ (0x9e3779b97f4a7c15ull * (uint64_t{index} + 1))),
        gaps_(1.0 / static_cast<double>(period_ns)) {
    next_ns_ = kind == Arrivals::kFixed ? start_ns + period_ns * index / (count == 0 ? 1 : count)
                                        : start_ns + gap();
  }

  uint64_t next() const noexcept { return next_ns_; }  // the next round trip's intended start
  void advance() noexcept { next_ns_ += kind_ == Arrivals::kFixed ? period_ns_ : gap(); }

 private:
  uint64_t gap() noexcept { return static_cast<uint64_t>(gaps_(random_)); }

  Arrivals kind_;
  uint64_t period_ns_;
  uint64_t next_ns_ = 0;
  std::mt19937_64 random_;
  std::exponential_distribution<double> gaps_;
};

}  // namespace rdmabench
