// Which group (a rack, a leaf switch) each host of a mesh belongs to, for the sampled schedule
// (schedule.h) and the verdict on a whole group: from --topology FILE, either a list of
// "HOST GROUP" lines or Slurm's topology.conf, where each switch's Nodes= are a group (its
// Switches= lines, the levels above, are left out). The file is bounded before it is read:
// its size, each line, each hostlist's expansion.
#pragma once

#include <cstddef>
#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rdmabench {

struct Topology {
  std::map<std::string, std::string> group_of;  // host name -> group name
};

inline constexpr size_t kTopologyMaxBytes = 16u << 20;
// More hosts than any RDMA cluster has (the largest list about 10,000 nodes), and few enough
// that a 100-byte line's ranges expand in well under a second: at 2^20 a fuzzer's input of
// 121 bytes (one range of 464,603 hosts) took 3.2 s under ASan, past libFuzzer's timeout on a
// loaded machine.
inline constexpr size_t kTopologyMaxHosts = 1u << 17;

// Throws Error(kUsage) naming `source`, the line and what is wrong (printable, cut): a line
// that is neither form, a host in two groups, a hostlist that expands past kTopologyMaxHosts.
Topology parse_topology(std::istream& in, const std::string& source);

// Slurm's hostlist expression: "tux[0-3,12],node07,r[01-02]x" -> tux0 ... r02x, zero padding
// kept. Throws Error(kUsage) for a bracket left open, a range backwards, or more than `most`.
std::vector<std::string> expand_hostlist(const std::string& text, size_t most = kTopologyMaxHosts);

// The group `topology` places a rank in, by the names it may go by in the file, tried in
// order (its host name, that name's first label, its address); nullptr when none is placed.
const std::string* group_of_rank(const Topology& topology, const std::vector<std::string>& names);

// Each rank's group as an index (groups numbered in the order their first rank appears) and
// each index's name; Error(kUsage) naming the first rank the topology does not place.
std::pair<std::vector<int>, std::vector<std::string>> rank_groups(
    const Topology& topology, const std::vector<std::vector<std::string>>& names_of_rank);

}  // namespace rdmabench
