// Every message of the control channel is built in one place (messages/control_messages.h) and
// read back there: each one a peer reads field by field comes back as it was sent, each one
// goes over the wire as a control message of its type, and what a reader refuses it names.
#include "messages/control_messages.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/fabric.h"
#include "core/post_api.h"
#include "messages/control_channel.h"
#include "messages/spec_json.h"
#include "spec_fixture.h"

namespace rdmabench {
namespace {

// What the peer's channel makes of `message` once it went over the wire as a line.
nlohmann::json over_the_wire(const nlohmann::json& message, const std::string& type) {
  return parse_control_message(message.dump(), "test", type);
}

TEST(ControlMessages, EveryMessageIsAControlMessageOfItsType) {
  const std::vector<std::pair<nlohmann::json, std::string>> all = {
      {client_hello(), "hello"},
      {server_hello_message({.hostname = "h"}), "hello"},
      {run_message({}), "run"},
      {ready_message(), "ready"},
      {finished_message(), "finished"},
      {path_request(), "path"},
      {path_reply({}), "path"},
      {teardown_message(), "teardown"},
      {bye_message(), "bye"},
      {done_message(SideReport{}), "done"},
      {busy_message("12:00"), "busy"},
      {buf_message({}), "buf"},
      {cm_listen_message({1, std::string(kCmTokenLength, 'f')}), "cm_listen"},
      {oob_message({}), "oob"}};
  for (const auto& [message, type] : all)
    EXPECT_NO_THROW((void)over_the_wire(message, type)) << message.dump();
  // An error message is raised by the reader, with the exit code it carries (a failure of the
  // server's own: a usage error of the spec it was sent).
  try {
    (void)over_the_wire(error_message(static_cast<int>(ExitCode::kUsage), "no"), "done");
    FAIL() << "an error message was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
  }
}

// Issue 64: the client's --gid-index went to the server in the setup message and the server's
// out-of-band bootstrap used it as its own source GID index; on hosts whose GID tables differ
// that picked the wrong GID, or none. The index is each side's own now: never sent.
// The spec, what both sides share, has no GID index to send at all (a LocalDevice's); a peer's
// gid_index in it is not read.
TEST(ControlMessages, TheSetupMessageCarriesNoGidIndexOfTheClients) {
  const TestSpec spec = a_spec();
  const nlohmann::json sent = over_the_wire(setup_message(spec), "setup");
  EXPECT_FALSE(sent.at("spec").contains("gid_index")) << sent.dump();
  nlohmann::json told = sent.at("spec");
  told["gid_index"] = 3;
  EXPECT_EQ(to_json(spec_from_json(told)), to_json(spec));  // read as if it were not there
}

TEST(ControlMessages, ARunOrderComesBackAsItWasSent) {
  const RunOrder sent{{1000, 2'000'000'000, 500'000'000}, true, true};
  const RunOrder read = run_order_from(over_the_wire(run_message(sent), "run"));
  EXPECT_EQ(read.length.iterations, 1000u);
  EXPECT_EQ(read.length.duration_ns, 2'000'000'000u);
  EXPECT_EQ(read.length.margin_ns, 500'000'000u);
  EXPECT_TRUE(read.check);
  EXPECT_TRUE(read.device_counters);
}

TEST(ControlMessages, AnOobStreamComesBackAsItWasSent) {
  OobPeer sent{};
  sent.address = {0x1234, 0xabcd, 7, {}};
  sent.address.gid[15] = 1;
  sent.mtu = IBV_MTU_1024;
  sent.rd_atomic = 16;
  sent.buffer = {0x7000, 42, 65536};
  const OobPeer read = read_oob_peer(over_the_wire(oob_message(sent), "oob"), 65536);
  EXPECT_EQ(read.address.qp_number, 0x1234u);
  EXPECT_EQ(read.address.psn, 0xabcdu);
  EXPECT_EQ(read.address.lid, 7);
  EXPECT_EQ(read.address.gid, sent.address.gid);
  EXPECT_EQ(read.mtu, IBV_MTU_1024);
  EXPECT_EQ(read.rd_atomic, 16u);
  EXPECT_EQ(read.buffer.address, 0x7000u);
  EXPECT_EQ(read.buffer.rkey, 42u);
  EXPECT_THROW((void)read_oob_peer(oob_message(sent), 65537), Error);  // too small a buffer
}

TEST(ControlMessages, TheBootstrapsOtherMessagesComeBackAsTheyWereSent) {
  const RemoteBuffer buffer{0x9000, 5, 4096};
  const RemoteBuffer read = buf_from(over_the_wire(buf_message(buffer), "buf"), 4096);
  EXPECT_EQ(read.address, 0x9000u);
  EXPECT_EQ(read.rkey, 5u);
  const std::string token(kCmTokenLength, 'e');
  const CmListen listen = read_cm_listen(cm_listen_message({4791, token}));
  EXPECT_EQ(listen.port, 4791);
  EXPECT_EQ(listen.token, token);
  EXPECT_THROW((void)read_cm_listen(cm_listen_message({4791, "short"})), Error);
  EXPECT_THROW((void)read_cm_listen(cm_listen_message({0, token})), Error);
}

TEST(ControlMessages, ABusyAnswerIsReadWhateverItsFieldsAre) {
  const BusyServer busy = busy_from(busy_message("2026-11-29 03:00"));
  EXPECT_EQ(busy.serving, "another client");
  EXPECT_EQ(busy.since, "2026-11-29 03:00");
  const BusyServer odd = busy_from({{"type", "busy"}, {"serving", 3}});
  EXPECT_EQ(odd.serving, "?");
  EXPECT_EQ(odd.since, "?");
}

TEST(ControlMessages, AServersHelloComesBackAsItWasSent) {
  const ServerDetails sent{"0.9",         "node-7", "6.1.0-57-amd64", "rdma-core 44.0", "real time",
                           {"idle=poll"}, "2,3"};
  const ServerDetails read = read_server_hello(over_the_wire(server_hello_message(sent), "hello"));
  EXPECT_EQ(read.version, "0.9");
  EXPECT_EQ(read.hostname, "node-7");
  EXPECT_EQ(read.kernel, "6.1.0-57-amd64");
  EXPECT_EQ(read.rdma_core, "rdma-core 44.0");
  EXPECT_EQ(read.timing, "real time");
  EXPECT_EQ(read.kernel_tuning, std::vector<std::string>{"idle=poll"});
  EXPECT_EQ(read.cpus, "2,3");
}

ServerPath a_server_path() {
  ServerPath sent;
  PathInUse& p = sent.path;
  p = {.device = "mlx5_1",
       .fabric = Fabric::kRoceV2,
       .firmware = "22.39.1002",
       .port = 2,
       .link_speed_gbps = 100,
       .link_width = "4X",
       .gid_index = 3,
       .gid = {},
       .gid_type = GidType::kRoceV2,
       .mtu_bytes = 4096,
       .qp_timeout = 14,
       .outs = 16,
       .inline_bytes = 220,
       .srq = true,
       .post_api = PostApi::kExtended,
       .tclass = 106,
       .sl = 3,
       .comp_vector = 5,
       .comp_vectors = 63,
       .page_size = 2u << 20};
  p.gid[10] = 0xff;
  p.gid[11] = 0xff;
  p.gid[15] = 9;
  sent.placement = {"16,17", "the device's NUMA node", 1, 1, "0000:3b:00.1", std::nullopt};
  return sent;
}

TEST(ControlMessages, AServersPathComesBackAsItWasSent) {
  const ServerPath sent = a_server_path();
  const ServerPath read = read_path_reply(over_the_wire(path_reply(sent), "path"));
  const PathInUse& p = read.path;
  EXPECT_EQ(p.device, "mlx5_1");
  EXPECT_EQ(p.fabric, Fabric::kRoceV2);
  EXPECT_EQ(p.firmware, "22.39.1002");
  EXPECT_EQ(p.port, 2);
  EXPECT_EQ(p.link_speed_gbps, 100);
  EXPECT_EQ(p.link_width, "4X");
  EXPECT_EQ(p.gid_index, 3u);
  EXPECT_EQ(p.gid, sent.path.gid);
  EXPECT_EQ(p.gid_type, GidType::kRoceV2);
  EXPECT_EQ(p.mtu_bytes, 4096u);
  EXPECT_EQ(p.qp_timeout, 14);
  EXPECT_EQ(p.outs, 16);
  EXPECT_EQ(p.inline_bytes, 220u);
  EXPECT_TRUE(p.srq);
  EXPECT_EQ(p.post_api, PostApi::kExtended);
  EXPECT_EQ(p.tclass, 106);
  EXPECT_EQ(p.sl, 3);
  EXPECT_EQ(p.comp_vector, 5u);
  EXPECT_EQ(p.comp_vectors, 63u);
  EXPECT_EQ(p.page_size, 2u << 20);
  EXPECT_EQ(read.placement.cpus, "16,17");
  EXPECT_EQ(read.placement.cpu_choice, "the device's NUMA node");
  EXPECT_EQ(read.placement.numa_node, 1);
  EXPECT_EQ(read.placement.memory_node, 1);
  EXPECT_EQ(read.placement.pci, "0000:3b:00.1");
  EXPECT_FALSE(read.placement.pcie_link.has_value());  // unknown stays unknown
}

// What read_path_reply says of the reply with `key` set to `value`: "" when it takes it.
std::string path_refusal(const char* key, const nlohmann::json& value) {
  nlohmann::json reply = path_reply(a_server_path());
  reply[key] = value;
  try {
    (void)read_path_reply(reply);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kConnection);
    return e.what();
  }
  return "";
}

TEST(ControlMessages, AServersPathOutOfRangeIsRefusedNamingTheField) {
  EXPECT_EQ(path_refusal("port", 1), "");
  EXPECT_NE(path_refusal("port", 0).find("path.port is 0"), std::string::npos);
  EXPECT_NE(path_refusal("port", 256).find("path.port"), std::string::npos);
  EXPECT_NE(path_refusal("mtu", 9000).find("path.mtu is 9000"), std::string::npos);
  EXPECT_NE(path_refusal("sl", 16).find("path.sl"), std::string::npos);
  EXPECT_NE(path_refusal("fabric", "Token Ring").find("path.fabric names nothing"),
            std::string::npos);
  EXPECT_NE(path_refusal("gid_type", "RoCE v3").find("path.gid_type"), std::string::npos);
  EXPECT_NE(path_refusal("gid", "not a gid").find("path.gid"), std::string::npos);
  EXPECT_NE(path_refusal("post_api", 1).find("path.post_api must be a string"), std::string::npos);
  EXPECT_NE(path_refusal("link_speed_gbps", -1).find("path.link_speed_gbps"), std::string::npos);
  EXPECT_NE(path_refusal("device", "rxe0\x1b[2J").find("path.device"), std::string::npos);
  EXPECT_EQ(path_refusal("device", "rxe0\x1b[2J").find('\x1b'), std::string::npos)
      << "an escape in the refusal";
  EXPECT_NE(path_refusal("numa_node", "one").find("path.numa_node"), std::string::npos);
  EXPECT_EQ(path_refusal("numa_node", nullptr), "");  // unknown is allowed
  EXPECT_NE(path_refusal("pcie_link", nlohmann::json::array()).find("path.pcie_link"),
            std::string::npos);
  EXPECT_NE(path_refusal("cpus", std::string(20000, '1')).find("path.cpus"), std::string::npos);
}

}  // namespace
}  // namespace rdmabench
