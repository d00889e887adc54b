#include "runner/run_context.h"

#include <sstream>

#include "core/build_info.h"
#include "core/version.h"
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
  const int wanted = number.is_number_integer() ? number.get<int>() : r.suite.ib_port;
  for (const PortReport& port : p.device.ports)
    if (port.number == wanted) return port;
  return p.device.ports.at(0);
}

// What each side's QPs really use (paths_in_use): the client's under the plain key, the
// server's under "server_" (path_mtu is the path's "mtu").
void add_paths_in_use(nlohmann::json& context, const nlohmann::json& paths) {
  static constexpr std::pair<const char*, const char*> kClient[] = {
      {"port", "port"},
      {"gid_index", "gid_index"},
      {"gid", "gid"},
      {"gid_type", "gid_type"},
      {"path_mtu", "mtu"},
      {"qp_timeout", "qp_timeout"},
      {"outs", "outs"},
      {"inline", "inline"},
      {"srq", "srq"},
      {"tclass", "tclass"},
      {"sl", "sl"},
      {"comp_vectors", "comp_vectors"},
      {"page_size", "page_size"}};
  static constexpr std::pair<const char*, const char*> kServer[] = {
      {"server_device", "device"},
      {"server_firmware", "firmware"},
      {"server_port", "port"},
      {"server_link_speed_gbps", "link_speed_gbps"},
      {"server_link_width", "link_width"},
      {"server_gid_index", "gid_index"},
      {"server_gid", "gid"},
      {"server_path_mtu", "mtu"},
      {"server_qp_timeout", "qp_timeout"},
      {"server_outs", "outs"},
      {"server_inline", "inline"},
      {"server_srq", "srq"},
      {"server_tclass", "tclass"},
      {"server_sl", "sl"},
      {"server_comp_vectors", "comp_vectors"},
      {"server_page_size", "page_size"},
      {"server_cpus", "cpus"},
      {"server_cpu_choice", "cpu_choice"},
      {"server_numa_node", "numa_node"},
      {"server_memory_node", "memory_node"},
      {"server_pci", "pci"},
      {"server_pcie_link", "pcie_link"}};
  for (const auto& [key, field] : kClient) context[key] = path_value(paths, "client", field);
  for (const auto& [key, field] : kServer) context[key] = path_value(paths, "server", field);
}

}  // namespace

nlohmann::json run_context(const RunPlan& r, const LocalProbe& p, const nlohmann::json& hello,
                           const nlohmann::json& paths) {
  auto server = [&](const char* key) {
    const auto it = hello.find(key);
    return it != hello.end() && it->is_string() ? it->get<std::string>() : std::string("?");
  };
  const PortReport& port = port_in_use(r, p, paths);
  const nlohmann::json icount_shift = p.timing.icount_shift.empty()
                                          ? nlohmann::json(nullptr)
                                          : nlohmann::json(std::stoi(p.timing.icount_shift));
  nlohmann::json context = {
      {"rdmabench_schema", kResultsSchemaVersion},
      {"rdmabench_version", kVersion},
      {"rdmabench_revision", build_revision()},
      {"rdmabench_build_type", build_type()},
      {"client_host", host_name()},
      {"server_host", server("hostname")},
      {"server_version", server("version")},
      {"device", p.device.name},
      {"driver", p.device.driver},
      {"firmware", p.device.firmware},
      {"link_layer", port.link_layer},
      {"link_speed_gbps", port.speed_gbps},
      {"link_width", port.width},
      {"active_mtu", port.active_mtu},
      {"path_error", paths.value("error", std::string())},
      {"client_kernel", kernel_release()},
      {"server_kernel", server("kernel")},
      {"rdma_core", rdma_core_version()},
      {"server_rdma_core", server("rdma_core")},
      {"bootstrap", to_string(p.choice.method)},
      {"bootstrap_reason", p.choice.reason},
      {"timing", p.timing.describe()},
      {"timing_mode", p.timing.mode},
      {"icount_shift", icount_shift},
      {"qemu_version", p.timing.qemu_version},
      {"server_timing", server("timing")},
      {"clock", "CLOCK_MONOTONIC, resolution " + std::to_string(p.clock.resolution_ns) + " ns"},
      {"sample_clock", p.sample_clock.name()},
      {"sample_clock_detail", p.sample_clock.description()},
      {"rdmabench_params", r.params},
  };
  add_paths_in_use(context, paths);
  context.update(p.placement.fields());  // cpus, cpu_choice, numa_node, memory_node, pci, pcie_link
  return context;
}

std::string banner(const RunPlan& r, const LocalProbe& p, const nlohmann::json& hello,
                   const nlohmann::json& paths) {
  const PortReport& port = port_in_use(r, p, paths);
  std::ostringstream out;
  out << "rdmabench " << kVersion << ": " << p.device.name << " (" << p.device.driver << ", "
      << port.link_layer << ", port " << path_field(paths, "client", "port") << ", MTU "
      << path_field(paths, "client", "mtu") << ", GID " << path_field(paths, "client", "gid_index")
      << " " << path_field(paths, "client", "gid_type") << ") -> "
      << hello.value("hostname", std::string("?")) << " " << r.suite.host << ":" << r.suite.port
      << " via " << to_string(p.choice.method) << " (" << p.choice.reason << ")\n";
  if (p.timing.deterministic()) out << "timing: " << p.timing.describe() << "\n";
  return out.str();
}

}  // namespace rdmabench
