// libFuzzer target for the control path, without a device: bytes a peer might send are split
// into lines and go through the same parsing (parse_control_message, with its bounds), protocol
// state machine (ControlProtocol, for a client that proved itself in TLS and one in clear) and
// spec validation (spec_from_json,
// validate_spec against a device's limits) as in `rdmabench serve`; each line is also read as
// every message a side reads field by field (control_messages.h: "oob", "cm_listen", "buf",
// "done", "busy", "run", the server's "hello" and "path"). An Error is the answer to bad input; any
// other exception, a crash or a sanitizer report is a finding. ./tools/test runs it with inputs up
// to 128 KiB (-max_len), long and deep enough to reach the nesting bound (the default 4 KiB missed
// a crash 200,000 levels deep).
//
// Built by ./tools/test with clang in build-fuzz/ (meson -Dfuzz=true), with ASan and UBSan.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "messages/control_channel.h"
#include "messages/control_messages.h"
#include "messages/side_report_fields.h"
#include "rxe_like_limits.h"
#include "session/control_protocol.h"
#include "spec/spec_validation.h"
#include "verbs/verbs_error.h"

namespace {

// Validates what it is given against rxe-like limits, as the real host's endpoint does.
class ValidatingHost final : public rdmabench::TestHost {
 public:
  void setup(const rdmabench::TestSpec& spec) override {
    rdmabench::validate_spec(spec, rdmabench::rxe_like("fuzz0"));
  }
  rdmabench::SideReport run(const rdmabench::RunOrder&) override { return {}; }
  void teardown() override {}
  rdmabench::ServerPath path() override { return {}; }
  void result(const rdmabench::ClientFigures&) override {}
};

// A line as the bootstrap and the client read it.
void read_as_bootstrap(const nlohmann::json& message) {
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

// One client's messages (one a line) to a server, from a client that proved itself in the TLS
// handshake (serve --key, --cert) or not.
void drive(std::string_view input, bool authenticated) {
  ValidatingHost host;
  rdmabench::ControlProtocol protocol(host, rdmabench::ServerDetails{.version = "fuzz"},
                                      authenticated);
  while (!input.empty() && !protocol.finished()) {
    const size_t newline = input.find('\n');
    const std::string line(input.substr(0, newline));
    input = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);
    try {
      const nlohmann::json message = rdmabench::parse_control_message(line, "fuzzer");
      if (!authenticated) read_as_bootstrap(message);
      if (auto reply = protocol.handle(message)) (void)reply->dump();
    } catch (const rdmabench::Error&) {
      return;  // the server sends this back and drops the client
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  drive(input, false);
  drive(input, true);  // the idle timeout from the first message: the same state machine
  return 0;
}
