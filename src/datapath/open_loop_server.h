// Open-loop lat over many connections, the server's lane (issue 68; TestSpec::open_loop): every
// request that arrives on any stream of the lane, from the lane's one CQ under the server's
// strategy (busy, event, epoll, ...: what the study compares), is answered at once on its own
// stream, as a storage target or an RPC server answers its connections. It ends when every
// stream has its iterations (by iterations) or its client's end marker (a timed window). The
// patterns whose request the fabric answers (read, atomics) leave the server nothing to do.
#pragma once

#include <arpa/inet.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <vector>

#include "datapath/completion_check.h"
#include "datapath/open_loop_client.h"
#include "datapath/pattern.h"
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
        with_imm_(spec_.pattern->immediate != Immediate::kNone),
        timed_(length.timed_window()),
        iterations_(length.iterations),
        connection_of_(streams, threads, spec_.srq),
        echoed_(streams.size(), 0) {
    for (Stream* s : streams_) replies_.emplace_back(*s, spec_.pattern->opcode);
  }

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
    if (c >= streams_.size()) [[unlikely]]
      throw Error(ExitCode::kRuntime, "a receive named stream " +
                                          std::to_string(stream_of(wc.wr_id)) +
                                          ", which no connection of this thread drives");
    Stream& s = *streams_[c];
    s.post_receive(wc.wr_id);
    if (is_end_of_stream(wc, s.payload_length(wc))) [[unlikely]]
      return false;
    const uint64_t seq = s.sequence++;
    StreamSendRequest<Stream>& reply = replies_[c];
    if (with_imm_) reply.wr().imm_data = htonl(static_cast<uint32_t>(seq));
    reply.post(s, s.send_id((seq + 1) & kInStreamMask), signal_this(spec_, seq));
    ++echoed_[c];
    return timed_ || echoed_[c] < iterations_;
  }

  const std::vector<Stream*>& streams_;
  Poller& poller_;
  const TestSpec& spec_;
  const bool with_imm_, timed_;
  const uint64_t iterations_;
  ConnectionOfCompletion<Stream> connection_of_;
  std::vector<uint64_t> echoed_;
  std::deque<StreamSendRequest<Stream>> replies_;  // one a connection (never moved)
  CompletionBatch wc_;
};

}  // namespace rdmabench
