#include "mesh/mesh_report.h"

namespace rdmabench {

std::vector<MeshHost> mesh_hosts(const nlohmann::json& identities) {
  std::vector<MeshHost> hosts;
  for (const auto& id : identities) {
    MeshHost h;
    h.identity = id;
    if (!id.is_object()) {
      hosts.push_back(std::move(h));
      continue;
    }
    const auto text = [&](const char* key, std::string& into) {
      if (const auto it = id.find(key); it != id.end() && it->is_string()) into = *it;
    };
    if (const auto it = id.find("rank"); it != id.end() && it->is_number_integer())
      h.rank = it->get<int>();
    text("hostname", h.hostname);
    text("device", h.device);
    if (const auto it = id.find("doctor"); it != id.end() && it->is_object())
      for (const auto& [key, value] : it->items())
        if (value.is_string()) h.doctor.emplace(key, value.get<std::string>());
    hosts.push_back(std::move(h));
  }
  return hosts;
}

const MeshHost& host_at(const std::vector<MeshHost>& hosts, int rank) {
  static const MeshHost kUnknown;
  return rank >= 0 && static_cast<size_t>(rank) < hosts.size() ? hosts[static_cast<size_t>(rank)]
                                                               : kUnknown;
}

}  // namespace rdmabench
