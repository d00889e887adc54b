// A PollTarget over several CQs (an open-loop lane with --cq-per-qp, its CQs on one channel):
// each poll takes the CQs in turn from where the last one left off and counts every empty
// ibv_poll_cq; a wait arms only the CQs not armed already; an event is counted on the CQ it
// names, which is polled first next. Fake CQs answer from scripts.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "core/error.h"
#include "fake_cq.h"

using namespace rdmabench;
using ScriptedCq = rdmabench::testing::FakeCq;
using rdmabench::testing::FakeTarget;

namespace {

class PollInTurnTest : public ::testing::Test {
 protected:
  // Three CQs in one target; `scripts` what each one's ibv_poll_cq calls return.
  void make(std::array<std::deque<int>, 3> scripts) {
    for (auto& s : scripts) fakes_.push_back(std::make_unique<ScriptedCq>(std::move(s)));
    for (auto& f : fakes_) queues_.push_back(&f->cq());
    holder_ = std::make_unique<FakeTarget>(*fakes_[0], "event");
    holder_->target.cqs = queues_;
  }
  PollTarget& target() { return holder_->target; }
  ScriptedCq& fake(size_t k) { return *fakes_[k]; }
  std::vector<int> calls() const {
    std::vector<int> out;
    for (auto& f : fakes_) out.push_back(f->calls());
    return out;
  }
  std::vector<int> arms() const {
    std::vector<int> out;
    for (auto& f : fakes_) out.push_back(f->arms());
    return out;
  }

  std::vector<std::unique_ptr<ScriptedCq>> fakes_;
  std::vector<CompletionQueue*> queues_;
  std::unique_ptr<FakeTarget> holder_;
  std::array<ibv_wc, 32> wc_{};
};

TEST_F(PollInTurnTest, EachPollGoesOnFromTheCqAfterTheOneThatLastAnsweredAndCountsEveryEmptyOne) {
  make({std::deque<int>{0, 0}, std::deque<int>{2}, std::deque<int>{3}});
  EXPECT_EQ(target().poll(wc_), 2);  // CQ 0 empty, CQ 1 answers
  EXPECT_EQ(calls(), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(target().counts.empty_polls, 1u);
  EXPECT_EQ(target().poll(wc_), 3);  // from CQ 2, not CQ 0 again
  EXPECT_EQ(calls(), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(target().poll(wc_), 0);  // every one empty: one sweep, three empty polls
  EXPECT_EQ(calls(), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(target().counts.empty_polls, 4u);
}

TEST_F(PollInTurnTest, ACqWithMoreThanABatchWaitsForTheOthersTurnsBeforeItsNext) {
  make({std::deque<int>{40, 5}, std::deque<int>{1}, std::deque<int>{0}});
  target().batch = 32;
  EXPECT_EQ(target().poll(wc_), 32);  // CQ 0's first batch
  EXPECT_EQ(target().poll(wc_), 1);   // CQ 1 before CQ 0's second
  EXPECT_EQ(target().poll(wc_), 5);   // CQ 2 empty, then CQ 0
  EXPECT_EQ(fake(0).asked(), (std::vector<int>{32, 32}));
}

TEST_F(PollInTurnTest, AWaitArmsOnlyTheCqsWhoseEventWasTakenAndPollsThatOneFirst) {
  make({std::deque<int>{1}, std::deque<int>{1}, std::deque<int>{4}});
  target().arm();
  EXPECT_EQ(arms(), (std::vector<int>{1, 1, 1}));
  target().arm();  // none fired: none armed again (each is armed, or its event is waiting)
  EXPECT_EQ(arms(), (std::vector<int>{1, 1, 1}));
  target().event_taken(fake(2).cq().native());
  target().arm();
  EXPECT_EQ(arms(), (std::vector<int>{1, 1, 2}));
  EXPECT_EQ(target().poll(wc_), 4);  // begins at the CQ the event named
  EXPECT_EQ(calls(), (std::vector<int>{0, 0, 1}));
}

TEST_F(PollInTurnTest, OnceArmedAndFoundEmptyACqIsPassedOverUntilItsEventIsTaken) {
  make({std::deque<int>{0, 0, 0}, std::deque<int>{0, 0, 0}, std::deque<int>{0, 0, 0, 2}});
  EXPECT_EQ(target().poll(wc_), 0);  // not armed: every CQ polled (as busy polls them all)
  EXPECT_EQ(target().poll(wc_), 0);
  EXPECT_EQ(calls(), (std::vector<int>{2, 2, 2}));
  target().arm();
  EXPECT_EQ(target().poll_skipping_quiet(wc_), 0);  // armed, then found empty: quiet
  EXPECT_EQ(target().poll_skipping_quiet(wc_), 0);  // nothing polled
  EXPECT_EQ(calls(), (std::vector<int>{3, 3, 3}));
  EXPECT_EQ(target().counts.empty_polls, 9u);  // only the polls made
  target().event_taken(fake(2).cq().native());
  EXPECT_EQ(target().poll_skipping_quiet(wc_), 2);  // the CQ the event named, alone
  EXPECT_EQ(calls(), (std::vector<int>{3, 3, 4}));
}

TEST_F(PollInTurnTest, ASpinPollsEveryCqQuietOrNotForItReadsNoChannel) {
  make({std::deque<int>{0, 0}, std::deque<int>{0, 3}, std::deque<int>{0}});
  target().arm();
  EXPECT_EQ(target().poll_skipping_quiet(wc_), 0);  // every one quiet
  EXPECT_EQ(target().poll(wc_), 3);                 // CQ 1's completion, with no event taken yet
  EXPECT_EQ(calls(), (std::vector<int>{2, 2, 1}));
}

TEST_F(PollInTurnTest, AnEventForACqTheTargetDoesNotPollIsAnError) {
  make({std::deque<int>{}, std::deque<int>{}, std::deque<int>{}});
  ScriptedCq stranger({});
  try {
    target().event_taken(stranger.cq().native());
    FAIL() << "taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("a completion event for a CQ that"), std::string::npos)
        << e.what();
  }
}

TEST(PollOneCq, EveryPollIsOnItsOneCqAndAnEventOnItDisarmsIt) {
  ScriptedCq fake({0, 1});
  FakeTarget holder(fake, "event");
  std::array<ibv_wc, 32> wc{};
  EXPECT_EQ(holder.target.poll(wc), 0);
  EXPECT_EQ(holder.target.poll(wc), 1);
  EXPECT_EQ(fake.calls(), 2);
  EXPECT_EQ(holder.target.counts.empty_polls, 1u);
  holder.target.arm();
  holder.target.arm();
  EXPECT_EQ(fake.arms(), 1);
  holder.target.event_taken(fake.cq().native());
  holder.target.arm();
  EXPECT_EQ(fake.arms(), 2);
}

}  // namespace
