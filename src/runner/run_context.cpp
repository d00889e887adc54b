#include "runner/run_context.h"

#include <algorithm>
#include <sstream>

#include "core/build_info.h"
#include "core/version.h"
#include "datapath/injected_work.h"
#include "host/host_info.h"

namespace rdmabench {

namespace {

// A side's path field as the server or ibv_query_qp gave it (null when unknown).
nlohmann::json path_value(const nlohmann::json& paths, const char* side, const char* key) {
  const auto it = paths.find(side);
  if (it == paths.end() || !it->contains(key)) return nullptr;
  return (*it)[key];
}

std::string path_field(const nlohmann::json& paths, const char* side, const char* key) {
  const nlohmann::json v = path_value(paths, side, key);
  return v.is_null() ? "?" : v.is_string() ? v.get<std::string>() : v.dump();
}

// The report of the port the QPs use: the one their path names, else --ib-port's, else the
// device's first.
const PortReport& port_in_use(const RunPlan& r, const LocalProbe& p, const nlohmann::json& paths) {
  const nlohmann::json number = path_value(paths, "client", "port");
  const int wanted = number.is_number_integer() ? number.get<int>() : r.suite.peer.ib_port;
  for (const PortReport& port : p.device.ports)
    if (port.number == wanted) return port;
  return p.device.ports.at(0);
}

// The facts of each side, under the same keys (null where that side does not say): what runs
// there, its device and port, the path its QPs really use (paths_in_use, asked of each QP with
// ibv_query_qp), and where its threads and buffers are.
constexpr const char* kSideKeys[] = {
    "host",         "version",         "kernel",     "rdma_core",   "timing",       "timing_mode",
    "icount_shift", "qemu_version",    "device",     "driver",      "fabric",       "firmware",
    "link_layer",   "link_speed_gbps", "link_width", "active_mtu",  "port",         "gid_index",
    "gid",          "gid_type",        "path_mtu",   "qp_timeout",  "outs",         "inline",
    "srq",          "post_api",        "tclass",     "sl",          "comp_vectors", "page_size",
    "cpus",         "cpu_choice",      "numa_node",  "memory_node", "pci",          "pcie_link",
    "machine"};

// The path fields of one side's QPs, under the side's keys (the path's "mtu" is path_mtu).
nlohmann::json path_facts(const nlohmann::json& paths, const char* side) {
  nlohmann::json facts = nlohmann::json::object();
  const auto it = paths.find(side);
  if (it == paths.end() || !it->is_object()) return facts;
  for (const auto& [key, value] : it->items()) {
    const std::string name = key == "mtu" ? "path_mtu" : key;
    if (std::ranges::find(kSideKeys, name) != std::end(kSideKeys)) facts[name] = value;
  }
  return facts;
}

// Every key of kSideKeys, from `facts` or null.
nlohmann::json side_object(const nlohmann::json& facts) {
  nlohmann::json side = nlohmann::json::object();
  for (const char* key : kSideKeys) side[key] = facts.contains(key) ? facts[key] : nullptr;
  return side;
}

nlohmann::json client_facts(const RunPlan& r, const LocalProbe& p, const nlohmann::json& paths) {
  const PortReport& port = port_in_use(r, p, paths);
  nlohmann::json facts = {
      {"host", host_name()},
      {"version", kVersion},
      {"kernel", kernel_release()},
      {"rdma_core", rdma_core_version()},
      {"timing", p.timing.describe()},
      {"timing_mode", p.timing.mode},
      {"icount_shift", p.timing.icount_shift.empty()
                           ? nlohmann::json(nullptr)
                           : nlohmann::json(std::stoi(p.timing.icount_shift))},
      {"qemu_version", p.timing.qemu_version.empty() ? nlohmann::json(nullptr)
                                                     : nlohmann::json(p.timing.qemu_version)},
      {"device", p.device.name},
      {"driver", p.device.driver},
      {"firmware", p.device.firmware},
      {"link_layer", port.link_layer},
      {"link_speed_gbps", port.speed_gbps},
      {"link_width", port.width},
      {"active_mtu", port.active_mtu}};
  facts.update(path_facts(paths, "client"));
  facts.update(p.placement.fields());  // cpus, cpu_choice, numa_node, memory_node, pci, pcie_link
  return side_object(facts);
}

nlohmann::json server_facts(const nlohmann::json& hello, const nlohmann::json& paths) {
  nlohmann::json facts = path_facts(paths, "server");
  for (const auto& [key, field] :
       {std::pair{"host", "hostname"}, std::pair{"version", "version"},
        std::pair{"kernel", "kernel"}, std::pair{"rdma_core", "rdma_core"},
        std::pair{"timing", "timing"}})
    if (hello.contains(field) && hello[field].is_string()) facts[key] = hello[field];
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

nlohmann::json run_context(const RunPlan& r, const LocalProbe& p, const nlohmann::json& hello,
                           const nlohmann::json& paths) {
  return {
      {"rdmabench_schema", kResultsSchemaVersion},
      {"rdmabench_version", kVersion},
      {"rdmabench_revision", build_revision()},
      {"rdmabench_build_type", build_type()},
      {"rdmabench_compiler", build_compiler()},
      {"rdmabench_injected_work", injected_work()},
      {"client", client_facts(r, p, paths)},
      {"server", server_facts(hello, paths)},
      {"path_error", paths.value("error", std::string())},
      {"bootstrap", to_string(p.choice.method)},
      {"bootstrap_reason", p.choice.reason},
      {"clock", "CLOCK_MONOTONIC, resolution " + std::to_string(p.clock.resolution_ns) + " ns"},
      {"sample_clock", p.sample_clock.name()},
      {"sample_clock_detail", p.sample_clock.description()},
      {"rdmabench_params", r.params},
  };
}

std::string banner(const RunPlan& r, const LocalProbe& p, const nlohmann::json& hello,
                   const nlohmann::json& paths) {
  const PortReport& port = port_in_use(r, p, paths);
  std::ostringstream out;
  out << "rdmabench " << kVersion << ": " << p.device.name << " (" << p.device.driver << ", "
      << port.link_layer << ", port " << path_field(paths, "client", "port") << ", MTU "
      << path_field(paths, "client", "mtu") << ", GID " << path_field(paths, "client", "gid_index")
      << " " << path_field(paths, "client", "gid_type") << ") -> "
      << hello.value("hostname", std::string("?")) << " " << r.suite.peer.host << ":"
      << r.suite.peer.port << " via " << to_string(p.choice.method) << " (" << p.choice.reason
      << ")\n";
  if (p.timing.deterministic()) out << "timing: " << p.timing.describe() << "\n";
  return out.str();
}

}  // namespace rdmabench
