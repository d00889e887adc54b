// Inline room asked of a device that grants less: asked again, lower, until it takes it
// (before, an automatic request the device refused failed the run, and --inline N a usage
// error).
#include "datapath/inline_fallback.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace rdmabench {
namespace {

TEST(InlineFallback, AsksTheWantedSizeThenEachLowerPowerOfTwoThenNone) {
  EXPECT_EQ(inline_requests(220), (std::vector<uint32_t>{220, 128, 64, 32, 16, 8, 4, 2, 1, 0}));
  EXPECT_EQ(inline_requests(64), (std::vector<uint32_t>{64, 32, 16, 8, 4, 2, 1, 0}));
  EXPECT_EQ(inline_requests(0), (std::vector<uint32_t>{0}));
}

// A fake device that grants at most `most` inline bytes, refusing more as a provider does.
struct FakeDevice {
  uint32_t most;
  std::vector<uint32_t> asked;
  std::unique_ptr<uint32_t> create(uint32_t inline_bytes) {
    asked.push_back(inline_bytes);
    if (inline_bytes > most) throw VerbsError("ibv_create_qp", EINVAL);
    return std::make_unique<uint32_t>(inline_bytes);
  }
};

TEST(InlineFallback, TakesTheFirstSizeTheDeviceGrants) {
  FakeDevice device{60, {}};
  const auto granted =
      create_with_inline_fallback(220, [&](uint32_t n) { return device.create(n); });
  EXPECT_EQ(*granted, 32u);
  EXPECT_EQ(device.asked, (std::vector<uint32_t>{220, 128, 64, 32}));
}

TEST(InlineFallback, ADeviceWithoutInlineGetsZero) {
  FakeDevice device{0, {}};
  EXPECT_EQ(*create_with_inline_fallback(220, [&](uint32_t n) { return device.create(n); }), 0u);
}

TEST(InlineFallback, AnyOtherErrorEndsTheSearchAtOnce) {
  int calls = 0;
  auto out_of_memory = [&](uint32_t) -> std::unique_ptr<uint32_t> {
    ++calls;
    throw VerbsError("ibv_create_qp", ENOMEM);
  };
  EXPECT_THROW(create_with_inline_fallback(220, out_of_memory), VerbsError);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace rdmabench
