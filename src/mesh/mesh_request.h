// What `rdmabench mesh` was asked for (cli/mesh_command.cpp builds it), and what of it a rank
// runs its pairs and flows with.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "channel/tls_context.h"
#include "core/peer_address.h"
#include "mesh/mesh_report.h"
#include "mesh/pair_measurement.h"
#include "mesh/rank_place.h"
#include "mesh/traffic.h"
#include "spec/test_spec.h"

namespace rdmabench {

// The mesh a user asked for, as every rank runs it.
struct MeshRequest {
  std::vector<TestSpec> specs;          // one per mode, measured in this order
  std::optional<Bootstrap> cm;          // --cm; nullopt (auto): settled once every rank is known
  std::map<Mode, uint64_t> iterations;  // messages per pair, by mode
  std::string schedule = "shift";       // shift, isolated or sampled (unless pairs_file)
  TrafficKind traffic = TrafficKind::kPairs;  // --traffic: pairs (the schedule), or a plan's
  int fan = 0;                                // --fan: 0, the plan's default
  std::string pairs_file;                     // read by rank 0
  std::string topology_file;                  // --topology, read by rank 0: the hosts' groups
  uint32_t partners = 1;                      // sampled: other groups' ranks per sampling round
  uint32_t sample_rounds = 0;                 // sampled: 0: enough to cover every group pair once
  MeshJudgement judge;                        // --min-fraction, --max-resends
  uint32_t repetitions =
      1;  // --repetitions: the schedule this many times, each pair judged on its best
  uint16_t port = kDefaultControlPort;          // a host's k-th rank serves on port + k
  std::vector<std::string> devices, addresses;  // by local rank; empty: defaults
  PairRunOptions run;
  std::string matrices = "auto";   // --matrices: which counters the report keeps as matrices
  std::string out_file;            // written by rank 0
  std::string metrics_file;        // --metrics, written by rank 0
  bool verbose = false;            // every rank's server logs to stderr
  ChannelCredentials credentials;  // --key or --cert: every pair's control channel over TLS 1.3
  nlohmann::json params;
  int dry_run_ranks = 0;  // --dry-run --ranks N: the plan for N ranks alone (mesh_preview.h)
};

// --cm auto: out of band, unless a rank's device connects through rdma_cm only (iWARP), when
// every pair takes rdma_cm. `fabrics`: each rank's, as to_string(Fabric) names it (an unknown
// or missing one counts as out of band).
Bootstrap settle_mesh_bootstrap(const std::vector<std::string>& fabrics);
// The same for a whole request (--cm given: as it is). Throws Error(kUsage) where it settles on
// rdma_cm and a --gid-index was given, which rdma_cm would ignore.
void settle_mesh_bootstrap(MeshRequest& job, const std::vector<std::string>& fabrics);

// What this rank's pairs or flows run with for `spec`: the job's options, the spec's
// iterations, and this rank's device, port and address.
PairRunOptions rank_run_options(const MeshRequest& job, const TestSpec& spec, const RankPlace& me);

}  // namespace rdmabench
