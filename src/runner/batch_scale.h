// Google Benchmark's --benchmark_min_time grows a benchmark's batch of n iterations until the
// time handed back reaches min_time; rdmabench hands back n x the time of one message (so that
// real_time is 1 / msgs_per_second). A run of n per-QP iterations, though, makes n messages on
// every QP (two a round trip where latency is half a round trip): handed back as n messages,
// its time was that many times too short, and the batches grew by that factor past min_time (a
// 256-connection open loop at 5 round trips/s a QP grew to 512000 messages, 400 s, for a 0.5 s
// min_time). BatchScale turns a batch into the per-QP count that makes about that many
// messages, from what the benchmark's last run counted: time handed back and time taken agree.
#pragma once

#include <cstdint>

namespace rdmabench {

class BatchScale {
 public:
  // The per-QP iterations for a batch of `batch` messages: the batch itself until a run was
  // counted, then the fewest per-QP iterations that make at least `batch` messages (one at
  // least).
  uint64_t iterations_for(uint64_t batch) const {
    if (messages_per_iteration_ <= 1) return batch;
    const uint64_t n = (batch + messages_per_iteration_ - 1) / messages_per_iteration_;
    return n == 0 ? 1 : n;
  }
  // A run of `iterations` per QP counted `messages`; one that counted nothing teaches nothing.
  void counted(uint64_t iterations, uint64_t messages) {
    if (iterations > 0 && messages > 0) messages_per_iteration_ = messages / iterations;
  }

 private:
  uint64_t messages_per_iteration_ = 0;  // 0: not counted yet
};

}  // namespace rdmabench
