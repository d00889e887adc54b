// The benchmarks a suite runs: every combination of patterns (each at its sizes), modes, CQ
// choices, sizes, offered rates, QP counts and chain lengths, each over one base spec. `run`
// builds it from its command line, `search` one benchmark a point (cli/point_request.h), `mesh`
// one benchmark a mode; the runner registers what it expands into.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "spec/spec_validation.h"
#include "spec/test_spec.h"

namespace rdmabench {

// One --rate item: lat round trips, or bw messages a QP, per second (0: back to back); or, for
// bw only, Gb/s of payload a QP, which each size turns into messages per second. Or one --load
// item: round trips (messages) per second over every QP of a benchmark, each QP taking an equal
// share (the parser refuses a load its QP counts do not divide).
struct OfferedRate {
  uint64_t per_second = 0;
  double gbps = 0;        // > 0: given in Gb/s
  bool every_qp = false;  // --load: per_second is the benchmark's, over every QP
  // A QP's rate in a benchmark of `qps` QPs at `size`.
  uint64_t per_qp(uint64_t size, uint32_t qps) const {
    return every_qp ? per_second / std::max<uint32_t>(qps, 1) : per_second_at(size);
  }
  uint64_t per_second_at(uint64_t size) const {
    if (gbps <= 0) return per_second;
    return std::max<uint64_t>(
        1, static_cast<uint64_t>(std::llround(gbps * 1e9 / 8 / static_cast<double>(size))));
  }
  bool paces() const { return per_second > 0 || gbps > 0; }
  std::string gbps_text() const;  // 2.5 -> "2.5", 10 -> "10"
};

// The benchmarks the suite runs: every combination of these (expand_specs), each over `base`.
struct BenchmarkMatrix {
  // Each pattern with the sizes it runs (expand_patterns); `sizes` holds every size given.
  std::vector<std::pair<Pattern, std::vector<uint64_t>>> patterns;
  bool all_patterns = false;  // --pattern all: a pattern the device refuses is left out, said
  std::vector<Mode> modes;
  std::vector<CqChoice> cq_choices;
  std::vector<uint64_t> sizes;
  std::vector<OfferedRate> rates{OfferedRate{}};  // --rate or --load: offered loads (0: back to
                                                  // back)
  std::vector<uint32_t> qps{1};                   // --qps: QPs per benchmark, one benchmark each
  std::vector<uint32_t> post_lists{1};  // --post-list: bw chain lengths, one benchmark each
  uint32_t threads = 1;                 // --threads (at most the QP count)
  // The default --sizes over a transport whose messages are one packet: cut at the device's
  // path MTU once it is open (cut_sizes_to_mtu).
  bool sizes_to_mtu = false;
  TestSpec base;  // depths, signalling, verify, bootstrap, gid, mtu

  // Does --mode ask for mode `m`?
  bool runs(Mode m) const { return std::find(modes.begin(), modes.end(), m) != modes.end(); }
};

// Every benchmark the options ask for, in the order they run: pattern (at the sizes it
// accepts), mode, CQ choice, size, rate (lat only), QP count.
std::vector<TestSpec> expand_specs(const BenchmarkMatrix& matrix);

// Why a device with `limits` refuses a spec (spec_refusal), or "" when it takes it.
std::function<std::string(const TestSpec&)> refusal_by(const DeviceLimits& limits);

// With --pattern all, drops the patterns `refusal` refuses (it returns why, or "" to keep one)
// and returns a note per pattern dropped: "write_imm (siw1, driver siw: ...)". Without it, or
// when every pattern would go, drops nothing (each benchmark then says why it is refused).
std::vector<std::string> drop_refused_patterns(
    BenchmarkMatrix& matrix, const std::function<std::string(const TestSpec&)>& refusal);

// Drops the sizes beyond `mtu` bytes from every pattern (and the patterns left with none);
// returns the sizes dropped.
std::vector<uint64_t> cut_sizes_to_mtu(BenchmarkMatrix& matrix, uint64_t mtu);

}  // namespace rdmabench
