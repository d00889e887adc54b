#include "runner/run_context.h"

#include <algorithm>
#include <sstream>

#include "core/build_info.h"
#include "core/version.h"
#include "datapath/injected_work.h"
#include "host/host_info.h"

namespace rdmabench {

namespace {

// The client's path, when it is known.
const PathInUse* client_path(const ServerFacts& server) {
  return server.paths ? &server.paths->client : nullptr;
}

// The report of the port the QPs use: the one their path names, else --ib-port's, else the
// device's first.
const PortReport& port_in_use(const RunPlan& r, const LocalProbe& p, const ServerFacts& server) {
  const PathInUse* path = client_path(server);
  const int wanted = path != nullptr ? path->port : r.suite.peer.local.ib_port;
  for (const PortReport& port : p.device.ports)
    if (port.number == wanted) return port;
  return p.device.ports.at(0);
}

// The facts of each side, under the same keys (null where that side does not say): what runs
// there, its device and port, the path its QPs really use (paths_in_use, asked of each QP with
// ibv_query_qp), and where its threads and buffers are.
constexpr const char* kSideKeys[] = {
    "host",         "version",      "kernel",       "rdma_core",       "timing",     "timing_mode",
    "icount_shift", "qemu_version", "acceleration", "kernel_tuning",   "device",     "driver",
    "fabric",       "firmware",     "link_layer",   "link_speed_gbps", "link_width", "active_mtu",
    "port",         "gid_index",    "gid",          "gid_type",        "path_mtu",   "qp_timeout",
    "outs",         "inline",       "srq",          "post_api",        "tclass",     "sl",
    "comp_vectors", "page_size",    "cpus",         "cpu_choice",      "numa_node",  "memory_node",
    "pci",          "pcie_link",    "machine"};

// One side's path, under the side's keys: the path reply's, its MTU as path_mtu (beside the
// port's active_mtu).
void add_path(nlohmann::json& facts, const PathInUse& path) {
  nlohmann::json fields = path_fields(path);
  fields["path_mtu"] = fields["mtu"];
  fields.erase("mtu");
  facts.update(fields);
}

// Every key of kSideKeys, from `facts` or null.
nlohmann::json side_object(const nlohmann::json& facts) {
  nlohmann::json side = nlohmann::json::object();
  for (const char* key : kSideKeys) side[key] = facts.contains(key) ? facts[key] : nullptr;
  return side;
}

}  // namespace

nlohmann::json timing_facts(const TimingEnvironment& timing) {
  return {{"timing", timing.describe()},
          {"timing_mode", timing.mode},
          {"icount_shift",
           timing.icount_shift ? nlohmann::json(*timing.icount_shift) : nlohmann::json(nullptr)},
          {"qemu_version", timing.qemu_version.empty() ? nlohmann::json(nullptr)
                                                       : nlohmann::json(timing.qemu_version)},
          {"acceleration", timing.acceleration},
          {"kernel_tuning", timing.kernel_tuning}};
}

namespace {

nlohmann::json client_facts(const RunPlan& r, const LocalProbe& p, const ServerFacts& server) {
  const PortReport& port = port_in_use(r, p, server);
  nlohmann::json facts = {{"host", host_name()},
                          {"version", kVersion},
                          {"kernel", kernel_release()},
                          {"rdma_core", p.rdma_core},
                          {"device", p.device.name},
                          {"driver", p.device.driver},
                          {"firmware", p.device.firmware},
                          {"link_layer", port.link_layer},
                          {"link_speed_gbps", port.speed_gbps},
                          {"link_width", port.width},
                          {"active_mtu", port.active_mtu}};
  facts.update(timing_facts(p.timing));
  if (const PathInUse* path = client_path(server)) add_path(facts, *path);
  facts.update(placement_fields(p.placement.facts()));
  return side_object(facts);
}

nlohmann::json server_facts(const ServerFacts& server) {
  const ServerDetails& details = server.details;
  nlohmann::json facts = {{"host", details.hostname}, {"version", details.version},
                          {"kernel", details.kernel}, {"rdma_core", details.rdma_core},
                          {"timing", details.timing}, {"kernel_tuning", details.kernel_tuning}};
  if (server.paths) {
    add_path(facts, server.paths->server.path);
    facts.update(placement_fields(server.paths->server.placement));
  }
  return side_object(facts);
}

// A test build's added work per posted message (meson -Dinject_post_work,
// -Dinject_post_work_per_kib: tools/test's slowdown build), so that its figures are never taken for
// a real build's; null in every other build.
nlohmann::json injected_work() {
  if (kInjectedWork == 0 && kInjectedWorkPerKib == 0) return nullptr;
  return {{"per_message", kInjectedWork}, {"per_kib", kInjectedWorkPerKib}};
}

}  // namespace

nlohmann::json run_context(const RunPlan& r, const LocalProbe& p, const ServerFacts& server) {
  return {
      {"rdmabench_schema", kResultsSchemaVersion},
      {"rdmabench_version", kVersion},
      {"rdmabench_revision", build_revision()},
      {"rdmabench_build_type", build_type()},
      {"rdmabench_compiler", build_compiler()},
      {"rdmabench_injected_work", injected_work()},
      {"client", client_facts(r, p, server)},
      {"server", server_facts(server)},
      {"path_error", server.path_error},
      {"bootstrap", to_string(p.choice.method)},
      {"bootstrap_reason", p.choice.reason},
      {"clock", "CLOCK_MONOTONIC, resolution " + std::to_string(p.clock.resolution_ns) + " ns"},
      {"sample_clock", p.sample_clock.name()},
      {"sample_clock_detail", p.sample_clock.description()},
      {"rdmabench_params", r.params},
  };
}

std::string banner(const RunPlan& r, const LocalProbe& p, const ServerFacts& server) {
  const PortReport& port = port_in_use(r, p, server);
  const PathInUse* path = client_path(server);
  const auto known = [&](auto field) { return path != nullptr ? field(*path) : std::string("?"); };
  std::ostringstream out;
  out << "rdmabench " << kVersion << ": " << p.device.name << " (" << p.device.driver << ", "
      << port.link_layer << ", port " << known([](auto& q) { return std::to_string(q.port); })
      << ", MTU " << known([](auto& q) { return std::to_string(q.mtu_bytes); }) << ", GID "
      << known([](auto& q) { return std::to_string(q.gid_index); }) << " "
      << known([](auto& q) { return to_string(q.gid_type); }) << ") -> " << server.details.hostname
      << " " << r.suite.peer.address.host << ":" << r.suite.peer.address.port << " via "
      << to_string(p.choice.method) << " (" << p.choice.reason << ")\n";
  if (p.timing.deterministic() || p.timing.software_emulated())
    out << "timing: " << p.timing.describe() << "\n";
  return out.str();
}

}  // namespace rdmabench
