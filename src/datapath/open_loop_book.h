// Open-loop latency over many connections (issue 68): the round trips of a lane's connections,
// which share one CQ. Each connection has at most one round trip out; its next is due at its
// intended start (arrival_times.h), and goes out then or, while the one before is still out, as
// soon as that one is back, its latency still counted from when it was meant to start (a
// stall shows in every round trip behind it: no coordinated omission). A completion names its
// connection (the stream index in its wr_id); the book keeps each connection's samples apart,
// for percentiles per connection and per run, in the caller's storage. Nothing here allocates
// after construction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "datapath/arrival_times.h"

namespace rdmabench {

class OpenLoopBook {
 public:
  // One schedule per connection; connection c keeps the samples of its round trips that start
  // and end inside [window_start_ns, window_end_ns] in its share of `storage` (an equal part a
  // connection, from c x room on), and starts at most `limit` round trips (by iterations).
  OpenLoopBook(std::vector<ArrivalTimes> schedules, std::span<uint64_t> storage,
               uint64_t window_start_ns, uint64_t window_end_ns, uint64_t limit = UINT64_MAX)
      : schedules_(std::move(schedules)),
        intended_(schedules_.size(), kIdle),
        started_(schedules_.size(), 0),
        samples_(storage),
        counted_(schedules_.size(), 0),
        room_(schedules_.empty() ? 0 : storage.size() / schedules_.size()),
        window_start_(window_start_ns),
        window_end_(window_end_ns),
        limit_(limit) {
    waiting_.reserve(schedules_.size());
    for (uint32_t c = 0; c < schedules_.size() && limit_ > 0; ++c) waiting_.push_back(c);
    std::make_heap(waiting_.begin(), waiting_.end(), later());
  }

  struct Due {
    uint32_t connection = 0;
    uint64_t at = UINT64_MAX;  // none waiting: every connection has a round trip out
  };
  // The connection with no round trip out whose next is due soonest.
  Due next_due() const noexcept {
    if (waiting_.empty()) return {};
    return {waiting_.front(), schedules_[waiting_.front()].next()};
  }
  // Connection `c` (next_due's) sends its due round trip now.
  void start(uint32_t c) noexcept {
    std::pop_heap(waiting_.begin(), waiting_.end(), later());
    waiting_.pop_back();
    intended_[c] = schedules_[c].next();
    schedules_[c].advance();
    ++started_[c];
    ++out_;
  }
  // Connection `c`'s round trip came back at `now_ns`: counted when it started and ended inside
  // the window. A completion for a connection with none out is the peer's stray message.
  void finish(uint32_t c, uint64_t now_ns) {
    if (c >= intended_.size() || intended_[c] == kIdle) [[unlikely]]
      throw Error(ExitCode::kRuntime, "a reply came on connection " + std::to_string(c) +
                                          ", which had no round trip out (a stray message)");
    const uint64_t intended = intended_[c];
    intended_[c] = kIdle;
    schedules_[c].came_back_at(now_ns);
    --out_;
    if (started_[c] < limit_) {
      waiting_.push_back(c);
      std::push_heap(waiting_.begin(), waiting_.end(), later());
    }
    if (intended < window_start_ || now_ns > window_end_) return;
    if (counted_[c] == room_) [[unlikely]]
      throw Error(ExitCode::kUsage, "connection " + std::to_string(c) + "'s window holds more " +
                                        "than " + std::to_string(room_) +
                                        " round trips, the most kept for percentiles; give a "
                                        "shorter --duration or a lower --rate");
    samples_[c * room_ + counted_[c]++] = now_ns - intended;
    first_counted_ = std::min(first_counted_, intended);
    last_counted_ = std::max(last_counted_, now_ns);
  }

  uint64_t out() const noexcept { return out_; }  // round trips out now
  bool has_out(uint32_t c) const noexcept { return intended_[c] != kIdle; }
  size_t connections() const noexcept { return schedules_.size(); }
  uint64_t started(uint32_t c) const noexcept { return started_[c]; }  // margins included
  size_t room() const noexcept { return room_; }  // samples kept at most per connection
  // From the first counted round trip's intended start to the last counted reply (0: none).
  uint64_t counted_span_ns() const noexcept {
    return last_counted_ > first_counted_ ? last_counted_ - first_counted_ : 0;
  }
  // Connection c's counted round trips (ns, from their intended starts), in the order they came.
  std::span<const uint64_t> samples(uint32_t c) const noexcept {
    return {samples_.data() + c * room_, counted_[c]};
  }

 private:
  static constexpr uint64_t kIdle = UINT64_MAX;
  // Orders the heap of waiting connections soonest-due first.
  struct Later {
    const std::vector<ArrivalTimes>* schedules;
    bool operator()(uint32_t a, uint32_t b) const {
      return (*schedules)[a].next() > (*schedules)[b].next();
    }
  };
  Later later() const { return {&schedules_}; }

  std::vector<ArrivalTimes> schedules_;
  std::vector<uint64_t> intended_;  // per connection: its round trip out's intended start
  std::vector<uint64_t> started_;   // per connection: round trips started
  std::span<uint64_t> samples_;     // room_ per connection
  std::vector<size_t> counted_;
  std::vector<uint32_t> waiting_;  // a heap of the connections with no round trip out
  size_t room_;
  uint64_t window_start_, window_end_;
  uint64_t limit_;
  uint64_t out_ = 0;
  uint64_t first_counted_ = UINT64_MAX, last_counted_ = 0;
};

// Drives `book` until `stop_at_ns`: every round trip due by now goes out (post(c)), and each
// harvest hands back the connections whose replies came (harvest(on_reply), on_reply(c) once
// for each); after the stop, no new round trip goes out and the run ends when none is out.
// `clock` is anything with now_ns() (a test's fake, or the run's SampleClock). harvest may
// block until a reply comes, or return with none when the next start is due
// (harvest(on_reply, next_due_ns)).
template <typename Clock, typename Post, typename Harvest>
void run_open_loop(OpenLoopBook& book, const Clock& clock, uint64_t stop_at_ns, Post&& post,
                   Harvest&& harvest) {
  for (;;) {
    const uint64_t now = clock.now_ns();
    for (OpenLoopBook::Due d = book.next_due(); d.at <= now && d.at < stop_at_ns;
         d = book.next_due()) {
      post(d.connection);
      book.start(d.connection);
    }
    const OpenLoopBook::Due next = book.next_due();
    const uint64_t next_start = next.at < stop_at_ns ? next.at : UINT64_MAX;
    if (book.out() == 0 && next_start == UINT64_MAX) return;
    harvest([&](uint32_t c) { book.finish(c, clock.now_ns()); }, next_start);
  }
}

}  // namespace rdmabench
