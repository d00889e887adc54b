#include "core/device_report_text.h"

#include <iomanip>

namespace rdmabench {

void print_devices(std::ostream& out, const std::vector<DeviceReport>& devices) {
  for (const auto& d : devices) {
    out << d.name << "  driver " << d.driver << "  node_guid " << d.node_guid << "  fw "
        << (d.firmware.empty() ? "-" : d.firmware) << "\n";
    for (const auto& p : d.ports) {
      out << "  port " << int(p.number) << ": " << p.state << ", " << p.fabric << " over "
          << p.link_layer << ", active_mtu " << p.active_mtu << " (max " << p.max_mtu << "), "
          << p.width << " " << std::setprecision(4) << p.speed_gbps << " Gb/s";
      if (!p.netdev.empty()) out << ", netdev " << p.netdev;
      if (p.link_layer == "InfiniBand") out << ", lid " << p.lid;
      out << "\n";
      if (p.fabric == "iWARP")
        out << "    iWARP routes by the netdev's IP address; its GID is made from the MAC\n";
      out << "    " << std::left << std::setw(7) << "index" << std::setw(9) << "type"
          << std::setw(40) << "gid" << std::setw(17) << "ipv4"
          << "netdev\n";
      for (const auto& g : p.gids) {
        const bool chosen = p.default_gid_index && *p.default_gid_index == g.index;
        out << "  " << (chosen ? "* " : "  ") << std::setw(7) << g.index << std::setw(9)
            << to_string(g.type) << std::setw(40) << format_gid(g.raw) << std::setw(17)
            << mapped_ipv4(g.raw).value_or("-") << (g.netdev.empty() ? "-" : g.netdev) << "\n";
      }
      out << std::right;
      if (p.default_gid_index) {
        out << "    default GID index: " << *p.default_gid_index
            << " (marked *; override with --gid-index)\n";
      } else {
        out << "    default GID index: none (no usable GID on this port)\n";
      }
    }
  }
}

}  // namespace rdmabench
