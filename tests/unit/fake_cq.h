// A completion queue without a device: its context's poll_cq answers each ibv_poll_cq from a
// script (how many completions each call returns, then empty), so that a strategy's waiting
// loop can be held to what it must decide (return the first completions, count every empty
// poll, give up at the timeout, end on an abort) without rxe.
#pragma once

#include <infiniband/verbs.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "cq/poll_target.h"
#include "cq/strategy.h"
#include "verbs/completion_channel.h"
#include "verbs/completion_queue.h"

namespace rdmabench::testing {

class FakeCq {
 public:
  // `script`: what each ibv_poll_cq call returns in turn (0: empty); every call after it: 0.
  explicit FakeCq(std::deque<int> script) : script_(std::move(script)) {
    context_.ops.poll_cq = [](ibv_cq* cq, int entries, ibv_wc* wc) {
      return static_cast<FakeCq*>(cq->cq_context)->answer(entries, wc);
    };
    context_.ops.req_notify_cq = [](ibv_cq* cq, int) {
      ++static_cast<FakeCq*>(cq->cq_context)->arms_;
      return 0;
    };
    cq_.context = &context_;
    cq_.cq_context = this;
    channel_.context = &context_;
    channel_.fd = -1;
  }
  // The channel's descriptor (none by default): a pipe's read end, for a strategy that blocks
  // in read on it, which only a signal ends (no event comes: ibv_get_cq_event's would need a
  // provider).
  void use_channel_fd(int fd) { channel_.fd = fd; }
  FakeCq(const FakeCq&) = delete;
  FakeCq& operator=(const FakeCq&) = delete;

  CompletionQueue& cq() { return queue_; }
  // The CQ as the one a PollTarget polls.
  std::span<CompletionQueue* const> queues() const { return {&polled_, 1}; }
  CompletionChannel& channel() { return channel_view_; }
  int calls() const { return calls_; }
  int arms() const { return arms_; }                        // ibv_req_notify_cq calls
  const std::vector<int>& asked() const { return asked_; }  // the entries each call asked for

 private:
  int answer(int entries, ibv_wc* wc) {
    ++calls_;
    asked_.push_back(entries);
    if (script_.empty()) return 0;
    const int n = std::min(script_.front(), entries);
    script_.pop_front();
    for (int i = 0; i < n; ++i) {
      wc[i] = ibv_wc{};
      wc[i].wr_id = static_cast<uint64_t>(calls_);  // which call answered it
    }
    return n;
  }

  std::deque<int> script_;
  std::vector<int> asked_;
  int calls_ = 0;
  int arms_ = 0;
  ibv_context context_{};
  ibv_cq cq_{};
  ibv_comp_channel channel_{};
  CompletionQueue queue_ = CompletionQueue::borrowing(&cq_);
  CompletionChannel channel_view_ = CompletionChannel::borrowing(&channel_);
  CompletionQueue* polled_ = &queue_;
};

// A PollTarget on a FakeCq, with the run's limits a test sets.
struct FakeTarget {
  explicit FakeTarget(FakeCq& fake, std::string_view strategy_text,
                      std::chrono::milliseconds timeout = std::chrono::milliseconds(200))
      : strategy(parse_cq_strategy(std::string(strategy_text))),
        name("send/bw/" + strategy.text() + "/64"),
        target{fake.queues(), fake.channel(), counts, strategy, timeout} {
    target.abort = &abort;
    target.benchmark = &name;
  }
  PollCounts counts;
  CqStrategy strategy;
  std::atomic<bool> abort{false};
  std::string name;  // the benchmark's, as a timeout names it
  PollTarget target;
};

}  // namespace rdmabench::testing
