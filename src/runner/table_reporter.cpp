#include "runner/table_reporter.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "bench/pattern_catalogue.h"
#include "measure/device_counters.h"
#include "runner/progress_line.h"
#include "runner/run_counter.h"
#include "spec/pattern_info.h"

namespace rdmabench {

namespace {

using Run = benchmark::BenchmarkReporter::Run;

__attribute__((format(printf, 1, 2))) std::string format(const char* fmt, ...) {
  char line[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(line, sizeof line, fmt, args);
  va_end(args);
  return line;
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
  return legend + "; #iters: round trips counted; cpu: us per message, each side's own)";
}

bool paced(const TestSpec& spec) {
  return spec.rate > 0;
}

// The first column after the size: what was counted, or the aggregate's statistic.
std::string count_column(const TestSpec& spec, const Run& run) {
  if (run.run_type == Run::RT_Aggregate) return run.aggregate_name;
  if (run.error_occurred) return "-";  // it counted nothing it could report
  const double msgs = run_counter(run, "msgs");
  const double per = spec.mode == Mode::kLatency && spec.half_round_trip() ? 2 : 1;
  return format("%.0f", msgs / per);
}

// A figure's cell, `width` wide: the counter times `scale`, "-" where the row has none (no
// interval for BW peak) or it is no number (an aggregate's cv of figures that were all 0).
std::string cell(const Run& run, const std::string& name, int width, int precision,
                 double scale = 1) {
  const auto it = run.counters.find(name);
  if (it == run.counters.end() || !std::isfinite(it->second.value * scale))
    return format(" %*s", width, "-");
  return format(" %*.*f", width, precision, it->second.value * scale);
}

std::string latency_row(const TestSpec& spec, const Run& run) {
  std::string row;
  for (const char* figure : {"lat_min_us", "lat_p50_us", "lat_mean_us", "lat_stddev_us",
                             "lat_p99_us", "lat_p999_us", "lat_max_us"})
    row += cell(run, figure, 9, 2);
  row += cell(run, "client_cpu_us_per_msg", 11, 2) + cell(run, "server_cpu_us_per_msg", 11, 2);
  if (paced(spec)) row += cell(run, "offered_rate", 12, 0) + cell(run, "achieved_rate", 12, 0);
  return row;
}

std::string bandwidth_row(const TestSpec& spec, const Run& run) {
  std::string row =
      cell(run, "bytes_per_second", 14, 2, 1.0 / (1 << 20)) +
      cell(run, "bytes_per_second", 14, 3, 8 / 1e9) + cell(run, "msgs_per_second", 12, 6, 1e-6) +
      cell(run, "client_cpu_us_per_msg", 11, 2) + cell(run, "server_cpu_us_per_msg", 11, 2) +
      cell(run, "client_vcsw_per_msg", 12, 3);
  if (spec.counts_arrivals())
    row += cell(run, "sent_msgs", 12, 0) + cell(run, "received_msgs", 12, 0) +
           cell(run, "loss_fraction", 8, 3, 100);
  if (paced(spec))
    row += cell(run, "offered_msgs_per_second", 12, 0) + cell(run, "msgs_per_second", 12, 0);
  return row;
}

// A line under the row when its run retransmitted, went out of sequence or took RNR NAKs, as
// either side's port counters saw it (port-wide: other traffic on the port counts too).
std::string trouble_line(const Run& run) {
  if (run.run_type == Run::RT_Aggregate) return "";
  std::map<std::string, double> device;
  for (const auto& [name, counter] : run.counters)
    if (name.starts_with("client_dev_") || name.starts_with("server_dev_"))
      device[name] = counter.value;
  std::string line;
  for (const std::string& t : device_trouble(device)) line += (line.empty() ? "" : "; ") + t;
  return line.empty() ? "" : "   ^ the wire saw (port-wide): " + line + "\n";
}

}  // namespace

std::string table_header(const TestSpec& spec, bool bw_peak) {
  std::string out = "\n" + std::string(100, '-') + "\n " + spec.table_name() + "   ";
  if (spec.mode == Mode::kLatency) {
    out += latency_legend() + "\n";
    if (paced(spec)) out += " (--rate: round trips per second, offered and achieved)\n";
    out += format(" %-10s %-10s %9s %9s %9s %9s %9s %9s %9s %11s %11s", "#bytes", "#iters", "t_min",
                  "t_p50", "t_mean", "t_stdev", "t_p99", "t_p99.9", "t_max", "cpu_cli[us]",
                  "cpu_srv[us]");
    if (paced(spec)) out += format(" %12s %12s", "offered[/s]", "achieved[/s]");
  } else {
    out += spec.bidir ? "(both directions at once: each figure is their sum" : "(one direction";
    out +=
        "; #msgs: messages counted; MiB = 2^20 bytes, as perftest's MB; cpu: us per message, "
        "each side's own; vcsw: the client's)\n";
    if (paced(spec))
      out +=
          " (--rate: messages per second over every QP, offered and achieved; each message "
          "sent at its time, a late one at once)\n";
    if (spec.counts_arrivals())
      out += " (" + spec.transport.name() +
             ": #msgs and BW count what arrived; sent and received: the whole run's)\n";
    else if (!spec.transport->reliable)
      out += " (" + spec.transport.name() +
             ": the target is passive, so #msgs and BW are as sent; a loss would not show)\n";
    out += format(" %-10s %-10s %14s %14s %12s %11s %11s %12s", "#bytes", "#msgs", "BW avg[MiB/s]",
                  "BW avg[Gb/s]", "rate[Mpps]", "cpu_cli[us]", "cpu_srv[us]", "vcsw_cli/msg");
    if (spec.counts_arrivals()) out += format(" %12s %12s %8s", "sent", "received", "loss[%]");
    if (paced(spec)) out += format(" %12s %12s", "offered[/s]", "achieved[/s]");
    if (bw_peak) out += format(" %14s", "BW peak[MiB/s]");
  }
  return out + "\n" + std::string(100, '-') + "\n";
}

std::string table_row(const TestSpec& spec, const Run& run, bool bw_peak) {
  std::string row =
      format(" %-10s %-10s", std::to_string(spec.size).c_str(), count_column(spec, run).c_str());
  if (run.error_occurred) return row + " ERROR: " + run.error_message + "\n";
  if (spec.mode == Mode::kLatency) return row + latency_row(spec, run) + "\n" + trouble_line(run);
  return row + bandwidth_row(spec, run) +
         (bw_peak ? cell(run, "bw_peak_bytes_per_second", 14, 2, 1.0 / (1 << 20)) : "") + "\n" +
         trouble_line(run);
}

TableReporter::TableReporter(std::ostream& out, std::string context_summary,
                             const std::vector<TestSpec>& specs, bool bw_peak)
    : out_(out), summary_(std::move(context_summary)), bw_peak_(bw_peak) {
  for (const TestSpec& s : specs) specs_.emplace(s.name(), s);
}

bool TableReporter::ReportContext(const Context&) {
  out_ << summary_ << std::flush;
  return true;
}

void TableReporter::ReportRuns(const std::vector<Run>& runs) {
  clear_progress();
  for (const auto& run : runs) {
    // One table per spec but for its size, which is the first column.
    const auto found = specs_.find(run.run_name.function_name);
    if (found == specs_.end()) continue;  // not one of ours
    const TestSpec& spec = found->second;
    if (spec.table_name() != group_) {
      group_ = spec.table_name();
      out_ << table_header(spec, bw_peak_);
    }
    out_ << table_row(spec, run, bw_peak_);
  }
  out_ << std::flush;
}

}  // namespace rdmabench
