// The loop of --validate's write bw target (landed_write_watch.h) on fake streams and checkers:
// it ends when every stream has its messages, names the stream furthest behind when nothing
// lands, and a sender that writes without end (the peer is an adversary) can hold it neither
// past an abort nor past its own "finished": each look checks at most a lap of each ring.
#include "datapath/landed_write_watch.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>

#include "core/error.h"

namespace rdmabench {
namespace {

struct WatchedStream {
  uint32_t i = 0;
  bool abort = false, ended = false;
  uint32_t index() const { return i; }
  std::string name() const { return "write/bw/busy"; }
  bool abort_requested() const { return abort || ended; }  // a peer's end raises the abort too
  bool peer_has_ended() const { return ended; }
};

// A ring of `slots` in which message n has landed while n <= landed_until; `bad_message`'s
// check finds 3 corrupt bytes.
struct ScriptedChecker {
  uint64_t slots = 8, landed_until = 0, bad_message = 0, checked_ = 0;
  uint64_t checked() const { return checked_; }
  uint64_t ring_slots() const { return slots; }
  bool landed() const { return checked_ < landed_until; }
  uint64_t check_next() { return ++checked_ == bad_message ? 3 : 0; }
};

constexpr uint64_t kNoEnd = 1'000'000;  // a sender that keeps writing, as far as a test looks

VerifyTally watch(std::span<WatchedStream* const> streams, std::span<ScriptedChecker> checkers,
                  uint64_t due, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  return watch_landed_writes(streams, checkers, due, timeout);
}

TEST(LandedWriteWatch, EndsWhenEveryStreamHasItsMessagesAndNamesTheFirstBadOne) {
  std::array<WatchedStream, 2> s{WatchedStream{0}, WatchedStream{1}};
  std::array<WatchedStream*, 2> streams{&s[0], &s[1]};
  std::array<ScriptedChecker, 2> c{ScriptedChecker{.landed_until = 100},
                                   ScriptedChecker{.landed_until = 100, .bad_message = 41}};
  const VerifyTally found = watch(streams, c, 100);
  EXPECT_EQ(c[0].checked(), 100u);
  EXPECT_EQ(c[1].checked(), 100u);
  EXPECT_EQ(found.errors, 3u);
  EXPECT_EQ(found.first, (BadMessage{1, 41}));
}

TEST(LandedWriteWatch, NothingLandingWithinTheTimeoutNamesTheStreamFurthestBehind) {
  std::array<WatchedStream, 2> s{WatchedStream{0}, WatchedStream{1}};
  std::array<WatchedStream*, 2> streams{&s[0], &s[1]};
  std::array<ScriptedChecker, 2> c{ScriptedChecker{.landed_until = 20},
                                   ScriptedChecker{.landed_until = 7}};
  try {
    watch(streams, c, 100, std::chrono::milliseconds(1));
    FAIL() << "a ring in which nothing lands ended the watch without an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("message 8 of QP 1 did not land"), std::string::npos)
        << e.what();
  }
}

TEST(LandedWriteWatch, ASenderThatNeverStopsWritingCannotHoldOffAnAbort) {
  WatchedStream s{0, /*abort=*/true};
  std::array<WatchedStream*, 1> streams{&s};
  std::array<ScriptedChecker, 1> c{ScriptedChecker{.landed_until = kNoEnd}};
  EXPECT_THROW(watch(streams, c, UINT64_MAX), Error);
  // The abort is looked at every 4096 looks, each at most a lap of the ring.
  EXPECT_LE(c[0].checked(), 4096 * c[0].slots) << "the watch checked writes past the abort";
}

TEST(LandedWriteWatch, AfterThePeerSaidItEndedOneLapOfTheRingMoreAndTheEnd) {
  // A sender that keeps the ring's room never has more than a lap of it unchecked: once it
  // said it ended (its last write completed), one look takes every write it made.
  WatchedStream s{0, false, /*ended=*/true};
  std::array<WatchedStream*, 1> streams{&s};
  std::array<ScriptedChecker, 1> c{ScriptedChecker{.landed_until = kNoEnd}};
  EXPECT_NO_THROW(watch(streams, c, UINT64_MAX));
  EXPECT_EQ(c[0].checked(), c[0].slots) << "writes after the peer's end were taken";
}

}  // namespace
}  // namespace rdmabench
