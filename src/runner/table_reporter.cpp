#include "runner/table_reporter.h"

#include <cstdio>
#include <iostream>

#include "bench/pattern_catalogue.h"
#include "runner/progress_line.h"
#include "spec/pattern_info.h"

namespace rdmabench {

namespace {
double counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
  const auto it = run.counters.find(name);
  return it == run.counters.end() ? 0.0 : it->second.value;
}

// "(latency in usec; send/write/write_imm/send_imm: half round trip, read: full)", from the
// registered patterns' descriptions.
std::string latency_legend() {
  std::string half, full;
  for (const Pattern& p : registered_patterns()) {
    std::string& list = p->half_round_trip ? half : full;
    list += (list.empty() ? "" : "/") + p.name();
  }
  std::string legend = "(latency in usec";
  if (!half.empty()) legend += "; " + half + ": half round trip";
  if (!full.empty()) legend += (half.empty() ? "; " : ", ") + full + ": full";
  return legend + ")";
}
}  // namespace

TableReporter::TableReporter(std::string context_summary, const std::vector<TestSpec>& specs)
    : summary_(std::move(context_summary)) {
  for (const TestSpec& s : specs) specs_.emplace(s.name(), s);
}

bool TableReporter::ReportContext(const Context&) {
  std::cout << summary_ << std::flush;
  return true;
}

void TableReporter::header(const TestSpec& spec) {
  const bool latency = spec.mode == Mode::kLatency;
  std::cout << "\n" << std::string(100, '-') << "\n " << spec.table_name() << "   ";
  if (latency) {
    std::cout << latency_legend() << "\n";
    std::printf(" %-10s %-10s %9s %9s %9s %9s %9s %9s %9s %11s %11s\n", "#bytes", "#iters", "t_min",
                "t_p50", "t_mean", "t_stdev", "t_p99", "t_p99.9", "t_max", "cpu_cli[us]",
                "cpu_srv[us]");
  } else {
    std::cout << (spec.bidir ? "(both directions at once: each figure is their sum"
                             : "(one direction")
              << "; MiB = 2^20 bytes, as perftest's MB; cpu: us per message, each side's own; "
                 "vcsw: the client's)\n";
    std::printf(" %-10s %-10s %14s %14s %12s %11s %11s %12s\n", "#bytes", "#iters", "BW avg[MiB/s]",
                "BW avg[Gb/s]", "rate[Mpps]", "cpu_cli[us]", "cpu_srv[us]", "vcsw_cli/msg");
  }
  std::cout << std::string(100, '-') << "\n";
}

void TableReporter::ReportRuns(const std::vector<Run>& runs) {
  clear_progress();
  for (const auto& run : runs) {
    // One table per spec but for its size, which is the first column.
    const auto found = specs_.find(run.run_name.function_name);
    if (found == specs_.end()) continue;  // not one of ours
    const TestSpec& spec = found->second;
    const std::string size = std::to_string(spec.size);
    const std::string group = spec.table_name();
    const bool latency = spec.mode == Mode::kLatency;
    if (group != group_) {
      group_ = group;
      header(spec);
    }
    const std::string iters =
        run.run_type == Run::RT_Aggregate ? run.aggregate_name : std::to_string(run.iterations);
    if (run.error_occurred) {
      std::printf(" %-10s %-10s ERROR: %s\n", size.c_str(), iters.c_str(),
                  run.error_message.c_str());
      continue;
    }
    if (latency) {
      std::printf(" %-10s %-10s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %11.2f %11.2f\n",
                  size.c_str(), iters.c_str(), counter(run, "lat_min_us"),
                  counter(run, "lat_p50_us"), counter(run, "lat_mean_us"),
                  counter(run, "lat_stddev_us"), counter(run, "lat_p99_us"),
                  counter(run, "lat_p999_us"), counter(run, "lat_max_us"),
                  counter(run, "client_cpu_us_per_msg"), counter(run, "server_cpu_us_per_msg"));
    } else {
      const double bps = counter(run, "bytes_per_second");
      std::printf(" %-10s %-10s %14.2f %14.3f %12.6f %11.2f %11.2f %12.3f\n", size.c_str(),
                  iters.c_str(), bps / (1 << 20), bps * 8 / 1e9,
                  counter(run, "msgs_per_second") / 1e6, counter(run, "client_cpu_us_per_msg"),
                  counter(run, "server_cpu_us_per_msg"), counter(run, "client_vcsw_per_msg"));
    }
  }
  std::cout << std::flush;
}

}  // namespace rdmabench
