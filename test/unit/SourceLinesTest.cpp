// The one line/column helper the engine and the printers share.
#include "facts/SourceLines.h"

#include <gtest/gtest.h>

namespace to_device_migrate {
namespace {

TEST(SourceLines, LineAndColumnAreOneBased) {
  EXPECT_EQ(lineAndColumn("ab\ncd", 0), std::make_pair(1u, 1u));
  EXPECT_EQ(lineAndColumn("ab\ncd", 4), std::make_pair(2u, 2u));
}

TEST(SourceLines, LineAtDropsTheLineBreakCrlfIncluded) {
  EXPECT_EQ(lineAt("one\r\ntwo\r\n", 6), "two");
  EXPECT_EQ(lineAt("one\ntwo", 0), "one");
  EXPECT_EQ(lineAt("one\ntwo", 3), "one"); // the newline belongs to its line
  EXPECT_EQ(lineBefore("one\ntwo", 5), "one");
  EXPECT_EQ(lineBefore("one\ntwo", 1), "");
  EXPECT_EQ(lineStart("a\nbb\nccc", 3), 5u);
}

} // namespace
} // namespace to_device_migrate
