// Open-loop load (issue 68): when each round trip of one connection is meant to start. Fixed
// spacing puts them a period apart, connection i of n shifted by i/n of a period so that the
// connections' starts interleave rather than come together; Poisson draws each gap from the
// exponential distribution of that mean, each connection from its own stream of a seeded
// generator (the same seed and connection give the same starts, run after run). A period of 0
// is back to back (closed loop): each round trip is due when the one before came back.
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
        gaps_(period_ns > 0 ? 1.0 / static_cast<double>(period_ns) : 1.0) {
    next_ns_ = back_to_back() || kind == Arrivals::kFixed
                   ? start_ns + period_ns * index / (count == 0 ? 1 : count)
                   : start_ns + gap();
  }

  uint64_t next() const noexcept { return next_ns_; }  // the next round trip's intended start
  void advance() noexcept {
    if (!back_to_back()) next_ns_ += kind_ == Arrivals::kFixed ? period_ns_ : gap();
  }
  bool back_to_back() const noexcept { return period_ns_ == 0; }
  // Back to back: the round trip before came back at `t`, so the next is due then.
  void came_back_at(uint64_t t) noexcept {
    if (back_to_back()) next_ns_ = t;
  }

 private:
  uint64_t gap() noexcept { return static_cast<uint64_t>(gaps_(random_)); }

  Arrivals kind_;
  uint64_t period_ns_;
  uint64_t next_ns_ = 0;
  std::mt19937_64 random_;
  std::exponential_distribution<double> gaps_;
};

}  // namespace rdmabench
