#include "bootstrap/datagram_proof.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/gid.h"
#include "core/printable_text.h"
#include "core/wait_readable.h"
#include "datapath/completion_check.h"
#include "messages/control_messages.h"
#include "verbs/work_request.h"

namespace rdmabench {

namespace {

// How long an idle wait sleeps between polls of the CQs (a setup step, not a timed one).
constexpr std::chrono::milliseconds kIdlePoll{1};

std::string qp_text(uint32_t qp_number) {
  std::array<char, 16> text{};
  std::snprintf(text.data(), text.size(), "0x%06x", qp_number);
  return text.data();
}

struct StreamProof {
  QpStream* stream;
  QpAddress named;
  bool proved = false;
  uint64_t strays = 0;
  std::optional<DatagramSender> first_stray;
  std::chrono::steady_clock::time_point asked{};  // the client's last ask
  bool sending = false;  // this side's datagram not yet completed (one at a time per stream)
};

// One byte from the stream's send slot to the address the peer named, signalled (a zero-byte
// send is the end-of-stream marker, pattern.h). Its wr_id is send 0: a run's sends count from 1.
void send_proof(QpStream& s) {
  const ibv_sge one_byte{reinterpret_cast<uintptr_t>(s.source()), 1, s.buffer().lkey()};
  SendWorkRequest wr = SendWorkRequest::datagram(IBV_WR_SEND, one_byte, s.datagram_destination());
  wr.native().wr_id = s.send_id(0);
  wr.native().send_flags = IBV_SEND_SIGNALED;
  s.qp().post_send(wr.native());
}

// The exchange on one side: which streams' peers have proved their address, and what is still
// to complete of this side's own proof datagrams.
class ProofExchange {
 public:
  ProofExchange(Endpoint& ep, Side side, const std::vector<QpAddress>& named)
      : ep_(ep), side_(side), receives_(ep.spec().receives_on(side)) {
    for (size_t i = 0; i < ep.streams().size(); ++i) {
      QpStream* s = ep.streams()[i].get();
      proofs_.push_back({s, named.at(i), false, 0, std::nullopt});
      CompletionQueue* cq = s->group().cq.get();
      if (std::find(queues_.begin(), queues_.end(), cq) == queues_.end()) queues_.push_back(cq);
    }
  }

  // The client's first ask: where this side takes no receives in a run, one for the answer (a
  // side that takes none has room for one: QpStream's receive ring); then a datagram per stream.
  void ask() {
    for (StreamProof& p : proofs_) {
      if (!receives_) p.stream->post_receive(0);
      ask(p);
    }
  }
  // The client asks again on each stream whose answer has not come within kAskAgain.
  void ask_again() {
    const auto now = std::chrono::steady_clock::now();
    for (StreamProof& p : proofs_)
      if (!p.proved && !p.sending && now - p.asked >= kAskAgain) ask(p);
  }

  Side side() const noexcept { return side_; }
  bool all_proved() const noexcept { return proved_ == proofs_.size(); }
  // Nothing of this side's own left to complete.
  bool idle() const noexcept {
    return std::none_of(proofs_.begin(), proofs_.end(),
                        [](const StreamProof& p) { return p.sending; });
  }
  // Every stream's datagram came, but the client never said so.
  bool client_silent() const noexcept { return side_ == Side::kServer && all_proved() && idle(); }

  // Takes what completed on every CQ; false when nothing had.
  bool take() {
    std::array<ibv_wc, 16> wcs{};
    bool took = false;
    for (CompletionQueue* cq : queues_) {
      const int n = cq->poll(wcs);
      for (int i = 0; i < n; ++i) on_completion(wcs[i]);
      took = took || n > 0;
    }
    return took;
  }

  // The first stream still waiting, as the error that ends the exchange.
  [[noreturn]] void give_up(std::chrono::milliseconds waited) const {
    const char* named_by = side_ == Side::kServer ? "the client" : "the server";
    for (uint32_t i = 0; i < proofs_.size(); ++i)
      if (!proofs_[i].proved)
        throw unproven_peer(proofs_[i].named, named_by, i, waited, proofs_[i].strays,
                            proofs_[i].first_stray);
    const std::string within = " within " + std::to_string(waited.count()) + " ms";
    if (client_silent())
      throw Error(ExitCode::kConnection,
                  "datagram proof: a datagram came from each address "
                  "the client named, but it did not say 'proved'" +
                      within);
    throw Error(ExitCode::kRuntime,
                "datagram proof: this side's own datagrams did not complete" + within);
  }

 private:
  void send(StreamProof& p) {
    send_proof(*p.stream);
    p.sending = true;
  }
  void ask(StreamProof& p) {
    send(p);
    p.asked = std::chrono::steady_clock::now();
  }

