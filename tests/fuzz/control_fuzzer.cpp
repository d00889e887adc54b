// libFuzzer target for the server's control path, without a device: bytes a client might send
// are split into lines and go through the same parsing (parse_control_message), protocol
// state machine (ControlProtocol) and spec validation (spec_from_json, validate_spec against a
// device's limits) as in `rdmabench serve`. An Error is the server's answer to bad input; any
// other exception, a crash or a sanitizer report is a finding.
//
// Built by ./tools/test with clang in build-fuzz/ (meson -Dfuzz=true), with ASan and UBSan.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "control/control_protocol.h"
#include "net/control_channel.h"
#include "spec/spec_validation.h"
#include "verbs/error.h"

namespace {

// Validates what it is given against rxe-like limits, as the real host's endpoint does.
class ValidatingHost final : public rdmabench::TestHost {
 public:
  void setup(const rdmabench::TestSpec& spec) override {
    rdmabench::validate_spec(spec, {"fuzz0", 1ull << 31, 16384, 32767, 1024});
  }
  nlohmann::json run(const rdmabench::RunOrder&) override { return {{"type", "done"}}; }
  void teardown() override {}
  nlohmann::json path() override { return {{"port", 1}}; }
};

// One client's messages (one a line) to a server with or without --key.
void drive(std::string_view input, const rdmabench::SharedKey* key) {
  ValidatingHost host;
  rdmabench::ControlProtocol protocol(host, {{"type", "hello"}, {"version", "fuzz"}}, key);
  while (!input.empty() && !protocol.finished()) {
    const size_t newline = input.find('\n');
    const std::string line(input.substr(0, newline));
    input = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);
    try {
      if (auto reply = protocol.handle(rdmabench::parse_control_message(line, "fuzzer")))
        (void)reply->dump();
    } catch (const rdmabench::Error&) {
      return;  // the server sends this back and drops the client
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const rdmabench::SharedKey key =
      rdmabench::SharedKey::from_bytes("fuzzer's key, 32 bytes long..");
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  drive(input, nullptr);
  drive(input, &key);  // the auth message's fields, then a refusal of anything else
  return 0;
}
