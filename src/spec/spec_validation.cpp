#include "spec/spec_validation.h"

#include <algorithm>

#include "core/error.h"

namespace rdmabench {

namespace {

// The first reason a spec is refused, as the checks run in order; the later ones record nothing
// (each check's message is built either way: none of this is on a hot path).
class FirstRefusal {
 public:
  void refuse(std::string why) {
    if (why_.empty()) why_ = std::move(why);
  }
  void require(bool ok, const std::string& what, uint64_t value, const std::string& limit) {
    if (!ok) refuse(what + " is " + std::to_string(value) + "; " + limit);
  }
  std::string why() && { return std::move(why_); }

 private:
  std::string why_;
};

bool is_path_mtu(uint32_t mtu) {
  return mtu == 0 || mtu == 256 || mtu == 512 || mtu == 1024 || mtu == 2048 || mtu == 4096;
}

// What a transport that may lose messages, or that rdma_cm cannot connect, cannot do.
void check_unreliable_use(const TestSpec& s, FirstRefusal& r) {
  if (s.bidir && !s.transport->reliable)
    r.refuse(std::string("--bidir") + " is set over " + s.transport.name() +
             ": both directions at once need a reliable transport (rc); over one that may "
             "lose messages, only the server learns when the other side has ended its "
             "sends");
  if (s.bootstrap == Bootstrap::kRdmaCm && !s.transport->rdmacm_refusal.empty())
    r.refuse("--cm is rdmacm over " + s.transport.name() + ": " +
             std::string(s.transport->rdmacm_refusal) + " (use --cm oob)");
}

// --validate's write bw: the target checks each write as it lands in its ring (reads of its
// count pace the sender), which needs every write to arrive and one sender.
void check_landed_write_validation(const TestSpec& s, FirstRefusal& r) {
  if (!s.checks_landed_writes()) return;
  if (!s.transport->reliable)
    r.refuse("--validate is set for " + s.pattern.name() + " bw over " + s.transport.name() +
             ": its target checks each write in turn as it lands, and a lost write never "
             "does; use --transport rc, or --pattern write_imm (each write's receive is "
             "checked)");
  if (s.bidir)
    r.refuse("--validate is set for " + s.pattern.name() +
             " bw with --bidir: its target checks the writes as they land and does not "
             "write; drop --bidir, or use --pattern write_imm");
}

// lat over more QPs than threads is open loop (TestSpec::open_loop): each QP at its own --rate
// (or back to back), its replies taken from the thread's one CQ by a client that polls (so
// that each reply is timed when it comes) and a server under its strategy.
void check_open_loop(const TestSpec& s, FirstRefusal& r) {
  if (s.arrivals != Arrivals::kFixed && (s.mode != Mode::kLatency || s.rate == 0))
    r.refuse("--arrivals " + to_string(s.arrivals) +
             " spaces lat's paced round trips: give --mode lat and --rate");
  if (!s.open_loop()) return;
  const std::string what = "an open-loop lat run (--qps " + std::to_string(s.qps) +
                           " on --threads " + std::to_string(s.threads) + ", --arrivals " +
                           to_string(s.arrivals) + ")";
  // What every refusal here offers too: the ping-pong of one QP a thread.
  const std::string or_ping_pongs =
      s.qps > s.threads && s.qps <= kMaxThreads
          ? "; or give --threads " + std::to_string(s.qps) + " (one ping-pong QP a thread)"
          : "";
  if (s.pattern->arrival == Arrival::kMarker)
    r.refuse(s.pattern.name() + " in " + what + ": its arrival is a byte polled in memory, one " +
             "QP at a time; use write_imm, send, send_imm, read or an atomic" + or_ping_pongs);
  if (s.verify || s.validate)
    r.refuse(std::string(s.verify ? "--verify" : "--validate") + " in " + what +
             ": its checks run in the ping-pong of one QP a thread; drop it" + or_ping_pongs);
  if (s.cq.client.name != CqStrategy{}.name)
    r.refuse("--cq " + s.cq.text() + " in " + what + ": its client, the load generator, polls " +
             CqStrategy{}.name + " to time each reply when it comes; give the server's alone, " +
             "--cq client=" + CqStrategy{}.name + ",server=" + s.cq.server.text() + or_ping_pongs);
}

// --post-list: bw only, and short enough that a chain that does not fit leaves a signalled
// send outstanding to wait for.
void check_post_list(const TestSpec& s, FirstRefusal& r) {
  r.require(s.post_list >= 1 && s.post_list <= kMaxPostList, "--post-list", s.post_list,
            "it must be between 1 and " + std::to_string(kMaxPostList));
  r.require(s.post_list == 1 || s.mode == Mode::kBandwidth, "--post-list", s.post_list,
            "chains of sends are a bw setting (lat has one message in flight)");
  const uint64_t most = uint64_t{s.tx_depth} + 1 - std::min(s.signal_every, s.tx_depth);
  r.require(s.post_list <= most, "--post-list", s.post_list,
            "with --signal-every " + std::to_string(s.signal_every) + " it must be at most " +
                std::to_string(most) + " (--tx-depth " + std::to_string(s.tx_depth) +
                " + 1 - --signal-every: a chain that does not fit must leave a signalled send "
                "outstanding); raise --tx-depth");
}

// --tclass and --sl: a byte and four bits; a service level and a GID index only where rdmabench
// sets the path (rdma_cm resolves its own from the addresses).
void check_path_class(const TestSpec& s, FirstRefusal& r) {
  r.require(s.tclass.value_or(0) <= kMaxTclass, "--tclass", s.tclass.value_or(0),
            "it must be between 0 and " + std::to_string(kMaxTclass) +
                " (the GRH traffic class: on RoCE v2 the IP header's DSCP and ECN byte)");
  r.require(s.sl.value_or(0) <= kMaxSl, "--sl", s.sl.value_or(0),
            "it must be between 0 and " + std::to_string(kMaxSl));
  if (s.sl && s.bootstrap == Bootstrap::kRdmaCm)
    r.refuse(std::string("--sl") +
             " is set over rdma_cm, which takes the service level from "
             "the path it resolves (on RoCE from the traffic class, "
             "--tclass): give --tclass, or --cm oob for --sl");
  if (s.mtu != 0 && s.bootstrap == Bootstrap::kRdmaCm)
    r.refuse(
        "--mtu is set over rdma_cm, which takes the path MTU (the smaller of the two ports' "
        "active MTU): give --cm oob for --mtu, or set the ports' MTU");
}

// --outs within what the device takes and starts; an atomic pattern where it has atomics.
void check_reads_and_atomics(const TestSpec& s, const DeviceLimits& d, FirstRefusal& r) {
  if (s.outs)
    r.require(*s.outs <= d.max_rd_atomic(), "--outs", *s.outs,
              "reads and atomics in flight per QP, both ways: " + d.device + " takes " +
                  std::to_string(d.max_qp_rd_atom) + " (max_qp_rd_atom) and starts " +
                  std::to_string(d.max_qp_init_rd_atom) + " (max_qp_init_rd_atom)");
  const bool atomic = s.pattern.chosen() && is_atomic(s.pattern->opcode);
  if (atomic && !d.atomics)
    r.refuse(s.pattern.name() + ": " + d.device +
             " has no atomic operations (atomic_cap IBV_ATOMIC_NONE)");
}

// What the fabric and the provider carry: iWARP has reliable connected QPs only, set up through
// rdma_cm; immediate data where the provider carries it.
void check_fabric(const TestSpec& s, const DeviceLimits& d, FirstRefusal& r) {
  const std::string device = d.device + " (" + to_string(d.fabric) + ")";
  if (!carries_transport(d.fabric, s.transport->reliable, s.transport->connected))
    r.refuse("--transport " + s.transport.name() + ": " + device +
             " carries reliable connected QPs only (rc)");
  if (!connects_out_of_band(d.fabric) && s.bootstrap == Bootstrap::kOob)
    r.refuse("--cm oob: " + device + " connects through rdma_cm only (use --cm rdmacm or auto)");
  if (s.pattern->immediate != Immediate::kNone && !d.immediate_data)
    r.refuse(s.pattern.name() + ": " + device + ", driver " + d.driver + ": " + d.no_immediate_why);
}

// Every check that needs no device, in the order they report.
void check_spec(const TestSpec& s, FirstRefusal& r) {
  if (!s.pattern->needs.met_by(s.transport.info()))
    r.refuse("--transport is " + s.transport.name() + "; " + s.pattern.name() + " " +
             s.pattern->needs.text());
  r.require(s.size >= 1, "--sizes", s.size, "messages carry at least 1 byte");
  r.require(s.pattern->sizes.accepts(s.size), "--sizes", s.size,
            s.pattern.name() + ": " + std::string(s.pattern->sizes.why));
  r.require(s.tx_depth >= 1, "--tx-depth", s.tx_depth, "it must be at least 1");
  r.require(s.rx_depth >= 1, "--rx-depth", s.rx_depth, "it must be at least 1");
  r.require(s.signal_every >= 1 && s.signal_every <= s.tx_depth, "--signal-every", s.signal_every,
            "it must be between 1 and tx_depth (" + std::to_string(s.tx_depth) + ")");
  r.require(s.poll_batch >= 1 && s.poll_batch <= kMaxPollBatch, "--poll-batch", s.poll_batch,
            "it must be between 1 and " + std::to_string(kMaxPollBatch));
  r.require(s.rate <= kMaxRate, "--rate", s.rate,
            "it must be at most " + std::to_string(kMaxRate) +
                (s.mode == Mode::kLatency ? " round trips" : " messages a QP") + " per second");
  r.require(s.qps >= 1 && s.qps <= kMaxQps, "--qps", s.qps,
            "it must be between 1 and " + std::to_string(kMaxQps));
  r.require(s.threads >= 1 && s.threads <= std::min(s.qps, kMaxThreads), "--threads", s.threads,
            "it must be between 1 and the number of QPs (--qps " + std::to_string(s.qps) +
                "), at most " + std::to_string(kMaxThreads));
  check_open_loop(s, r);
  r.require(!s.bidir || s.mode == Mode::kBandwidth, "--bidir", 1,
            "both directions at once is a bw mode (lat is a ping-pong already)");
  check_unreliable_use(s, r);
  if (s.transport->one_packet_messages)
    r.require(s.size <= kLargestMtu, "--sizes", s.size,
              "over " + s.transport.name() + " a message is one packet: at most the path MTU (" +
                  std::to_string(kLargestMtu) + " bytes at the most on any device)");
  r.require(is_path_mtu(s.mtu), "--mtu", s.mtu,
            "it must be 256, 512, 1024, 2048 or 4096 (or 0: the active MTU)");
  r.require(!s.outs || (*s.outs >= 1 && *s.outs <= kMaxOuts), "--outs", s.outs.value_or(0),
            "it must be between 1 and " + std::to_string(kMaxOuts));
  check_post_list(s, r);
  if (s.srq && !s.server_receives())
    r.refuse("--srq is set for " + s.pattern.name() +
             ", whose target takes no receives: a shared receive queue "
             "serves only patterns whose target does");
  r.require(s.inline_size.value_or(0) <= kMaxInline, "--inline", s.inline_size.value_or(0),
            "it must be between 0 (never inline) and " + std::to_string(kMaxInline));
  check_landed_write_validation(s, r);
  r.require(s.qp_timeout.value_or(0) <= kMaxQpTimeout, "--qp-timeout", s.qp_timeout.value_or(0),
            "it must be between 0 (no retransmission timer) and " + std::to_string(kMaxQpTimeout) +
                " (4.096 us x 2^n)");
  check_path_class(s, r);
}

// The device's limits, once the spec holds on any device.
void check_against(const TestSpec& s, const DeviceLimits& d, FirstRefusal& r) {
  const std::string of = d.device + "'s ";
  r.require(s.size <= d.max_msg_sz, "--sizes", s.size,
            "it exceeds " + of + "max_msg_sz " + std::to_string(d.max_msg_sz));
  r.require(s.tx_depth <= d.max_qp_wr, "--tx-depth", s.tx_depth,
            "it exceeds " + of + "max_qp_wr " + std::to_string(d.max_qp_wr));
  if (s.checks_landed_writes())  // and the read of the target's checked count
    r.require(uint64_t{s.tx_depth} + 1 <= d.max_qp_wr, "--tx-depth", s.tx_depth,
              "with --validate's write bw it is one less than " + of + "max_qp_wr " +
                  std::to_string(d.max_qp_wr) + " at most (one entry reads the target's count)");
  r.require(s.rx_depth <= d.max_qp_wr, "--rx-depth", s.rx_depth,
            "it exceeds " + of + "max_qp_wr " + std::to_string(d.max_qp_wr));
  const uint64_t cq_depth = (uint64_t{s.tx_depth} + s.rx_depth) * s.qps_per_cq();
  r.require(cq_depth <= d.max_cqe, "(--tx-depth + --rx-depth) x QPs per CQ (--qps, --threads)",
            cq_depth,
            "one completion queue holds them all; it exceeds " + of + "max_cqe " +
                std::to_string(d.max_cqe) +
                (s.open_loop() ? " (an open-loop QP has one round trip out at a time: give "
                                 "smaller --tx-depth and --rx-depth, or more --threads)"
                               : " (--cq-per-qp gives each QP its own)"));
  if (s.transport->one_packet_messages) {
    const uint32_t mtu = path_mtu_limit(s, d);
    r.require(s.size <= mtu, "--sizes", s.size,
              "over " + s.transport.name() + " a message is one packet: at most " + of +
                  "path MTU, " + std::to_string(mtu) + " bytes (" +
                  (mtu < d.active_mtu ? "--mtu" : "the port's active MTU") + ")");
  }
  if (s.srq)
    r.require(s.rx_depth <= d.max_srq_wr, "--rx-depth", s.rx_depth,
              "with --srq it exceeds " + of + "max_srq_wr " + std::to_string(d.max_srq_wr));
  check_reads_and_atomics(s, d, r);
  check_fabric(s, d, r);
}

}  // namespace

std::string spec_refusal(const TestSpec& spec) {
  if (!spec.pattern.chosen()) return "--pattern: no pattern was chosen";
  FirstRefusal r;
  check_spec(spec, r);
  return std::move(r).why();
}

std::string spec_refusal(const TestSpec& spec, const DeviceLimits& limits) {
  if (std::string why = spec_refusal(spec); !why.empty()) return why;
  FirstRefusal r;
  check_against(spec, limits, r);
  return std::move(r).why();
}

void validate_spec(const TestSpec& spec) {
  if (std::string why = spec_refusal(spec); !why.empty()) throw Error(ExitCode::kUsage, why);
}

void validate_spec(const TestSpec& spec, const DeviceLimits& limits) {
  if (std::string why = spec_refusal(spec, limits); !why.empty())
    throw Error(ExitCode::kUsage, why);
}

void validate_local_device(const LocalDevice& local, Bootstrap method) {
  if (local.gid_index && method == Bootstrap::kRdmaCm)
    throw Error(ExitCode::kUsage,
                "--gid-index is set over rdma_cm, which takes the GID of the address it resolves: "
                "give the address whose GID you want (mesh: --address), or --cm oob for "
                "--gid-index");
}

void validate_local_device(const LocalDevice& local, Bootstrap method, const DeviceLimits& limits) {
  validate_local_device(local, method);
  if (local.gid_index && *local.gid_index >= limits.gid_table_len)
    throw Error(ExitCode::kUsage,
                "--gid-index " + std::to_string(*local.gid_index) + ": it must be below " +
                    limits.device + "'s GID table length " + std::to_string(limits.gid_table_len));
}

}  // namespace rdmabench
