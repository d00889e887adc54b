// The next message of each connection of an open-loop lane (open_loop_client.h's requests,
// open_loop_server.h's replies): one send request a connection, built before the run, each post
// the stream's next in sequence, its wr_id naming the stream and that sequence, the sequence in
// the immediate where the pattern carries one.
#pragma once

#include <arpa/inet.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "datapath/qp_stream.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

template <typename Stream>
class ConnectionSends {
 public:
  explicit ConnectionSends(const std::vector<Stream*>& streams)
      : streams_(streams),
        with_imm_(streams.front()->spec().pattern->immediate != Immediate::kNone) {
    for (Stream* s : streams_) requests_.emplace_back(*s, s->spec().pattern->opcode);
  }

  // Posts connection c's next message: signalled when `every_one`, else by --signal-every.
  void post(uint32_t c, bool every_one) {
    Stream& s = *streams_[c];
    const uint64_t seq = s.sequence++;
    StreamSendRequest<Stream>& req = requests_[c];
    if (with_imm_) req.wr().imm_data = htonl(static_cast<uint32_t>(seq));
    req.post(s, s.send_id((seq + 1) & kInStreamMask), every_one || signal_this(s.spec(), seq));
  }

 private:
  const std::vector<Stream*>& streams_;
  const bool with_imm_;
  std::deque<StreamSendRequest<Stream>> requests_;  // one a connection (never moved)
};

}  // namespace rdmabench
