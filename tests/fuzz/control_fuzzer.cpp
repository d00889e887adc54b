// libFuzzer target for the control path, without a device: bytes a peer might send are split
// into lines and go through the same parsing (parse_control_message, with its bounds), protocol
// state machine (ControlProtocol, keyed and not) and spec validation (spec_from_json,
// validate_spec against a device's limits) as in `rdmabench serve`; each line is also read as
// every message a side reads field by field (control_messages.h: "oob", "cm_listen", "buf",
// "done", "busy", "run", the server's "hello" and "path") and opened as a sealed line of a keyed
// session. An Error is the answer to bad input; any other exception, a crash or a sanitizer report
// is a finding. ./tools/test runs it with inputs up to 128 KiB (-max_len), long and deep enough to
// reach the nesting bound (the default 4 KiB missed a crash 200,000 levels deep).
//
// Built by ./tools/test with clang in build-fuzz/ (meson -Dfuzz=true), with ASan and UBSan.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "control/control_channel.h"
#include "control/control_messages.h"
#include "control/control_protocol.h"
#include "control/message_auth.h"
#include "control/side_report_fields.h"
#include "spec/spec_validation.h"
#include "verbs/verbs_error.h"

namespace {

// Validates what it is given against rxe-like limits, as the real host's endpoint does.
class ValidatingHost final : public rdmabench::TestHost {
 public:
  void setup(const rdmabench::TestSpec& spec) override {
    rdmabench::validate_spec(spec, {"fuzz0", 1ull << 31, 16384, 32767, 1024});
  }
  rdmabench::SideReport run(const rdmabench::RunOrder&) override { return {}; }
  void teardown() override {}
  rdmabench::ServerPath path() override { return {}; }
};

// A line as the bootstrap reads it after a setup, and as a keyed session opens it.
void read_as_bootstrap(const std::string& line, const nlohmann::json& message) {
  static const std::string session_key(32, 'k');
  rdmabench::MessageAuth session(session_key, rdmabench::MessageAuth::Role::kServer);
  try {
    (void)session.open(line, "fuzzer");
  } catch (const rdmabench::Error&) {
  }
  const std::string type = message.value("type", std::string());
  try {
    if (type == "oob") (void)rdmabench::read_oob_peer(message, 65536);
    if (type == "cm_listen") (void)rdmabench::read_cm_listen(message);
    if (type == "buf") (void)rdmabench::buf_from(message, 65536);
    if (type == "done") (void)rdmabench::side_report_from(message, 2, 4);
    if (type == "busy") (void)rdmabench::busy_from(message);
    if (type == "run") (void)rdmabench::run_order_from(message);
    if (type == "hello") (void)rdmabench::read_server_hello(message);
    if (type == "path") (void)rdmabench::read_path_reply(message);
  } catch (const rdmabench::Error&) {
  }
}

// One client's messages (one a line) to a server with or without --key.
void drive(std::string_view input, const rdmabench::SharedKey* key) {
  ValidatingHost host;
  rdmabench::ControlProtocol protocol(host, rdmabench::ServerDetails{.version = "fuzz"}, key);
  while (!input.empty() && !protocol.finished()) {
    const size_t newline = input.find('\n');
    const std::string line(input.substr(0, newline));
    input = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);
    try {
      const nlohmann::json message = rdmabench::parse_control_message(line, "fuzzer");
      if (key == nullptr) read_as_bootstrap(line, message);
      if (auto reply = protocol.handle(message)) (void)reply->dump();
    } catch (const rdmabench::Error&) {
      return;  // the server sends this back and drops the client
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const rdmabench::SharedKey key =
      rdmabench::SharedKey::from_bytes("fuzzer's key, 32 bytes long, or more");
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  drive(input, nullptr);
  drive(input, &key);  // the auth message's fields, then a refusal of anything else
  return 0;
}
