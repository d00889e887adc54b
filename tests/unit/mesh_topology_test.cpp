// --topology (topology.h): "HOST GROUP" lines and Slurm's topology.conf, Slurm's hostlists, and
// what a bad or oversized file gets.
#include "mesh/topology.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/error.h"

using namespace rdmabench;

namespace {
Topology parsed(const std::string& text) {
  std::istringstream in(text);
  return parse_topology(in, "topo");
}

std::string refusal(const std::string& text) {
  try {
    parsed(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    return e.what();
  }
  return "";
}
}  // namespace

TEST(MeshTopology, SlurmHostlistsExpandWithTheirPadding) {
  EXPECT_EQ(expand_hostlist("tux[0-3,12],node07,r[08-10]x"),
            (std::vector<std::string>{"tux0", "tux1", "tux2", "tux3", "tux12", "node07", "r08x",
                                      "r09x", "r10x"}));
  EXPECT_EQ(expand_hostlist(""), std::vector<std::string>{});
  for (const char* bad : {"tux[0-3", "tux[3-1]", "tux[a-b]", "tux[1-9999999999]"})
    EXPECT_THROW(expand_hostlist(bad), Error) << bad;
  EXPECT_THROW(expand_hostlist("n[0-99999999]"), Error);  // beyond kTopologyMaxHosts
  EXPECT_EQ(expand_hostlist("n[1-5]", 5).size(), 5u);
  EXPECT_THROW(expand_hostlist("n[1-6]", 5), Error);
}

TEST(MeshTopology, SlurmsTopologyConfGroupsEachLeafSwitchsNodes) {
  const Topology t = parsed(
      "# two racks under a spine\n"
      "SwitchName=rack1 Nodes=node[01-03] LinkSpeed=100\n"
      "switchname=rack2 nodes=node[04-05],spare\n"
      "SwitchName=spine Switches=rack[1-2]\n");
  EXPECT_EQ(t.group_of.size(), 6u);
  EXPECT_EQ(t.group_of.at("node02"), "rack1");
  EXPECT_EQ(t.group_of.at("spare"), "rack2");
}

TEST(MeshTopology, HostGroupLinesAndRanksByHostName) {
  const Topology t = parsed("a r1\nb r1  # same rack\n\nc r2\n");
  const auto [of_rank, names] = rank_groups(t, {{"c"}, {"a"}, {"b.cluster.example"}, {"x", "c"}});
  EXPECT_EQ(of_rank, (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(names, (std::vector<std::string>{"r2", "r1"}));
  try {
    rank_groups(t, {{"a"}, {"d\x1b[2J", "10.0.0.9"}});
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("places no host"), std::string::npos) << e.what();
  }
}

TEST(MeshTopology, ABadFileNamesTheLineAndWhatIsWrong) {
  EXPECT_EQ(refusal("a r1\nb\n"),
            "--topology: topo:2: expected HOST GROUP, or Slurm's SwitchName=... Nodes=...");
  EXPECT_EQ(refusal("a r1\na r2\n"), "--topology: topo:2: host 'a' is in 'r1' and in 'r2'");
  EXPECT_NE(refusal("SwitchName=s Nodes=n[0-\n").find("topo:1: a bracket left open"),
            std::string::npos);
  EXPECT_NE(refusal("SwitchName= Nodes=n1\n").find("topo:1: a line without SwitchName="),
            std::string::npos);
  EXPECT_NE(refusal(std::string(2000, 'x') + " r\n").find("longer than 1024"), std::string::npos);
  EXPECT_NE(refusal("# nothing\n").find("no host"), std::string::npos);
  std::string huge;
  for (int i = 0; i < 20000; ++i)
    huge += "SwitchName=s" + std::to_string(i) + " Nodes=h" + std::to_string(i) + "-[0-999]\n";
  EXPECT_NE(refusal(huge).find("more than 131072 hosts"), std::string::npos);
  // One 40-byte line that would expand to 464,604 hosts (a fuzzer's input that took 3.2 s
  // under ASan) is refused before its hosts are made.
  EXPECT_NE(refusal("SwitchName=r0 Nodes=node[01-464604]\n").find("more than 131072 hosts"),
            std::string::npos);
  EXPECT_NE(refusal(std::string(kTopologyMaxBytes + 2, '\n')).find("bytes"), std::string::npos);
}
