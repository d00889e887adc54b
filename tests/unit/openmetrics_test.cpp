// The OpenMetrics writer (core/openmetrics.h), the atomic file it is written to
// (core/output_file.h), and a counter's metric name (measure/counter_metric.h).
#include "core/openmetrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/error.h"
#include "core/output_file.h"
#include "measure/counter_catalogue.h"
#include "measure/counter_metric.h"

namespace rdmabench {
namespace {

TEST(OpenMetrics, WritesHelpTypeSamplesAndEof) {
  const std::string text = openmetrics_text(
      {{"rdmabench_x_seconds", "what x is", {{{{"a", "1"}, {"b", ""}}, 0.5}, {{}, 3}}}});
  EXPECT_EQ(text,
            "# HELP rdmabench_x_seconds what x is\n"
            "# TYPE rdmabench_x_seconds gauge\n"
            "rdmabench_x_seconds{a=\"1\",b=\"\"} 0.5\n"
            "rdmabench_x_seconds 3\n"
            "# EOF\n");
}

TEST(OpenMetrics, NumbersKeepTheirPrecisionAndSpecialValues) {
  const std::string text = openmetrics_text({{"m",
                                              "h",
                                              {{{{"k", "a"}}, 123456789012.0},
                                               {{{"k", "b"}}, 1.0 / 3},
                                               {{{"k", "c"}}, NAN},
                                               {{{"k", "d"}}, -INFINITY}}}});
  EXPECT_NE(text.find("m{k=\"a\"} 123456789012\n"), std::string::npos) << text;
  EXPECT_NE(text.find("m{k=\"b\"} 0.33333333333333331\n"), std::string::npos) << text;
  EXPECT_NE(text.find("m{k=\"c\"} NaN\n"), std::string::npos) << text;
  EXPECT_NE(text.find("m{k=\"d\"} -Inf\n"), std::string::npos) << text;
}

// A label value comes from outside (a host name, a peer's device name, sysfs): quotes,
// backslashes and newlines escaped, control characters and bytes that are not UTF-8 made
// printable, so that one bad value cannot end the series or make the parser refuse the file.
TEST(OpenMetrics, HostileLabelValuesAndHelpStayOnTheirLine) {
  const std::string text = openmetrics_text(
      {{"m", "a \"quoted\"\nhelp\\", {{{{"host", "h\"}\n m 9\\\x1b[31m\xff"}}, 1}}}});
  EXPECT_EQ(text,
            "# HELP m a 'quoted'\\nhelp\\\\\n"
            "# TYPE m gauge\n"
            "m{host=\"h\\\"}\\n m 9\\\\\\\\x1b[31m\\\\xff\"} 1\n"
            "# EOF\n");
}

TEST(OpenMetrics, RefusesWhatOnlyABugMakes) {
  EXPECT_THROW(openmetrics_text({{"1m", "h", {}}}), Error);
  EXPECT_THROW(openmetrics_text({{"m-x", "h", {}}}), Error);
  EXPECT_THROW(openmetrics_text({{"m", "h", {}}, {"m", "h", {}}}), Error);
  EXPECT_THROW(openmetrics_text({{"m", "h", {{{{"a", "1"}}, 1}, {{{"a", "1"}}, 2}}}}), Error);
  EXPECT_THROW(openmetrics_text({{"m", "h", {{{{"a", "1"}, {"a", "2"}}, 1}}}}), Error);
  EXPECT_THROW(openmetrics_text({{"m", "h", {{{{"__name__", "1"}}, 1}}}}), Error);
  EXPECT_THROW(openmetrics_text({{"m", "h", {{{{"a:b", "1"}}, 1}}}}), Error);
  EXPECT_TRUE(valid_metric_name("rdmabench:x_1"));
  EXPECT_FALSE(valid_label_name("x:1"));
}

std::string contents(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AtomicFile, ReplacesTheFileWholeAndLeavesNoTemporary) {
  const auto dir = std::filesystem::temp_directory_path() / "rdmabench-atomic-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto file = dir / "x.prom";
  write_file_atomically(file, "first\n", "--metrics");
  write_file_atomically(file, "second\n", "--metrics");
  EXPECT_EQ(contents(file), "second\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "a temporary left";
  EXPECT_EQ(std::filesystem::status(file).permissions() & std::filesystem::perms::all,
            std::filesystem::perms(0644));
  std::filesystem::remove_all(dir);
}

// Before, the temporary was PATH.tmp, opened with O_TRUNC: a link left there by someone else
// was followed, and the file it named overwritten; two writers of one path shared it.
TEST(AtomicFile, ALinkAtTheOldTemporaryNameIsNeitherFollowedNorRemoved) {
  const auto dir = std::filesystem::temp_directory_path() / "rdmabench-atomic-link-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto victim = dir / "victim";
  std::ofstream(victim) << "keep me\n";
  std::filesystem::create_symlink(victim, dir / "x.prom.tmp");
  write_file_atomically(dir / "x.prom", "metrics\n", "--metrics");
  EXPECT_EQ(contents(victim), "keep me\n");
  EXPECT_EQ(contents(dir / "x.prom"), "metrics\n");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "x.prom.tmp"));
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, AFailureNamesTheCallTheOptionAndThePathPrintably) {
  try {
    write_file_atomically("/nonexistent-dir/\x1b[2Jx.prom", "x", "--metrics");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mkostemp failed"), std::string::npos) << what;
    EXPECT_NE(what.find("--metrics /nonexistent-dir/\\x1b[2Jx.prom (a temporary beside it)"),
              std::string::npos)
        << what;
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
  }
}

// Before, check_writable put the command line's path into its error raw.
TEST(CheckWritable, NamesTheOptionAndThePathPrintably) {
  try {
    check_writable("/nonexistent-dir/\x1b]0;title\x07.json", "--out");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "--out /nonexistent-dir/\\x1b]0;title\\x07.json: cannot write there: its folder "
              "/nonexistent-dir does not exist (make it with mkdir -p, or name another)");
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
  }
}

