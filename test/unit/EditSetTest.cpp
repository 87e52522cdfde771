// The one applier of every rule's edits: duplicates kept once, insertions at
// one point kept in order, overlaps refused with both rules named.
#include "diagnostics/EditSet.h"

#include <gtest/gtest.h>

namespace to_device_migrate {
namespace {

std::string applied(const EditSet &Edits, llvm::StringRef Code) {
  llvm::Expected<std::string> Result = Edits.apply("f.cpp", Code);
  if (!Result)
    return "error: " + llvm::toString(Result.takeError());
  return *Result;
}

TEST(EditSet, IdenticalEditsAreKeptOnce) {
  EditSet Edits;
  Edits.add(3, 0, "X", "a");
  Edits.add(3, 0, "X", "b"); // e.g. one template seen through two instantiations
  EXPECT_EQ(Edits.size(), 1u);
  EXPECT_EQ(applied(Edits, "abcdef"), "abcXdef");
}

TEST(EditSet, InsertionsAtOnePointKeepTheirOrder) {
  EditSet Edits;
  Edits.add(2, 0, "1", "first");
  Edits.add(2, 0, "2", "second");
  Edits.add(0, 1, "A", "third");
  EXPECT_EQ(applied(Edits, "abc"), "Ab12c");
}

TEST(EditSet, OverlappingReplacementsAreRefusedNamingBothRules) {
  EditSet Edits;
  Edits.add(1, 3, "XYZ", "tensor-factory");
  Edits.add(2, 3, "Q", "hardcoded-device");
  std::string Result = applied(Edits, "abcdefgh\n");
  EXPECT_NE(Result.find("f.cpp:1:3: error: conflicting edits"), std::string::npos) << Result;
  EXPECT_NE(Result.find("'tensor-factory'"), std::string::npos) << Result;
  EXPECT_NE(Result.find("'hardcoded-device'"), std::string::npos) << Result;
}

TEST(EditSet, ReplacementsAtTheSamePointConflict) {
  EditSet Edits;
  Edits.add(0, 2, "X", "a");
  Edits.add(0, 2, "Y", "b");
  EXPECT_EQ(applied(Edits, "abc").rfind("error:", 0), 0u);
}

TEST(EditSet, InsertionBeforeAReplacementAtTheSamePointIsKept) {
  EditSet Edits;
  Edits.add(1, 1, "B", "a");
  Edits.add(1, 0, "x = ", "b");
  EXPECT_EQ(applied(Edits, "abc"), "ax = Bc");
}

} // namespace
} // namespace to_device_migrate
