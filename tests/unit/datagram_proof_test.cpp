#include "bootstrap/datagram_proof.h"

#include <gtest/gtest.h>

#include "core/gid.h"

using namespace rdmabench;
using namespace std::chrono_literals;

namespace {

QpAddress named_address() {
  QpAddress a;
  a.qp_number = 0x11;
  a.lid = 0;
  a.gid = *parse_gid("::ffff:10.99.0.2");
  return a;
}

DatagramSender sender_like(const QpAddress& a) {
  return {.qp_number = a.qp_number, .lid = a.lid, .global = true, .gid = a.gid};
}

}  // namespace

TEST(DatagramProof, OnlyTheNamedQpAtTheNamedGidProvesIt) {
  const QpAddress named = named_address();
  EXPECT_TRUE(came_from(sender_like(named), named));
  DatagramSender other_qp = sender_like(named);
  other_qp.qp_number = 0x12;  // another QP of the same host
  EXPECT_FALSE(came_from(other_qp, named));
  DatagramSender other_host = sender_like(named);
  other_host.gid = *parse_gid("::ffff:10.99.0.3");  // the same QP number elsewhere
  EXPECT_FALSE(came_from(other_host, named));
}

TEST(DatagramProof, WithoutAGrhTheLidDecides) {
  QpAddress named = named_address();
  named.lid = 4;
  DatagramSender sender{.qp_number = named.qp_number, .lid = 4, .global = false, .gid = {}};
  EXPECT_TRUE(came_from(sender, named));
  sender.lid = 5;
  EXPECT_FALSE(came_from(sender, named));
}

TEST(DatagramProof, TheErrorNamesTheAddressWaitedForAndWhatCameInstead) {
  const QpAddress named = named_address();
  DatagramSender stray = sender_like(named);
  stray.qp_number = 0xabc;
  const Error e = unproven_peer(named, "the client", 2, 3000ms, 5, stray);
  EXPECT_EQ(e.exit_code(), ExitCode::kConnection);
  const std::string text = e.what();
  EXPECT_NE(text.find("no datagram came from QP 0x000011 at GID ::ffff:10.99.0.2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the address the client named for stream 2) within 3000 ms"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("5 came from elsewhere, the first from QP 0x000abc at GID ::ffff:10.99.0.2"),
            std::string::npos)
      << text;
  const std::string quiet = unproven_peer(named, "the server", 0, 3000ms, 0, std::nullopt).what();
  EXPECT_EQ(quiet.find("elsewhere"), std::string::npos) << quiet;
}
