// registered_name must be the name Google Benchmark itself gives what BenchmarkSuite registers,
// or --benchmark_filter would be judged against names that do not exist; and the filter rules
// (empty/all, '-' negation, extended regex) must be Google Benchmark's.
#include "runner/benchmark_filter.h"

#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "cq/strategy.h"

using namespace rdmabench;

namespace {

SuiteOptions suite(std::optional<uint64_t> iterations, uint64_t duration_ns = 0) {
  SuiteOptions o;
  o.matrix.patterns = {{*parse_pattern("send"), {2, 65536}}, {*parse_pattern("read"), {2}}};
  o.matrix.modes = {Mode::kBandwidth, Mode::kLatency};
  o.matrix.cq_choices = {parse_cq_choice("busy"), parse_cq_choice("event")};
  o.length.iterations = iterations.value_or(0);  // 0: min_time decides
  o.length.duration_ns = duration_ns;
  return o;
}

// The names Google Benchmark reports for benchmarks registered as BenchmarkSuite does.
class NameCollector final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) names.push_back(r.benchmark_name());
  }
  std::vector<std::string> names;
};

}  // namespace

TEST(BenchmarkFilter, PredictedNamesAreGoogleBenchmarksOwn) {
  const SuiteOptions o = suite(3);
  TestSpec spec = expand_specs(o.matrix).front();
  spec.qps = 4;
  spec.rate = 1000;
  benchmark::RegisterBenchmark(spec.name().c_str(),
                               [](benchmark::State& st) {
                                 for (auto _ : st) st.SetIterationTime(1e-6);
                               })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond)
      ->Iterations(3);
  NameCollector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
  ASSERT_EQ(collector.names.size(), 1u);
  EXPECT_EQ(collector.names[0], registered_name(spec, o.length));
  EXPECT_EQ(registered_name(spec, suite(std::nullopt).length), spec.name() + "/manual_time");
  EXPECT_EQ(registered_name(spec, suite(200, 5'000'000'000).length),
            spec.name() + "/iterations:1/manual_time");
}

TEST(BenchmarkFilter, SelectsByGoogleBenchmarksRules) {
  const SuiteOptions o = suite(200);
  const auto specs = expand_specs(o.matrix);
  ASSERT_EQ(specs.size(), 12u);
  EXPECT_EQ(count_selected(specs, o.length, ""), 12u);
  EXPECT_EQ(count_selected(specs, o.length, "all"), 12u);
  EXPECT_EQ(count_selected(specs, o.length, "^send/bw/"), 4u);
  EXPECT_EQ(count_selected(specs, o.length, "-^send/bw/"), 8u);
  EXPECT_EQ(count_selected(specs, o.length, "(read|send)/lat/event/2/iterations:200/manual_time$"),
            2u);
}

TEST(BenchmarkFilter, NothingSelectedOrNoRegexIsAUsageError) {
  const SuiteOptions o = suite(200);
  const auto specs = expand_specs(o.matrix);
  for (const char* filter : {"nothing", "-.", "[", "send/bw/busy/2/iterations:5/"}) {
    try {
      count_selected(specs, o.length, filter);
      ADD_FAILURE() << filter << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << filter;
      EXPECT_NE(std::string(e.what()).find(filter), std::string::npos) << e.what();
    }
  }
}

TEST(BenchmarkSuite, SizesBeyondTheMtuAreCutFromEveryPattern) {
  BenchmarkMatrix o = suite(3).matrix;
  o.sizes = {2, 1024, 65536};
  o.patterns = {{*parse_pattern("send"), {2, 1024, 65536}}, {*parse_pattern("send_imm"), {65536}}};
  EXPECT_EQ(cut_sizes_to_mtu(o, 1024), std::vector<uint64_t>{65536});
  EXPECT_EQ(o.sizes, (std::vector<uint64_t>{2, 1024}));
  ASSERT_EQ(o.patterns.size(), 1u);  // send_imm had no size left
  EXPECT_EQ(o.patterns[0].second, (std::vector<uint64_t>{2, 1024}));
}
