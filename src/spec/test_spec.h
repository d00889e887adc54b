// What one benchmark runs: transport, pattern, mode, CQ harvesting, size and queue parameters.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/post_api.h"
#include "core/side.h"
#include "spec/arrivals.h"
#include "spec/cq_choice.h"
#include "spec/pattern_info.h"
#include "spec/transport.h"

namespace rdmabench {

enum class Mode { kBandwidth, kLatency };
enum class Bootstrap { kRdmaCm, kOob };

std::string to_string(Mode m);       // "bw", "lat"
std::string to_string(Bootstrap b);  // "rdmacm", "oob"
std::optional<Mode> parse_mode(const std::string& text);
std::optional<Bootstrap> parse_bootstrap(const std::string& text);

// The out-of-band bootstrap's local ACK timeout unless --qp-timeout says: perftest's 14 (67 ms).
inline constexpr uint32_t kOobQpTimeout = 14;
// What an automatic (unset) --inline asks each QP for, perftest's default.
inline constexpr uint32_t kAutoInline = 220;

struct TestSpec {
  Transport transport = default_transport();  // the QP type (rc)
  Pattern pattern;  // none until chosen (bench/pattern_catalogue.h); validate_spec refuses none
  Mode mode = Mode::kBandwidth;
  CqChoice cq;  // each side's completion strategy
  uint64_t size = 65536;
  uint32_t tx_depth = 128;
  uint32_t rx_depth = 512;
  uint32_t signal_every = 16;
  uint32_t poll_batch = 32;  // completions asked for per ibv_poll_cq
  uint64_t rate = 0;         // lat: round trips started per second, open loop (0: back to back)
  // lat with --rate: how each connection's round trips are spaced (--arrivals).
  Arrivals arrivals = Arrivals::kFixed;
  uint32_t qps = 1;        // QPs per side, spread over the threads (QP i on thread i % threads)
  uint32_t threads = 1;    // threads per side; each drives its own QPs and CQs
  bool cq_per_qp = false;  // one CQ per QP (default: one per thread)
  bool bidir = false;      // bw: both sides stream at once, each timing its own direction
  bool verify = false;     // a check run after the timed runs, untimed (--verify)
  // The timed runs check every message as it completes (--validate): each side's receives, a
  // requester's reads and atomics; a bw receiver keeps a slot for each receive posted so that
  // none is overwritten before its check, and both sides size their rings by it.
  bool validate = false;
  Bootstrap bootstrap = Bootstrap::kOob;
  uint32_t mtu = 0;  // bytes; 0 = the path's active MTU
  // Local ACK timeout exponent of every QP (4.096 us x 2^n before a retransmission, like
  // perftest -u); 0 = no retransmission timer. Unset: kOobQpTimeout for oob, rdma_cm's own
  // choice for rdmacm.
  std::optional<uint32_t> qp_timeout;
  // RDMA reads and atomics each QP keeps in flight, both ways (max_rd_atomic and
  // max_dest_rd_atomic, like perftest -o). Unset: the device's most, at most 16.
  std::optional<uint32_t> outs;
  // bw: sends chained per ibv_post_send (like perftest -l); 1: one post per send.
  uint32_t post_list = 1;
  // Payloads of at most this many bytes go inline in the work request (like perftest -I);
  // 0: never. Unset: automatic, up to what the QP grants for kAutoInline.
  std::optional<uint32_t> inline_size;
  // The receiving side's QPs take their receives from one shared receive queue (like
  // perftest --use-srq): rx_depth receives for all of them.
  bool srq = false;
  // The GRH traffic class of every QP's path and address handle, both ways (perftest
  // --tclass; over rdma_cm its type of service, perftest -T): on RoCE v2 the IP header's
  // DSCP and ECN byte, which a lossless fabric classifies on. Unset: 0, the device's default.
  std::optional<uint32_t> tclass;
  // Every buffer a side registers in 2 MiB huge pages (perftest --use_hugepages).
  bool hugepages = false;
  // The service level of the same paths (perftest -S; out of band only: rdma_cm takes it from
  // the path, on RoCE from the traffic class). Unset: 0.
  std::optional<uint32_t> sl;
  // How each side posts its sends (--post-api; perftest posts through the extended API unless
  // --use_old_post_send). Auto: extended where the device has it.
  PostApi post_api = PostApi::kAuto;

