#include "mesh/host_identity.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include "core/device_report.h"
#include "core/error.h"
#include "datapath/default_registration.h"
#include "host/device_locality.h"
#include "host/device_probe.h"
#include "host/doctor_facts.h"
#include "host/host_info.h"
#include "host/timing_environment.h"
#include "verbs/context.h"
#include "verbs/device_list.h"

namespace rdmabench {

nlohmann::json port_identity(const DeviceReport& report) {
  const PortReport* port = first_active_port(report);
  if (port == nullptr && !report.ports.empty()) port = &report.ports.front();  // fails later
  if (port == nullptr) return nlohmann::json::object();
  nlohmann::json j = {{"ib_port", port->number},
                      {"link_layer", port->link_layer},
                      {"fabric", port->fabric},
                      {"port_state", port->state}};
  for (const GidEntry& gid : port->gids)
    if (port->default_gid_index && gid.index == *port->default_gid_index) {
      j["gid_index"] = gid.index;
      j["gid"] = format_gid(gid.raw);
      j["gid_type"] = to_string(gid.type);
    }
  return j;
}

nlohmann::json host_identity(int rank, const std::string& address, uint16_t port,
                             const std::string& device) {
  const DeviceList devices;
  if (devices.empty()) throw Error(ExitCode::kNoDevice, no_device_advice());
  const DeviceReport report = describe_device(devices.open(device));
  const TimingEnvironment timing = timing_environment();
  nlohmann::json j = {{"rank", rank},
                      {"hostname", host_name()},
                      {"address", address},
                      {"port", port},
                      {"device", report.name},
                      {"driver", report.driver},
                      {"firmware", report.firmware},
                      {"node_guid", report.node_guid},
                      {"kernel", kernel_release()},
                      {"rdma_core", rdma_core_version()},
                      {"timing", timing.describe()},
                      {"acceleration", timing.acceleration}};
  const DeviceLocality where = read_device_locality("/sys", report.name);
  j["numa_node"] = where.numa_node >= 0 ? nlohmann::json(where.numa_node) : nullptr;
  j["pci"] =
      where.pci_address.empty() ? nlohmann::json(nullptr) : nlohmann::json(where.pci_address);
  j["pcie_link"] = where.link ? nlohmann::json(where.link->describe()) : nullptr;
  const std::vector<Finding> findings =
      run_checks(gather_doctor_facts(default_run_registered_bytes(), timing.kernel_tuning));
  j["doctor"] = compared_findings(findings, report.name);
  j["doctor_worst"] = to_string(worst(findings));
  j.update(port_identity(report));
  return j;
}

std::string first_ipv4_address() {
  ifaddrs* all = nullptr;
  if (getifaddrs(&all) != 0) return "";
  std::string found;
  for (const ifaddrs* a = all; a != nullptr && found.empty(); a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET) continue;
    const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
    if ((ntohl(in->sin_addr.s_addr) >> 24) == 127) continue;
    char text[INET_ADDRSTRLEN];
    if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text)) != nullptr) found = text;
  }
  freeifaddrs(all);
  return found;
}

}  // namespace rdmabench
