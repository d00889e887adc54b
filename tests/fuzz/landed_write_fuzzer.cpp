// libFuzzer target for what a peer puts in this side's memory under --validate's write bw
// (checked_write_ring.h): the sender's RDMA writes land anywhere in the target's buffer (it holds
// the buffer's rkey), which the target's checker (landed_write_checker.h) and its loop
// (landed_write_watch.h) take message by message; and the checked count the target publishes,
// which the sender reads back by RDMA read and turns into room to write (write_credit.h).
// The input: the message size and ring slots, then steps: the peer writes bytes at an offset,
// writes the next message whole (or damaged), the target looks at its ring, or the sender reads
// a count (the published word, or any other the target says) and posts what room it has.
// Findings: a crash or a sanitizer report, any exception but an Error, and a broken rule:
// a look checks at most a lap of the ring, the published count is the checker's, a slot checked
// holds the complement again, and a sender never has room past a lap of the ring.
//
// Built by ./tools/test with clang in build-fuzz/ (meson -Dfuzz=true), with ASan and UBSan.
#include <fuzzer/FuzzedDataProvider.h>
#include <infiniband/verbs.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "datapath/checked_write_ring.h"
#include "datapath/landed_write_checker.h"
#include "datapath/landed_write_watch.h"
#include "datapath/payload.h"
#include "datapath/write_credit.h"

namespace {

using namespace rdmabench;

void require(bool rule) {
  if (!rule) std::abort();
}

// The target's stream as its loop sees it: the peer has said it ended, so each watch is one
// look at the ring.
struct EndedStream {
  uint32_t index() const { return 0; }
  std::string name() const { return "write/bw/busy"; }
  bool abort_requested() const { return true; }
  bool peer_has_ended() const { return true; }
};

// The sender's stream as WriteCredit uses it: no device; a read posted is only counted.
struct SenderStream {
  struct Key {
    uint32_t lkey() const { return 1; }
  };
  struct Qp {
    uint64_t reads = 0;
    void post_send(ibv_send_wr&) { ++reads; }
  };
  Key key;
  ibv_mr remote_mr{};
  Qp qp_;
  Key& buffer() { return key; }
  const ibv_mr& remote() const { return remote_mr; }
  Qp& qp() { return qp_; }
  uint64_t send_id(uint64_t n) const { return n; }
};

// Each slot's room ahead of its message, where a transport's receive header goes (any will do).
constexpr uint64_t kHeader = 8;

struct Target {
  Target(uint64_t size, uint64_t slots)
      : pattern(size),
        stride(size + kHeader),
        slots(slots),
        bytes(checked_count_offset(stride, slots) + sizeof(uint64_t)) {
    fill_payload(pattern, size);
  }
  uint64_t* count_word() {
    return reinterpret_cast<uint64_t*>(bytes.data() + checked_count_offset(stride, slots));
  }
  std::vector<uint8_t> pattern;
  uint64_t stride, slots;
  std::vector<uint8_t> bytes;  // the ring, then the checked count, 8-byte aligned
};

// The peer writes `data` at `offset` of the target's buffer (what lands past its end is cut).
void peer_writes(Target& t, uint64_t offset, const std::vector<uint8_t>& data) {
  if (data.empty()) return;
  offset %= t.bytes.size();
  std::memcpy(t.bytes.data() + offset, data.data(), std::min(data.size(), t.bytes.size() - offset));
}

void target_looks(Target& t, LandedWriteChecker& checker) {
  EndedStream stream;
  std::array<EndedStream*, 1> streams{&stream};
  const uint64_t before = checker.checked();
  (void)watch_landed_writes(std::span<EndedStream* const>(streams),
                            std::span<LandedWriteChecker>(&checker, 1), UINT64_MAX,
                            std::chrono::milliseconds(1000));
  require(checker.checked() - before <= t.slots);
  if (checker.checked() != before)  // published (the peer may have written over it since)
    require(__atomic_load_n(t.count_word(), __ATOMIC_ACQUIRE) == checker.checked());
  for (uint64_t n = before; n < checker.checked(); ++n) {  // each checked slot given back
    const uint8_t* slot = t.bytes.data() + n % t.slots * t.stride;
    for (size_t i = 0; i < t.pattern.size(); ++i)
      require(slot[i] == static_cast<uint8_t>(~t.pattern[i]));
  }
}

void run(FuzzedDataProvider& in) {
  const uint64_t size = in.ConsumeIntegralInRange<uint64_t>(1, 512);
  const uint64_t slots = in.ConsumeIntegralInRange<uint64_t>(1, 16);
  Target t(size, slots);
  LandedWriteChecker checker(t.bytes.data(), t.stride, slots, t.pattern, t.count_word(), 0);
  checker.arm();
  SenderStream sender;
  uint64_t landing = 0, posted = 0;
  const CheckedWriteRing ring{0x1000, t.stride, kHeader, slots};
  WriteCredit credit(sender, ring, &landing);
  for (int step = 0; step < 256 && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: {  // anywhere in the target's buffer, the checked count included
        const uint64_t offset = in.ConsumeIntegral<uint16_t>();
        peer_writes(t, offset, in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(1, 600)));
        break;
      }
      case 1: {  // message n whole, maybe with a byte flipped, into its slot
        std::vector<uint8_t> message = t.pattern;
        message[in.ConsumeIntegralInRange<size_t>(0, size - 1)] ^= in.ConsumeIntegral<uint8_t>();
        peer_writes(t, in.ConsumeIntegralInRange<uint64_t>(0, slots - 1) * t.stride, message);
        break;
      }
      case 2:
        target_looks(t, checker);
        break;
      case 3:  // the sender reads the count the target published, or one the target makes up
        landing = in.ConsumeBool() ? *t.count_word() : in.ConsumeIntegral<uint64_t>();
        try {
          credit.take_read(posted);
        } catch (const Error&) {  // a count past what was posted: refused
          break;
        }
        require(credit.room(posted) <= slots);
        break;
      default:  // the sender posts what room it has, and a read when one is due
        posted += std::min(credit.room(posted), in.ConsumeIntegralInRange<uint64_t>(0, slots));
        if (credit.wants_read(posted)) credit.post_read(sender);
        break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  run(in);
  return 0;
}