  bool operator==(const TestSpec&) const = default;
  // Google Benchmark name, e.g. "write/bw/busy/65536", "send/lat/client=busy,server=event/2",
  // over a transport other than the default "send/bw/busy/4096/ud",
  // with a rate "send/lat/event/2/rate:10000" (Poisson: then "/arrivals:poisson"), scaled out
  // "write/bw/busy/65536/qps:4/threads:2" (then "/cq-per-qp", "/bidir", "/outs:N", "/post_list:N",
  // "/inline:N", "/srq", "/tclass:N",
  // "/sl:N", "/hugepages" and "/post_api:ex" or "/post_api:classic" where set).
  std::string name() const;
  // The name without its size: the table a row goes in ("write/bw/busy/qps:4").
  std::string table_name() const;
  // The local ACK timeout the out-of-band bootstrap gives every QP.
  uint32_t oob_qp_timeout() const { return qp_timeout.value_or(kOobQpTimeout); }
  // Does this pattern consume posted receives on the server? On the client?
  bool server_receives() const { return pattern->target_receives; }
  bool client_receives() const;
  bool receives_on(Side side) const {
    return side == Side::kServer ? server_receives() : client_receives();
  }
  // bw over a transport that may lose messages (uc, ud) to a target that takes receives: the
  // target counts what arrived, and the figures count only that.
  bool counts_arrivals() const {
    return mode == Mode::kBandwidth && !transport->reliable && server_receives();
  }
  // --validate on a bw pattern whose target takes no completion (write): the target checks each
  // write as it lands in a ring of slots, and the sender learns by RDMA read which slots it may
  // write again (datapath/checked_write_ring.h).
  bool checks_landed_writes() const {
    return validate && mode == Mode::kBandwidth && pattern->arrival == Arrival::kMarker;
  }
  // lat over more QPs than threads, or with Poisson arrivals: every QP of a thread carries
  // round trips at its own --rate, several out at once, harvested from the thread's CQs
  // (datapath/open_loop_client.h, open_loop_server.h), rather than one ping-pong a thread.
  bool open_loop() const {
    return mode == Mode::kLatency && (qps > threads || arrivals == Arrivals::kPoisson);
  }
  // The most QPs one thread drives (QP i on thread i % threads).
  uint32_t qps_per_thread() const { return (qps + threads - 1) / threads; }
  // The CQ of QP i, and how many CQs a side has.
  uint32_t cq_of_qp(uint32_t i) const { return cq_per_qp ? i : i % threads; }
  uint32_t cq_count() const { return cq_per_qp ? qps : threads; }
  // How many QPs share one CQ at most.
  uint32_t qps_per_cq() const { return cq_per_qp ? 1 : (qps + threads - 1) / threads; }
  // Latency reported as half the round trip (a message each way) or the full one (read).
  bool half_round_trip() const { return pattern->half_round_trip; }
  // The payload a run of `iterations` messages a QP carries: both ways with --bidir, or in a
  // lat round trip that carries it back (not read's, whose request carries none).
  uint64_t payload_bytes(uint64_t iterations) const {
    const bool both_ways = bidir || (mode == Mode::kLatency && half_round_trip());
    return iterations * qps * size * (both_ways ? 2 : 1);
  }
};

// The largest payload that goes inline, given what the QP granted: --inline N caps it at N
// (0: none), unset takes all that was granted.
inline uint32_t inline_threshold(const TestSpec& spec, uint32_t granted) noexcept {
  return spec.inline_size ? std::min(*spec.inline_size, granted) : granted;
}

// "2:8M" (powers of two from 2 to 8 MiB), "4096", "2,64K,1M", or mixes. K/M/G are binary.
// Throws Error(kUsage) when malformed, zero, or not increasing within a range, naming `option`.
std::vector<uint64_t> parse_sizes(const std::string& text, std::string_view option = "--sizes");
// `rdmabench run`'s --sizes when none is given.
inline constexpr const char* kDefaultSizes = "2:8M";
std::optional<uint64_t> parse_size(const std::string& text);
// One size an option takes (serve --max-memory), refused as --sizes refuses an item, with why
// (decimal units, zero, too large) and `examples`: Error(kUsage) naming `option`.
uint64_t parse_one_size(const std::string& text, std::string_view option,
                        std::string_view examples = "256M, 2G, 4096");

}  // namespace rdmabench
