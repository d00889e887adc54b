// `rdmabench mesh --traffic`: the rounds of a traffic plan, every rank's flows of a round at
// once, and the hosts judged at rank 0 on what each one's NIC carried. Every rank runs
// plan.slots() servers (mesh_job.cpp starts them), slot s of a host's k-th rank on
// port + s * (ranks on that host) + k, so that several clients can send into one rank at once.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "mesh/mesh_request.h"
#include "mesh/mpi_world.h"
#include "mesh/rank_place.h"
#include "mesh/traffic.h"
#include "mesh/traffic_report.h"

namespace rdmabench {

// Runs the plan's rounds for the job's benchmark (--repetitions times), gathers every rank's
// flows at rank 0 a few ranks at a time, and judges the hosts. Rank 0 returns the report; the
// other ranks none. A rank's flows that rank 0 cannot take end the job (MPI_Abort) with its
// code.
// The ranks as the flows reach them, and what the report says of them.
struct TrafficRanks {
  const std::vector<RankPlace>& places;  // by rank
  const std::vector<MeshHost>& hosts;    // by rank, for the report
  nlohmann::json context;                // the report's
};
std::optional<TrafficReport> run_traffic(const MpiWorld& world, const MeshRequest& job,
                                         const TrafficPlan& plan, TrafficRanks ranks,
                                         std::ostream& log);

}  // namespace rdmabench
