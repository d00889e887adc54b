// Open-loop lat over many connections, the server's lane (issue 68; TestSpec::open_loop): every
// request that arrives on any stream of the lane, from the lane's one CQ under the server's
// strategy (busy, event, epoll, ...: what the study compares), is answered at once on its own
// stream, as a storage target or an RPC server answers its connections. It ends when every
// stream has its iterations (by iterations) or its client's end marker (a timed window). The
// patterns whose request the fabric answers (read, atomics) leave the server nothing to do.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "datapath/completion_check.h"
#include "datapath/connection_sends.h"
#include "datapath/pattern.h"
#include "datapath/stream_of_completion.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

template <typename Stream, typename Poller>
class OpenLoopEcho {
 public:
  OpenLoopEcho(const std::vector<Stream*>& streams, Poller& poller, const RunLength& length,
               uint32_t threads)
      : streams_(streams),
        poller_(poller),
        spec_(streams.front()->spec()),
        timed_(length.timed_window()),
        iterations_(length.iterations),
        connection_of_(qp_numbers_of(streams), threads, spec_.srq),
        echoed_(streams.size(), 0),
        replies_(streams) {}

  // Echoes until every stream is done; returns the round trips echoed on each.
  const std::vector<uint64_t>& run() {
    size_t live = timed_ || iterations_ > 0 ? streams_.size() : 0;
    while (live > 0) {
      const int got = wait_for_completions(poller_, wc_);
      for (int i = 0; i < got; ++i)
        if (!take(wc_[i])) --live;
    }
    return echoed_;
  }

 private:
  // One completion: a request answered, a send's completion passed over (true), or a stream
  // done (false: its end marker, or its last iteration answered).
  bool take(const ibv_wc& wc) {
    check_completion(wc, spec_);
    if (!is_receive(wc)) return true;
    const uint32_t c = connection_of_(wc);
    Stream& s = *streams_[c];
    s.post_receive(wc.wr_id);
    if (is_end_of_stream(wc, s.payload_length(wc))) [[unlikely]]
      return false;
    replies_.post(c, false);
    ++echoed_[c];
    return timed_ || echoed_[c] < iterations_;
  }

  const std::vector<Stream*>& streams_;
  Poller& poller_;
  const TestSpec& spec_;
  const bool timed_;
  const uint64_t iterations_;
  StreamOfCompletion connection_of_;
  std::vector<uint64_t> echoed_;
  ConnectionSends<Stream> replies_;
  CompletionBatch wc_;
};

}  // namespace rdmabench
