// Every message of the control channel, in one home: how each is built, and how a peer's copy
// of each that carries more than its type is read, field by field and range-checked (any
// program may be on the other end). A line on the wire is one JSON object with a string "type":
//
//   client -> server  hello (protocol, version), setup (spec),
//                     run (length, check, counters), path, finished, teardown, bye
//   server -> client  hello (protocol, version, the host's details), ready, done (the
//                     server's side report), path (the path
//                     in use and where the side runs), busy (serving, since),
//                     error (exit_code, message)
//   bootstrap         oob (QP address, MTU, rd_atomic, buf) both ways, buf both ways (rdma_cm),
//                     cm_listen (port, token) server -> client
//
// The values messages carry have codecs of their own: a spec (spec_json.h), a side's report
// (side_report_fields.h), a buffer (peer_buffer.h). The framing, the deadlines and TLS (with a key
// or certificates: every message after the first word encrypted) are the channel's
// (control_channel.h, tls_stream.h).
#pragma once

#include <infiniband/verbs.h>

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "datapath/path_in_use.h"
#include "datapath/qp_stream.h"     // RemoteBuffer, and QpAddress (verbs)
#include "datapath/side_figures.h"  // SideReport
#include "host/side_placement.h"    // PlacementFacts
#include "spec/run_length.h"
#include "spec/test_spec.h"

namespace rdmabench {

// The hello that opens a session (over TLS once it is up, with a key or certificates).
nlohmann::json client_hello();
// What a server says of itself in its hello.
struct ServerDetails {
  std::string version{};  // its rdmabench's
  std::string hostname{};
  std::string kernel{};
  std::string rdma_core{};
  std::string timing{};                      // its timing environment, described
  std::vector<std::string> kernel_tuning{};  // its kernel command line's (kernel_tuning.h)
  std::string cpus{};                        // serve --cpus as a list ("" when not given)
};
// The server's hello: its protocol and version, and its details.
nlohmann::json server_hello_message(const ServerDetails& details);
// The details of a server's hello. Throws Error(kConnection) naming the first field that is
// missing, not printable text, or too long.
ServerDetails read_server_hello(const nlohmann::json& hello);
nlohmann::json setup_message(const TestSpec& spec);

// One "run" message: how long, whether it is a --verify check run (untimed, every message
// checked), and whether the server reads its port's counters before and after it (and says
// what moved in "done").
struct RunOrder {
  RunLength length;
  bool check = false;
  bool device_counters = false;
};
nlohmann::json run_message(const RunOrder& order);
// The "run" message's length: {"iters": N} or, for a timed window, {"duration_ms": D,
// "margin_ms": M} beside it (iters then only bounds nothing; it stays for the warm-up).
RunLength run_length_from(const nlohmann::json& run);
// The whole "run" message: its length, "check" and "counters" (both booleans, required).
RunOrder run_order_from(const nlohmann::json& run);

// "result": the figures the client made of a timed run, sent after it for the server's log
// (the server measures nothing of them: it prints them, as perftest's server prints its table).
// Every figure a finite number from 0 to kMostFigure; the latencies only for a lat run.
struct ClientFigures {
  uint64_t msgs = 0;            // counted
  double bytes_per_second = 0;  // payload
  double msgs_per_second = 0;
  std::optional<double> lat_p50_us;
  std::optional<double> lat_p99_us;
};
inline constexpr double kMostFigure = 1e15;
nlohmann::json result_message(const ClientFigures& figures);
ClientFigures read_result(const nlohmann::json& result);

// The messages that are their type alone.
nlohmann::json ready_message();
nlohmann::json finished_message();
nlohmann::json path_request();
nlohmann::json teardown_message();
nlohmann::json bye_message();
// The client's word that every datagram peer proved its address (datagram_proof.h).
nlohmann::json proved_message();

// The server's answer to "path": the path its endpoint uses, and where its side runs.
struct ServerPath {
  PathInUse path;
  PlacementFacts placement;
};
nlohmann::json path_reply(const ServerPath& server);
// The reply's fields, one function for each half: the same keys report each side's path and
// placement in the results' context (runner/run_context.cpp), whose null is "not known".
nlohmann::json path_fields(const PathInUse& path);
nlohmann::json placement_fields(const PlacementFacts& placement);
// Throws Error(kConnection) naming the first field that is missing or out of range.
ServerPath read_path_reply(const nlohmann::json& reply);
// The server's "done": its side report's fields (side_report_fields.h).
nlohmann::json done_message(const SideReport& report);

// What a server serving another client answers a hello with, and reads of it (each field
// "?" when it is not a string; unbounded: the client makes it printable and short).
nlohmann::json busy_message(const std::string& since);
struct BusyServer {
  std::string serving;
  std::string since;
};
BusyServer busy_from(const nlohmann::json& message);

// What a server tells a client it refuses or failed at (exit_code: the table of rdmabench
// --help), raised at the client as that Error.
nlohmann::json error_message(int exit_code, const std::string& message);

// A side's buffer, exchanged over rdma_cm setups.
nlohmann::json buf_message(const RemoteBuffer& buffer);
// The peer's buffer in a "buf" message, which must hold a whole message of `size` bytes.
RemoteBuffer buf_from(const nlohmann::json& message, uint64_t size);

// The server's "cm_listen" message of an rdma_cm setup: the port its listener waits on, and
// the token every connection request of this setup must carry as private data (so that the
// listener takes no request but the control client's). The token's length: hex text, so it is
// its own length in the private data (at most 56 bytes for RC).
inline constexpr size_t kCmTokenLength = 32;
struct CmListen {
  uint16_t port;
  std::string token;
};
nlohmann::json cm_listen_message(const CmListen& listen);
// Throws Error(kConnection) naming a missing or malformed field.
CmListen read_cm_listen(const nlohmann::json& message);

// What an "oob" message says of one of a side's streams: its QP's address, the path MTU it
// offers, the reads and atomics it allows in flight, and its buffer.
struct OobPeer {
  QpAddress address;
  ibv_mtu mtu;
  uint32_t rd_atomic;
  RemoteBuffer buffer;  // holds a whole message of the spec's size
};
nlohmann::json oob_message(const OobPeer& stream);
// Throws Error(kConnection) naming the first field that is missing or out of range.
OobPeer read_oob_peer(const nlohmann::json& message, uint64_t size);

}  // namespace rdmabench
