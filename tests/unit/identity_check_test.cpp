// What a mesh rank takes from every other before the job reads it: their identities (crafted
// inputs), and the port of a traffic mesh's server slot from a checked one.
#include "mesh/identity_check.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "mesh/rank_place.h"

using namespace rdmabench;

namespace {

nlohmann::json honest_identity(int rank) {
  return {
      {"rank", rank},          {"hostname", "node07"},
      {"address", "10.0.0.7"}, {"port", 18515},
      {"device", "mlx5_0"},    {"ib_port", 1},
      {"fabric", "roce"},      {"slot_stride", 8},
      {"driver", "mlx5"},      {"doctor", {{"port 1 MTU", "4096"}, {"firmware", "28.39.1002"}}}};
}

// The refusal's text ("" when the identity passes); every refusal is kConnection.
std::string identity_refusal(const nlohmann::json& id, size_t position = 3) {
  try {
    check_identity(id, position);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kConnection) << e.what();
    return e.what();
  }
  return "";
}

nlohmann::json identity_with(const char* field, nlohmann::json value) {
  nlohmann::json id = honest_identity(3);
  id[field] = std::move(value);
  return id;
}

nlohmann::json identity_without(const char* field) {
  nlohmann::json id = honest_identity(3);
  id.erase(field);
  return id;
}

}  // namespace

TEST(IdentityCheck, AnHonestIdentityAndAFailedRanksPass) {
  EXPECT_EQ(identity_refusal(honest_identity(3)), "");
  EXPECT_EQ(identity_refusal(identity_without("ib_port")), "");  // optional fields may be absent
  EXPECT_EQ(identity_refusal(identity_without("slot_stride")), "");
  EXPECT_EQ(identity_refusal(identity_without("doctor")), "");
  EXPECT_EQ(identity_refusal({{"rank", 3}, {"error", "no RDMA device: \x1b[2J"}, {"exit_code", 3}}),
            "");
}

TEST(IdentityCheck, ARankThatIsNotItsPlaceIsRefused) {
  EXPECT_NE(identity_refusal(honest_identity(2)).find("it says it is rank 2"), std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("rank", "3")).find("'rank' is not an integer"),
            std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("rank", -1)).find("'rank'"), std::string::npos);
  EXPECT_NE(identity_refusal(identity_without("rank")).find("no 'rank'"), std::string::npos);
  EXPECT_NE(identity_refusal(nlohmann::json::array({1, 2})).find("not a JSON object"),
            std::string::npos);
  EXPECT_NE(identity_refusal(nullptr).find("rank 3's identity"), std::string::npos);
}

TEST(IdentityCheck, PortsOutsideTheirRangeAreRefused) {
  for (const nlohmann::json& port :
       {nlohmann::json(0), nlohmann::json(65536), nlohmann::json(-18515), nlohmann::json("18515"),
        nlohmann::json(18515.5), nlohmann::json(1ull << 63)})
    EXPECT_NE(identity_refusal(identity_with("port", port))
                  .find("'port' is not an integer from 1 to 65535"),
              std::string::npos)
        << port;
  EXPECT_NE(identity_refusal(identity_without("port")).find("no 'port'"), std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("ib_port", 256)).find("'ib_port'"), std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("slot_stride", 0)).find("'slot_stride'"),
            std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("slot_stride", 1ll << 40)).find("'slot_stride'"),
            std::string::npos);
}

TEST(IdentityCheck, NamesThatAreNotPrintableShortTextAreRefused) {
  const std::string escape = "node\x1b[31m07";
  const std::string refused = identity_refusal(identity_with("hostname", escape));
  EXPECT_NE(refused.find("'hostname' is not printable ASCII"), std::string::npos) << refused;
  EXPECT_EQ(refused.find('\x1b'), std::string::npos) << "the refusal shows it printable";
  EXPECT_NE(
      identity_refusal(identity_with("address", std::string(256, 'a'))).find("longer than 255"),
      std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("device", 7)).find("'device' is not a string"),
            std::string::npos);
  EXPECT_NE(identity_refusal(identity_without("address")).find("no 'address'"), std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("fabric", nlohmann::json::object())).find("'fabric'"),
            std::string::npos);
}

TEST(IdentityCheck, DoctorFindingsMustBePrintableTextAndFew) {
  EXPECT_NE(identity_refusal(identity_with("doctor", "fine")).find("'doctor' is not an object"),
            std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("doctor", {{"MTU", 4096}})).find("doctor finding"),
            std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("doctor", {{"MTU\n", "4096"}})).find("doctor finding"),
            std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("doctor", {{"firmware", "1.0\x1b[2J"}}))
                .find("doctor finding"),
            std::string::npos);
  EXPECT_NE(identity_refusal(identity_with("doctor", {{"firmware", "1.0\xc2\x9b"}}))
                .find("doctor finding"),
            std::string::npos);  // C1 CSI, which a terminal obeys
  EXPECT_EQ(identity_refusal(identity_with("doctor", {{"firmware", "28.39 \xc2\xae"}})),
            "");  // UTF-8
  nlohmann::json many = nlohmann::json::object();
  for (int i = 0; i < 257; ++i) many["k" + std::to_string(i)] = "v";
  EXPECT_NE(identity_refusal(identity_with("doctor", many)).find("at most 256"), std::string::npos);
}

TEST(IdentityCheck, AFailedRanksErrorNeedsAnExitCodeFromTheTable) {
  const nlohmann::json failed = {{"rank", 3}, {"error", "no device"}};
  EXPECT_NE(identity_refusal(failed).find("no 'exit_code'"), std::string::npos);
  for (const nlohmann::json& code :
       {nlohmann::json(0), nlohmann::json(99), nlohmann::json("3"), nlohmann::json(-1)}) {
    nlohmann::json id = failed;
    id["exit_code"] = code;
    EXPECT_NE(identity_refusal(id).find("exit"), std::string::npos) << code;
  }
  nlohmann::json id = failed;
  id["error"] = nlohmann::json::array();
  id["exit_code"] = 3;
  EXPECT_NE(identity_refusal(id).find("'error' is not a string"), std::string::npos);
}

TEST(IdentityCheck, ACheckedIdentitysSlotPortsStopAt65535) {
  nlohmann::json id = honest_identity(3);
  id["port"] = 65000;
  id["slot_stride"] = 100;
  check_identity(id, 3);
  EXPECT_EQ(slot_port(rank_place_of(id), 5), 65500);
  try {
    slot_port(rank_place_of(id), 6);
    FAIL() << "slot 6 is port 65600";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kConnection);
    EXPECT_NE(std::string(e.what()).find("beyond port 65535"), std::string::npos) << e.what();
  }
  id.erase("slot_stride");
  EXPECT_EQ(slot_port(rank_place_of(id), 535), 65535);  // one rank on its host: a stride of 1
}
