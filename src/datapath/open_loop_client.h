// Open-loop lat over many connections, the client's lane (issue 68; TestSpec::open_loop): each
// stream of the lane is a connection carrying round trips at its own --rate (fixed spacing or
// Poisson, arrival_times.h), at most one out at a time; every reply comes to the lane's one CQ,
// which the client polls without blocking (the load generator times each reply when it comes:
// its strategy is busy, validation says so), between the starts that are due. The book
// (open_loop_book.h) counts each round trip from its intended start. A reply is a receive
// (send, send_imm, write_imm: the server's echo) or, where the request is answered by the
// fabric (read, atomics), the request's own completion. Everything is built before the clock
// starts; between post and poll nothing allocates, logs, locks or makes a virtual call.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cq/poll_target.h"
#include "datapath/arrival_times.h"
#include "datapath/client_measurement.h"
#include "datapath/completion_check.h"
#include "datapath/connection_sends.h"
#include "datapath/endpoint.h"
#include "datapath/open_loop_book.h"
#include "datapath/stream_of_completion.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

// The seed of every Poisson schedule: the same starts run after run (a connection's own stream
// of it, by the connection's index).
inline constexpr uint64_t kArrivalSeed = 1;

// What the client's open-loop lane needs besides its streams.
struct OpenLoopPlan {
  RunLength length;
  uint32_t threads = 1;                      // lane t holds streams t, t + threads, ...
  std::chrono::milliseconds timeout{5000};   // the longest wait for a reply out
  const std::atomic<bool>* abort = nullptr;  // raised: the run ends early
  const std::string* benchmark = nullptr;    // for messages
};

// Each connection's schedule: stream i of `qps` shifted by i/qps of a period (fixed), or its own
// Poisson stream; every one from `start_ns`. Without a rate, back to back.
template <typename Stream>
std::vector<ArrivalTimes> connection_schedules(const std::vector<Stream*>& streams,
                                               const TestSpec& spec, uint64_t start_ns) {
  std::vector<ArrivalTimes> out;
  const uint64_t period_ns = spec.rate > 0 ? 1'000'000'000 / spec.rate : 0;
  for (Stream* s : streams)
    out.emplace_back(spec.arrivals, start_ns, period_ns, s->index(), spec.qps, kArrivalSeed);
  return out;
}

template <typename Stream, typename Poller, typename Clock>
class OpenLoopClient {
 public:
  OpenLoopClient(const std::vector<Stream*>& streams, Poller& poller, const OpenLoopPlan& plan,
                 const Clock& clock)
      : streams_(streams),
        poller_(poller),
        plan_(plan),
        clock_(clock),
        spec_(streams.front()->spec()),
        reply_is_receive_(spec_.pattern->arrival == Arrival::kReceive),
        connection_of_(qp_numbers_of(streams), plan.threads, spec_.srq),
        requests_(streams) {}

  // Runs the lane, its samples into `samples` (an equal share a connection).
  ClientMeasurement run(std::span<uint64_t> samples) {
    const RunLength& length = plan_.length;
    const bool timed = length.timed_window();
    const uint64_t first = clock_.now_ns();
    const uint64_t window_start = timed ? first + length.margin_ns : 0;
    const uint64_t window_end = timed ? window_start + length.duration_ns : UINT64_MAX;
    const uint64_t stop_at = timed ? window_end + length.margin_ns : UINT64_MAX;
    OpenLoopBook book(connection_schedules(streams_, spec_, first), samples, window_start,
                      window_end, timed ? UINT64_MAX : length.iterations);
    run_open_loop(
        book, clock_, stop_at, [&](uint32_t c) { post(c); },
        [&](auto&& on_reply, uint64_t next_start) { harvest(book, on_reply, next_start); });
    if (timed && reply_is_receive_)  // the server's echo ends at each stream's marker
      for (Stream* s : streams_) EndOfStream().post(*s, s->send_id(kInStreamMask));
    return measurement(book);
  }

 private:
  // Connection c's request; signalled always where its completion is the reply.
  void post(uint32_t c) { requests_.post(c, !reply_is_receive_); }

  // Polls until a reply came or the next start is due (the clock read after every poll: a start
  // goes at most one poll late); no reply within the timeout while round trips are out is an
  // error naming the connection waited for.
  template <typename OnReply>
  void harvest(const OpenLoopBook& book, OnReply& on_reply, uint64_t next_start) {
    uint64_t deadline = 0;
    for (;;) {
      const int got = poller_.try_poll(wc_);
      bool replied = false;
      for (int i = 0; i < got; ++i) replied |= take(wc_[i], on_reply);
      if (replied) return;
      const uint64_t now = clock_.now_ns();
      if (now >= next_start) return;
      if (plan_.abort != nullptr && plan_.abort->load(std::memory_order_relaxed)) [[unlikely]]
        throw_run_aborted(*plan_.benchmark);
      if (got > 0 || book.out() == 0)
        deadline = 0;
      else if (deadline == 0)
        deadline = now + static_cast<uint64_t>(plan_.timeout.count()) * 1'000'000;
      else if (now > deadline) [[unlikely]]
        throw_no_reply(book);
    }
  }

  // One completion: a reply (true) handed to the book, or a send's completion passed over.
  template <typename OnReply>
  bool take(const ibv_wc& wc, OnReply& on_reply) {
    check_completion(wc, spec_);
    if (is_receive(wc) != reply_is_receive_) return false;
    const uint32_t c = connection_of_(wc);
    if (reply_is_receive_) streams_[c]->post_receive(wc.wr_id);
    on_reply(c);
    return true;
  }

  [[noreturn]] void throw_no_reply(const OpenLoopBook& book) const {
    std::string waiting;
    for (uint32_t c = 0; c < streams_.size() && waiting.empty(); ++c)
      if (book.has_out(c)) waiting = std::to_string(streams_[c]->index());
    throw Error(ExitCode::kRuntime, "no reply within " + std::to_string(plan_.timeout.count()) +
                                        " ms in " + *plan_.benchmark + " with " +
                                        std::to_string(book.out()) +
                                        " round trips out (the first: QP " + waiting +
                                        "): the server is gone or stalled, or over an unreliable "
                                        "transport a message was lost (see --timeout)");
  }

  ClientMeasurement measurement(const OpenLoopBook& book) const {
    ClientMeasurement m;
    m.connection_room = book.room();
    uint64_t sum_ns = 0;
    for (uint32_t c = 0; c < book.connections(); ++c) {
      const std::span<const uint64_t> s = book.samples(c);
      m.connections.push_back({book.started(c), s.size()});
      m.round_trips += s.size();
      m.all_round_trips += book.started(c);
      for (uint64_t v : s) sum_ns += v;
    }
    m.seconds = static_cast<double>(sum_ns) * 1e-9;
    m.span_seconds = static_cast<double>(book.counted_span_ns()) * 1e-9;
    return m;
  }

  const std::vector<Stream*>& streams_;
  Poller& poller_;
  const OpenLoopPlan& plan_;
  const Clock& clock_;
  const TestSpec& spec_;
  const bool reply_is_receive_;
  StreamOfCompletion connection_of_;
  ConnectionSends<Stream> requests_;
  CompletionBatch wc_;
};

}  // namespace rdmabench
