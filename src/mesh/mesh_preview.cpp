#include "mesh/mesh_preview.h"

#include "core/byte_units.h"
#include "core/count_text.h"
#include "core/time_text.h"
#include "mesh/schedule.h"

namespace rdmabench {

namespace {

// The payload of one pair's run of `spec`.
uint64_t pair_payload(const MeshRequest& job, const TestSpec& spec) {
  return spec.payload_bytes(job.iterations.at(spec.mode));
}

std::string measures_text(const MeshRequest& job, bool traffic) {
  std::string text;
  for (const TestSpec& spec : job.specs) {
    text += "  " + spec.pattern.name() + " " + to_string(spec.mode) + " at " +
            size_text(spec.size) + ", " + spec.cq.text() + " CQ, " + counted(spec.qps, "stream") +
            ": ";
    text += traffic ? timed_window_text(job.run.length) + " a flow"
                    : std::to_string(job.iterations.at(spec.mode)) +
                          (spec.mode == Mode::kLatency ? " round trips" : " messages") +
                          " a pair (" + estimate_size_text(pair_payload(job, spec)) + ")";
    text += ", after " + std::to_string(job.run.length.warmup) + " warm-up messages\n";
  }
  return text;
}

// The traffic plan's rounds and an estimate: every round is one window with its margins.
std::string traffic_text(const MeshRequest& job, int ranks) {
  const TrafficPlan plan = TrafficPlan::make(job.traffic, ranks, job.fan);
  size_t flows = 0;
  for (size_t r = 0; r < plan.rounds(); ++r) flows += plan.flow_count(r);
  const double round_s = static_cast<double>(job.run.length.window_with_margins_ns()) * 1e-9;
  return "traffic: " + to_string(job.traffic) + ", fan " + std::to_string(plan.fan()) + ": " +
         counted(plan.rounds(), "round") + ", " + counted(flows, "flow") +
         " in all, each rank serving at most " + std::to_string(plan.slots()) +
         " at once\nestimate: at least " +
         estimate_time_text(round_s * static_cast<double>(plan.rounds() * job.repetitions)) +
         ", plus each round's connections and setup\n";
}

// The schedule's rounds and an estimate: each round lasts as long as its slowest pair.
std::string schedule_text(const MeshRequest& job, int ranks) {
  if (!job.pairs_file.empty())
    return "schedule: the pairs of " + job.pairs_file +
           ", read by rank 0 when the job starts\nestimate: not made (the rounds are the file's)\n";
  const auto kind = parse_schedule_kind(job.schedule);
  if (kind == ScheduleKind::kSampled)
    return "schedule: sampled, its rounds from each host's group in " + job.topology_file +
           ", known once the ranks meet\nestimate: not made (the rounds depend on the groups)\n";
  const MeshSchedule schedule =
      kind == ScheduleKind::kIsolated ? MeshSchedule::isolated(ranks) : MeshSchedule::shift(ranks);
  const size_t rounds = schedule.rounds();
  std::string text = "schedule: " + job.schedule + ", " + counted(rounds, "round") + " of " +
                     counted(schedule.pairs_in(0), "pair") + " at once, for each mode\n";
  double payload_s = 0;
  for (const TestSpec& spec : job.specs)
    payload_s += seconds_at_estimate_link(pair_payload(job, spec));
  const double all = payload_s * static_cast<double>(rounds * job.repetitions);
  return text + "estimate: each round as long as its slowest pair; at " +
         std::to_string(kEstimateLinkGbps) + " Gb/s a pair's payload takes " +
         estimate_time_text(payload_s) + " (all modes), " + estimate_time_text(all) +
         " over the rounds, plus each pair's connection and setup\n";
}

}  // namespace

std::string mesh_preview(const MeshRequest& job, int ranks) {
  const bool traffic = job.traffic != TrafficKind::kPairs;
  std::string text = "rdmabench mesh: dry run for " + std::to_string(ranks) +
                     " ranks, nothing opened, connected or launched\n";
  text += "each " + std::string(traffic ? "flow" : "pair") + " measures:\n" +
          measures_text(job, traffic);
  if (job.repetitions > 1)
    text += "repetitions: the whole " + std::string(traffic ? "plan " : "schedule ") +
            std::to_string(job.repetitions) + " times\n";
  return text + (traffic ? traffic_text(job, ranks) : schedule_text(job, ranks));
}

}  // namespace rdmabench
