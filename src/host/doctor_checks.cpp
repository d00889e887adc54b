#include "host/doctor_checks.h"

#include "core/fabric.h"
#include "core/provider_facts.h"

#include <algorithm>
#include <sstream>

#include "core/byte_units.h"
#include "host/host_memory.h"
#include "host/kernel_tuning.h"

namespace rdmabench {

namespace {

std::string speed_text(const PortReport& port) {
  std::ostringstream s;
  s << port.speed_gbps << " Gb/s " << port.width;
  return s.str();
}

Finding port_state(const std::string& subject, const PortReport& port) {
  if (port.state == "ACTIVE") return {Level::kOk, subject, "state", "ACTIVE", "", "ACTIVE", false};
  return {Level::kFail,
          subject,
          "state",
          port.state,
          "bring the link up (cable, switch port, `ip link set NETDEV up` for RoCE) before "
          "measuring; `rdma link` shows every port",
          port.state,
          true};
}

Finding port_mtu(const std::string& subject, const PortReport& port) {
  const std::string seen =
      std::to_string(port.active_mtu) + " B of at most " + std::to_string(port.max_mtu) + " B";
  if (port.active_mtu >= port.max_mtu)
    return {Level::kOk, subject, "MTU", seen, "", std::to_string(port.active_mtu), true};
  std::string advice = "every message is cut into smaller packets than the port allows";
  if (port.link_layer == "Ethernet")
    advice += "; raise " + (port.netdev.empty() ? std::string("the netdev") : port.netdev) +
              "'s MTU (`ip link set " + (port.netdev.empty() ? "NETDEV" : port.netdev) +
              " mtu 9000`) on both hosts and the switch";
  else
    advice += "; the subnet manager's partition sets it";
  return {Level::kWarn, subject, "MTU", seen, advice, std::to_string(port.active_mtu), true};
}

}  // namespace

std::vector<Finding> check_ports(const DeviceReport& device) {
  std::vector<Finding> out;
  for (const PortReport& port : device.ports) {
    const std::string subject = device.name + " port " + std::to_string(port.number);
    out.push_back(port_state(subject, port));
    out.push_back({Level::kOk, subject, "link", speed_text(port) + " " + port.link_layer, "",
                   speed_text(port), true});
    out.push_back(port_mtu(subject, port));
  }
  return out;
}

std::vector<Finding> check_locality(const DeviceReport& device, const DeviceLocality& where,
                                    const CpuTopology& topology) {
  std::vector<Finding> out;
  if (!where.link) {
    out.push_back(
        {Level::kOk, device.name, "PCIe link", "none (" + where.where() + ")", "", "none", true});
  } else if (where.link->below_maximum()) {
    out.push_back(
        {Level::kWarn, device.name, "PCIe link",
         where.link->describe() + " at " + where.pci_address,
         "the slot trained below the card's maximum, which caps bandwidth: reseat the "
         "card, check the slot's wiring and the BIOS's bifurcation and link-speed settings",
         where.link->describe(), true});
  } else {
    out.push_back({Level::kOk, device.name, "PCIe link",
                   where.link->describe() + " at " + where.pci_address, "", where.link->describe(),
                   true});
  }
  const CpuPlacement chosen = choose_placement(where, topology, {});
  const bool unknown_on_many =
      where.numa_node < 0 && topology.nodes.size() > 1 && !where.pci_address.empty();
  out.push_back({unknown_on_many ? Level::kWarn : Level::kOk, device.name, "NUMA",
                 "default placement: " + chosen.reason,
                 unknown_on_many ? "the firmware gives this PCI device no NUMA node on a host of " +
                                       std::to_string(topology.nodes.size()) +
                                       " nodes: pin with --cpus to the socket the slot is wired to"
                                 : "",
                 where.numa_node < 0 ? "none" : std::to_string(where.numa_node), false});
  return out;
}

Finding check_firmware(const DeviceReport& device) {
  const std::string fw = device.firmware.empty() ? "not reported" : device.firmware;
  return {Level::kOk, device.name, "firmware", fw + " (driver " + device.driver + ")",
          "",         fw,          true};
}

std::optional<Finding> check_roce_gids(const DeviceReport& device) {
  bool ethernet = false, v2 = false, any = false;
  for (const PortReport& port : device.ports) {
    // RoCE's GIDs only: an iWARP port's one GID comes from its MAC and routes nothing.
    if (port.link_layer != "Ethernet" || port.fabric == to_string(Fabric::kIwarp)) continue;
    ethernet = true;
    for (const GidEntry& gid : port.gids) {
      any = true;
      v2 = v2 || gid.type == GidType::kRoceV2;
    }
  }
  if (!ethernet) return std::nullopt;
  if (v2) return Finding{Level::kOk, device.name, "RoCE v2 GID", "present", "", "yes", true};
  if (!any)
    return Finding{Level::kFail,
                   device.name,
                   "RoCE v2 GID",
                   "no GID at all",
                   "give the netdev under the device an IP address: RoCE GIDs are made from them",
                   "none",
                   true};
  return Finding{Level::kWarn,
                 device.name,
                 "RoCE v2 GID",
                 "only RoCE v1 GIDs",
                 "RoCE v1 does not cross an IP router and most fabrics configure PFC/ECN for v2: "
                 "check the driver's default GID type (configfs rdma_cm default_roce_mode)",
                 "v1 only",
                 true};
}

Finding check_governors(const std::map<int, std::string>& governors) {
  if (governors.empty())
    return {Level::kOk,
            "host",
            "CPU frequency",
            "no cpufreq scaling (a fixed-frequency CPU or a virtual machine)",
            "",
            "none",
            true};
  std::map<std::string, int> count;
  for (const auto& [cpu, g] : governors) ++count[g];
  std::string seen;
  for (const auto& [g, n] : count)
    seen += (seen.empty() ? "" : ", ") + g + " on " + std::to_string(n) + " CPUs";
  if (count.size() == 1 && count.begin()->first == "performance")
    return {Level::kOk, "host", "CPU frequency", "governor " + seen, "", "performance", true};
  return {Level::kWarn,
          "host",
          "CPU frequency",
          "governor " + seen,
          "a governor other than performance lets the clock drop between messages, which "
          "inflates latency: `cpupower frequency-set -g performance` while measuring",
          seen,
          true};
}

Finding check_kernel_tuning(const std::vector<std::string>& words) {
  if (words.empty())
    return {Level::kOk, "host", "kernel tuning", "none on the kernel command line", "",
            "none",     true};
  const std::string said = kernel_tuning_text(words);
  return {Level::kOk, "host", "kernel tuning", "kernel command line: " + said, "", said, true};
}

Finding check_hugepages(const std::string& meminfo) {
  const long free_pages = meminfo_value(meminfo, "HugePages_Free");
  const long size_kb = meminfo_value(meminfo, "Hugepagesize");
  if (free_pages < 0)
    return {Level::kWarn,
            "host",
            "hugepages",
            "/proc/meminfo says nothing of them",
            "--hugepages needs a kernel with hugetlbfs",
            "unknown",
            false};
  const std::string seen =
      std::to_string(free_pages) + " free of " + std::to_string(size_kb) + " kB";
  if (free_pages > 0) return {Level::kOk, "host", "hugepages", seen, "", seen, false};
  return {Level::kOk,
          "host",
          "hugepages",
          seen + " (only --hugepages needs them)",
          "to use --hugepages: `echo 64 > /proc/sys/vm/nr_hugepages` (128 MiB)",
          seen,
          false};
}

Finding check_memlock(const DoctorFacts& facts) {
  const std::string need =
      "a default run registers " + mib_text(facts.default_run_bytes) + " a side";
  if (!facts.memlock_bytes)
    return {Level::kOk, "host", "memlock", "unlimited; " + need, "", "unlimited", false};
  const std::string limit = "limit " + mib_text(*facts.memlock_bytes);
  const auto binds_root = std::ranges::find_if(facts.devices, [](const DeviceReport& d) {
    const auto provider = provider_by_vendor(d.vendor_id);
    return provider && provider->memlock_binds_root;
  });
  if (facts.lock_capability && binds_root == facts.devices.end())
    return {Level::kOk, "host",       "memlock", limit + " but CAP_IPC_LOCK lifts it; " + need,
            "",         "capability", false};
  if (*facts.memlock_bytes >= facts.default_run_bytes)
    return {Level::kOk, "host", "memlock", limit + "; " + need, "", limit, false};
  return {Level::kFail,
          "host",
          "memlock",
          limit + " < " + need,
          std::string("memory registration will fail") +
              (binds_root != facts.devices.end()
                   ? " (" + binds_root->driver + " counts it against the limit even for root)"
                   : "") +
              ": `ulimit -l unlimited`, or memlock in /etc/security/limits.d/ (LimitMEMLOCK= "
              "for a systemd service)",
          limit,
          false};
}

Finding no_device_finding() {
  return {Level::kFail,
          "host",
          kNoDeviceCheck,
          "none",
          "load the NIC's driver (mlx5_ib, irdma, bnxt_re, efa, cxgb4, or rdma_rxe with `rdma "
          "link add rxe0 type rxe netdev ETH`, or siw with `rdma link add siw0 type siw netdev "
          "ETH`), install the matching rdma-core provider "
          "(ibverbs-providers), and check /dev/infiniband/uverbs* is readable",
          "none",
          true};
}

std::vector<Finding> run_checks(const DoctorFacts& facts) {
  std::vector<Finding> out;
  if (facts.devices.empty()) out.push_back(no_device_finding());
  for (const DeviceReport& device : facts.devices) {
    for (Finding& f : check_ports(device)) out.push_back(std::move(f));
    out.push_back(check_firmware(device));
    if (auto gids = check_roce_gids(device)) out.push_back(std::move(*gids));
    const auto where = facts.locality.find(device.name);
    const DeviceLocality unknown{device.name, "", "", -1, {}, std::nullopt};
    for (Finding& f : check_locality(
             device, where == facts.locality.end() ? unknown : where->second, facts.topology))
      out.push_back(std::move(f));
  }
  out.push_back(check_governors(facts.governors));
  out.push_back(check_hugepages(facts.meminfo));
  out.push_back(check_memlock(facts));
  out.push_back(check_kernel_tuning(facts.kernel_tuning));
  return out;
}

}  // namespace rdmabench