TEST(CounterMetric, BaseUnitsAndPlaceholdersAsLabels) {
  const auto p50 = counter_metric("lat_p50_us");
  ASSERT_TRUE(p50);
  EXPECT_EQ(p50->name, "rdmabench_lat_p50_seconds");
  EXPECT_DOUBLE_EQ(p50->scale, 1e-6);
  EXPECT_FALSE(p50->label);
  const auto cpu = counter_metric("client_cpu_us_per_msg");
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->name, "rdmabench_client_cpu_seconds_per_msg");
  const auto window = counter_metric("window_s");
  ASSERT_TRUE(window);
  EXPECT_EQ(window->name, "rdmabench_window_seconds");
  EXPECT_DOUBLE_EQ(window->scale, 1);
  const auto qp = counter_metric("qp12_finish_s");
  ASSERT_TRUE(qp && qp->label);
  EXPECT_EQ(qp->name, "rdmabench_qp_finish_seconds");
  EXPECT_EQ(qp->label->name, "qp");
  EXPECT_EQ(qp->label->value, "12");
  const auto dev = counter_metric("server_dev_hw_sent_pkts_per_msg");
  ASSERT_TRUE(dev && dev->label);
  EXPECT_EQ(dev->name, "rdmabench_server_dev_per_msg");
  EXPECT_EQ(dev->label->name, "counter");
  EXPECT_EQ(dev->label->value, "hw_sent_pkts");
  const auto bw = counter_metric("bytes_per_second");
  ASSERT_TRUE(bw);
  EXPECT_EQ(bw->name, "rdmabench_bytes_per_second");
  EXPECT_NE(bw->help.find("(bytes per second)"), std::string::npos) << bw->help;
  EXPECT_FALSE(counter_metric("real_time"));
}

// Every counter of the catalogue has a valid metric name, none with a unit Prometheus calls
// abbreviated, and no two counters share a metric unless their placeholder tells them apart.
TEST(CounterMetric, EveryCatalogueCounterHasAValidDistinctName) {
  std::map<std::string, std::string> by_metric;
  for (const CounterInfo& c : counter_catalogue()) {
    std::string example(c.name);
    for (const auto& [from, to] : {std::pair{"{qp}", "0"}, {"{thread}", "0"}, {"{name}", "x"}})
      if (const size_t at = example.find(from); at != std::string::npos)
        example.replace(at, std::string_view(from).size(), to);
    const auto m = counter_metric(example);
    ASSERT_TRUE(m) << example;
    EXPECT_TRUE(valid_metric_name(m->name)) << m->name;
    EXPECT_EQ(m->name.find("_us"), std::string::npos) << m->name;
    EXPECT_FALSE(m->name.ends_with("_s")) << m->name;
    const auto [at, added] = by_metric.emplace(m->name, example);
    EXPECT_TRUE(added) << m->name << ": " << example << " and " << at->second;
  }
}

}  // namespace
}  // namespace rdmabench
