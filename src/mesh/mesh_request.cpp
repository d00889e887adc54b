#include "mesh/mesh_request.h"

#include "core/fabric.h"
#include "spec/spec_validation.h"

namespace rdmabench {

PairRunOptions rank_run_options(const MeshRequest& job, const TestSpec& spec, const RankPlace& me) {
  PairRunOptions run = job.run;
  run.tls = job.credentials.context(TlsContext::Role::kClient);
  run.length.iterations = job.iterations.at(spec.mode);
  run.local.device = me.device;
  run.local.ib_port = me.ib_port;
  run.source_address = me.address;
  return run;
}

Bootstrap settle_mesh_bootstrap(const std::vector<std::string>& fabrics) {
  for (const std::string& name : fabrics) {
    const auto fabric = parse_fabric(name);
    if (fabric && !connects_out_of_band(*fabric)) return Bootstrap::kRdmaCm;
  }
  return Bootstrap::kOob;
}

void settle_mesh_bootstrap(MeshRequest& job, const std::vector<std::string>& fabrics) {
  if (job.cm) return;
  const Bootstrap bootstrap = settle_mesh_bootstrap(fabrics);
  validate_local_device(job.run.local, bootstrap);
  for (TestSpec& s : job.specs) s.bootstrap = bootstrap;
}

}  // namespace rdmabench
