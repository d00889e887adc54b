#include "channel/line_buffer.h"

#include <gtest/gtest.h>

#include <string>

using namespace rdmabench;

TEST(LineBuffer, HandsOutWholeLinesOnlyInTheOrderTheyCame) {
  LineBuffer b;
  const std::string first = "{\"type\":\"hel";
  b.append(first.data(), first.size());
  EXPECT_FALSE(b.next_line());
  const std::string rest = "lo\"}\n{\"type\":\"bye\"}\n{\"ty";
  b.append(rest.data(), rest.size());
  EXPECT_EQ(b.next_line(), "{\"type\":\"hello\"}");
  EXPECT_EQ(b.next_line(), "{\"type\":\"bye\"}");
  EXPECT_FALSE(b.next_line());
}

TEST(LineBuffer, ALineThatNeverEndsIsRefusedPastAMessagesBound) {
  LineBuffer b;
  const std::string chunk(4096, 'x');
  size_t taken = 0;
  EXPECT_THROW(
      {
        for (;;) {
          b.append(chunk.data(), chunk.size());
          taken += chunk.size();
        }
      },
      Error);
  EXPECT_LE(taken, kMessageBounds.max_bytes);
  EXPECT_GT(taken + chunk.size(), kMessageBounds.max_bytes);
}