  void on_completion(const ibv_wc& wc) {
    check_completion(wc, ep_.spec());
    if ((wc.opcode & IBV_WC_RECV) == 0) {
      proof_of(wc.qp_num).sending = false;
      return;
    }
    StreamProof& p = proof_of(wc.qp_num);
    QpStream& s = *p.stream;
    const uint8_t* grh = s.receive_slot(wc.wr_id) - ep_.spec().transport->receive_header_bytes;
    const DatagramSender sender = datagram_sender(ep_.context(), ep_.port(), wc, grh);
    const bool from_named = came_from(sender, p.named);
    // The run's receive back in its place; a client without receives in a run keeps the one
    // it posted for the answer only until the answer came.
    if (!from_named || receives_ || side_ == Side::kServer) s.post_receive(wc.wr_id);
    if (!from_named) {
      if (p.strays++ == 0) p.first_stray = sender;
      return;
    }
    if (!p.proved) ++proved_;
    p.proved = true;
    // Every ask is answered (an answer may be lost), one answer in flight at a time.
    if (side_ == Side::kServer && !p.sending) send(p);
  }

  StreamProof& proof_of(uint32_t qp_number) {
    for (StreamProof& p : proofs_)
      if (p.stream->qp().number() == qp_number) return p;
    throw Error(ExitCode::kInternal, "datagram proof: a completion on QP " + qp_text(qp_number) +
                                         ", which is none of this side's");
  }

  Endpoint& ep_;
  Side side_;
  bool receives_;
  std::vector<StreamProof> proofs_;
  std::vector<CompletionQueue*> queues_;
  size_t proved_ = 0;
};

// A message other than the one the proof waits for.
Error unexpected_message(const nlohmann::json& said) {
  return Error(ExitCode::kConnection, "the peer sent '" +
                                          peer_excerpt(said.value("type", std::string("?"))) +
                                          "' during the datagram proof");
}

// The server's reading of a message during the proof: the client's "proved", once every stream
// proved its address (true), or an error.
bool client_said_proved(const nlohmann::json& said, const ProofExchange& exchange) {
  if (said.value("type", std::string()) != "proved") throw unexpected_message(said);
  if (!exchange.all_proved())
    throw Error(ExitCode::kConnection,
                "datagram proof: the client said 'proved' before a datagram came from each "
                "address it named");
  return true;
}

// Polls until this side's part is done: the client's when every stream is answered (then it
// says "proved"), the server's when the client said so; between polls, the control channel
// and the stop fd are watched for kIdlePoll.
void await_proofs(ProofExchange& exchange, ControlChannel& control,
                  std::chrono::milliseconds timeout, int stop_fd) {
  const Side side = exchange.side();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool client_done = false;
  for (;;) {
    const bool took = exchange.take();
    if (side == Side::kClient && exchange.all_proved() && exchange.idle()) {
      control.send(proved_message());
      return;
    }
    if (client_done && exchange.idle()) return;
    if (took) continue;
    if (std::chrono::steady_clock::now() >= deadline) exchange.give_up(timeout);
    if (side == Side::kClient) exchange.ask_again();
    const int first =
        first_readable({stop_fd, control.socket().fd()}, kIdlePoll, "poll(control channel)");
    if (first < 0) continue;
    if (first == stop_fd) throw Error(ExitCode::kConnection, "interrupted");
    const auto said = control.receive();  // the peer's error is raised here
    if (side == Side::kClient || client_done) throw unexpected_message(said);
    client_done = client_said_proved(said, exchange);
  }
}

}  // namespace

bool came_from(const DatagramSender& sender, const QpAddress& named) noexcept {
  if (sender.qp_number != named.qp_number) return false;
  return sender.global ? sender.gid == named.gid : sender.lid == named.lid;
}

std::string describe_sender(const DatagramSender& sender) {
  return "QP " + qp_text(sender.qp_number) +
         (sender.global ? " at GID " + format_gid(sender.gid)
                        : " at LID " + std::to_string(sender.lid));
}

Error unproven_peer(const QpAddress& named, const char* named_by, uint32_t stream,
                    std::chrono::milliseconds waited, uint64_t strays,
                    const std::optional<DatagramSender>& first_stray) {
  std::string text = "datagram proof: no datagram came from QP " + qp_text(named.qp_number) +
                     " at GID " + format_gid(named.gid) + ", LID " + std::to_string(named.lid) +
                     " (the address " + named_by + " named for stream " + std::to_string(stream) +
                     ") within " + std::to_string(waited.count()) + " ms";
  if (strays > 0 && first_stray)
    text += "; " + std::to_string(strays) + " came from elsewhere, the first from " +
            describe_sender(*first_stray);
  return Error(ExitCode::kConnection,
               text +
                   ". rdmabench sends no datagram to an address its peer has not proved "
                   "its own (a datagram lost on the way: run again)");
}

void prove_datagram_peers(ControlChannel& control, Endpoint& ep, Side side,
                          const std::vector<QpAddress>& named, std::chrono::milliseconds timeout) {
  ProofExchange exchange(ep, side, named);
  if (side == Side::kClient) exchange.ask();
  control.within_bounds(timeout, [&](std::chrono::milliseconds t, int stop_fd) {
    await_proofs(exchange, control, t, stop_fd);
  });
}

}  // namespace rdmabench
