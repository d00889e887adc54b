#include "mesh/traffic_job.h"

#include <chrono>
#include <iostream>

#include "core/error.h"
#include "mesh/flow_measurement.h"
#include "mesh/traffic_report.h"
#include "mesh/traffic_rows.h"
#include "mesh/traffic_verdict.h"

namespace rdmabench {

namespace {

using Clock = std::chrono::steady_clock;

void show_round(const MeshRequest& job, const TrafficPlan& plan, uint32_t repetition, size_t round,
                Clock::time_point started) {
  const size_t total = plan.rounds() * job.repetitions;
  std::cerr << "[" << repetition * plan.rounds() + round + 1 << "/" << total << "] "
            << to_string(plan.kind()) << " " << job.specs.front().name() << ": round " << round + 1
            << "/" << plan.rounds() << ", " << plan.flow_count(round) << " flows at once ("
            << std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started).count()
            << " s)\n"
            << std::flush;
}

// Every round of every repetition; this rank's flows as their client measured them.
std::vector<FlowRow> run_rounds(const MpiWorld& world, const MeshRequest& job,
                                const TrafficPlan& plan, const std::vector<RankPlace>& ranks,
                                std::ostream& log) {
  const TestSpec& spec = job.specs.front();
  const PairRunOptions run = rank_run_options(job, spec, ranks[static_cast<size_t>(world.rank())]);
  const FlowConnect connect = [&](const TrafficFlow& f) -> std::unique_ptr<RunSource> {
    const RankPlace& server = ranks[static_cast<size_t>(f.server)];
    return connect_pair({server.address, slot_port(server, f.slot)}, spec, run, log);
  };
  std::vector<FlowRow> mine;
  const auto started = Clock::now();
  for (uint32_t rep = 0; rep < job.repetitions; ++rep)
    for (size_t k = 0; k < plan.rounds(); ++k) {
      world.barrier();  // the round's flows start their set-up together...
      if (world.rank() == 0) show_round(job, plan, rep, k, started);
      const auto flows = plan.flows_from(world.rank(), k);
      // ...and their windows once every rank's flows are ready
      const auto results = measure_flows(flows, spec, run, connect, [&] { world.barrier(); });
      for (const PairResult& r : results)
        mine.push_back(flow_row(r, static_cast<uint32_t>(rep * plan.rounds() + k)));
    }
  world.barrier();  // no client is still connected to any server
  return mine;
}

// Every rank's flows at rank 0, each rank's checked against the plan; empty elsewhere.
std::vector<FlowRow> gather_flows(const MpiWorld& world, const MeshRequest& job,
                                  const TrafficPlan& plan, const std::vector<FlowRow>& mine) {
  std::vector<FlowRow> all;
  world.stream_to_root([&] { return rank_flows_text(mine); },
                       [&](int rank, std::string_view bytes) {
                         for (FlowRow& row : parse_rank_flows(bytes, rank, plan, job.repetitions))
                           all.push_back(std::move(row));
                       },
                       rank_flows_max_bytes(plan, job.repetitions), 0);
  return all;
}

TrafficReport report_of(const MeshRequest& job, const TrafficPlan& plan, TrafficRanks ranks,
                        const std::vector<FlowRow>& all) {
  TrafficReport report{std::move(ranks.context),
                       ranks.hosts,
                       traffic_facts(plan, job.specs.front().qps, job.repetitions,
                                     static_cast<double>(job.run.length.duration_ns) * 1e-9,
                                     job.judge.min_fraction, all.size()),
                       judge_traffic(all, plan.ranks(), job.judge.min_fraction),
                       {}};
  for (const FlowRow& f : all)
    if (f.exit_code != 0 && report.failed.size() < kListedFailedFlows) report.failed.push_back(f);
  return report;
}

}  // namespace

std::optional<TrafficReport> run_traffic(const MpiWorld& world, const MeshRequest& job,
                                         const TrafficPlan& plan, TrafficRanks ranks,
                                         std::ostream& log) {
  const std::vector<FlowRow> mine = run_rounds(world, job, plan, ranks.places, log);
  try {
    const std::vector<FlowRow> all = gather_flows(world, job, plan, mine);
    if (world.rank() != 0) return std::nullopt;
    return report_of(job, plan, std::move(ranks), all);
  } catch (const Error& e) {  // the other ranks wait in a gather this rank has left
    std::cerr << "rdmabench mesh: rank " << world.rank() << ": " << e.what()
              << "; ending the job\n";
    world.abort(static_cast<int>(e.exit_code()));
  }
}

}  // namespace rdmabench
