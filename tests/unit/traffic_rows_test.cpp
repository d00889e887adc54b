// What rank 0 takes from another rank under --traffic: its flows' rows, bounded and checked
// against the plan (crafted inputs), and what an honest rank sends read back the same.
#include "mesh/traffic_rows.h"

#include <gtest/gtest.h>

#include "core/error.h"

using namespace rdmabench;

namespace {

std::string flows_refusal(const std::string& text, int rank = 1) {
  const auto plan = TrafficPlan::make(TrafficKind::kIncast, 4, 0);
  try {
    parse_rank_flows(text, rank, plan, 1);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kConnection) << e.what();
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TrafficRows, AnHonestRanksRowsReadBack) {
  const auto plan = TrafficPlan::make(TrafficKind::kIncast, 4, 0);
  // rank 1 sends in rounds 0, 2 and 3 (into 0, 2, 3)
  PairResult ran{"write/bw/busy/65536", {1, 0}, {{"bytes_per_second", 5e8}}, "", 0, "bw"};
  PairResult failed{"write/bw/busy/65536", {1, 2}, {}, "ibv_post_send: \x1b[31mbad", 5, "bw"};
  const std::vector<FlowRow> mine = {flow_row(ran, 0), flow_row(failed, 2)};
  const auto back = parse_rank_flows(rank_flows_text(mine), 1, plan, 1);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].server, 0);
  EXPECT_EQ(back[0].client, 1);
  EXPECT_EQ(back[0].bytes_per_second, 5e8);
  EXPECT_EQ(back[1].exit_code, 5);
  EXPECT_EQ(back[1].bytes_per_second, 0);
  EXPECT_EQ(back[1].error.find('\x1b'), std::string::npos);
  EXPECT_NE(back[1].error.find("ibv_post_send"), std::string::npos);
  EXPECT_TRUE(parse_rank_flows("[]", 1, plan, 1).empty());
}

TEST(TrafficRows, RefusesCraftedRows) {
  EXPECT_NE(flows_refusal("{"), "");
  EXPECT_NE(flows_refusal("{}").find("not a list"), std::string::npos);
  EXPECT_NE(flows_refusal("[[0,0,1]]").find("not [round"), std::string::npos);
  EXPECT_NE(flows_refusal("[[-1,0,1,0,\"\"]]").find("not [round"), std::string::npos);
  EXPECT_NE(flows_refusal("[[4,0,1,0,\"\"]]").find("beyond the plan"), std::string::npos);
  EXPECT_NE(flows_refusal("[[0,2,1,0,\"\"]]").find("no flow to rank 2"), std::string::npos);
  EXPECT_NE(flows_refusal("[[1,1,1,0,\"\"]]").find("no flow"), std::string::npos);  // the receiver
  EXPECT_NE(flows_refusal("[[0,0,1,0,\"\"],[0,0,1,0,\"\"]]").find("twice"), std::string::npos);
  EXPECT_NE(flows_refusal("[[0,0,-1,0,\"\"]]").find("bytes per second"), std::string::npos);
  EXPECT_NE(flows_refusal("[[0,0,1e300,0,\"\"]]").find("bytes per second"), std::string::npos);
  EXPECT_NE(flows_refusal("[[0,0,0,99,\"x\"]]").find("not in the table"), std::string::npos);
  EXPECT_NE(flows_refusal("[[0,0,1,0,\"ran yet failed\"]]").find("both ran and failed"),
            std::string::npos);
  EXPECT_NE(flows_refusal("[[0,0,1,5,\"failed yet ran\"]]").find("both ran and failed"),
            std::string::npos);
  EXPECT_NE(flows_refusal("[[[[[[0]]]]]]"), "");
  EXPECT_NE(flows_refusal(std::string(100000, '[')).find("rank 1's flows"), std::string::npos);
}

TEST(TrafficRows, TheBoundHoldsTheLongestHonestText) {
  const auto plan = TrafficPlan::make(TrafficKind::kAllToAll, 65, 64);
  std::vector<FlowRow> mine;
  for (int d = 1; d <= 64; ++d)
    mine.push_back({0, 0, d, 0, 4, std::string(5000, '\x01')});  // escaped, cut to 200
  const std::string text = rank_flows_text(mine);
  EXPECT_LE(text.size(), rank_flows_max_bytes(plan, 1));
  EXPECT_EQ(parse_rank_flows(text, 0, plan, 1).size(), 64u);
}
