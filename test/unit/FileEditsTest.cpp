// A file's edits, in one clang::tooling::Replacements (FileResult::Edits):
// insertions at one point kept in the order merged, an insertion before a
// replacement at its start, overlaps found (with the finding that made the
// edit) before anything is merged.
#include "diagnostics/Finding.h"

#include <gtest/gtest.h>

namespace to_device_migrate {
namespace {

using clang::tooling::Replacement;

FileResult fileWith(llvm::StringRef Code) {
  FileResult Result;
  Result.Path = "f.cpp";
  Result.Original = Code.str();
  return Result;
}

std::string applied(const FileResult &Result) {
  llvm::Expected<std::string> Text =
      clang::tooling::applyAllReplacements(Result.Original, Result.Edits);
  if (!Text)
    return "error: " + llvm::toString(Text.takeError());
  return *Text;
}

/// Adds a rewrite finding of `Rule` whose one fix is `Fix`, as the consumer does.
void addRewrite(FileResult &Result, const Replacement &Fix, llvm::StringRef Rule) {
  Finding F;
  F.Kind = FindingKind::Rewrite;
  F.Diag.DiagnosticName = Rule.str();
  F.Diag.Message.FilePath = Result.Path;
  llvm::consumeError(F.Diag.Message.Fix[Result.Path].add(Fix));
  Result.Findings.push_back(std::move(F));
  Result.mergeEdit(Fix);
}

TEST(FileEdits, InsertionsAtOnePointKeepTheirOrder) {
  FileResult Result = fileWith("abc");
  Result.mergeEdit(Replacement("f.cpp", 2, 0, "1"));
  Result.mergeEdit(Replacement("f.cpp", 2, 0, "2"));
  Result.mergeEdit(Replacement("f.cpp", 0, 1, "A"));
  Result.mergeEdit(Replacement("f.cpp", 2, 0, "3"));
  EXPECT_EQ(applied(Result), "Ab123c");
}

TEST(FileEdits, InsertionBeforeAReplacementAtTheSamePoint) {
  FileResult Result = fileWith("abc");
  Result.mergeEdit(Replacement("f.cpp", 1, 1, "B"));
  Result.mergeEdit(Replacement("f.cpp", 1, 0, "x = "));
  Result.mergeEdit(Replacement("f.cpp", 1, 0, "y = "));
  EXPECT_EQ(applied(Result), "ax = y = Bc");
}

TEST(FileEdits, OverlapsAreFoundWithTheFindingThatMadeTheEdit) {
  FileResult Result = fileWith("abcdefgh\n");
  addRewrite(Result, Replacement("f.cpp", 1, 3, "XYZ"), "tensor-factory");
  const Replacement Later("f.cpp", 2, 3, "Q");
  std::optional<Replacement> Other = Result.overlappingEdit(Later);
  ASSERT_TRUE(Other.has_value());
  const Finding *Owner = Result.findingOf(*Other);
  ASSERT_NE(Owner, nullptr);
  EXPECT_EQ(Owner->rule(), "tensor-factory");
  EXPECT_EQ(applied(Result), "aXYZefgh\n"); // nothing merged until asked
}

TEST(FileEdits, ReplacementsAtOnePointOverlapButTheSameEditDoesNot) {
  FileResult Result = fileWith("abc");
  Result.mergeEdit(Replacement("f.cpp", 0, 2, "X"));
  EXPECT_TRUE(Result.overlappingEdit(Replacement("f.cpp", 0, 2, "Y")).has_value());
  EXPECT_FALSE(Result.overlappingEdit(Replacement("f.cpp", 0, 2, "X")).has_value());
}

TEST(FileEdits, InsertionsAtTheEdgesOfAnEditDoNotOverlapIt) {
  FileResult Result = fileWith("abcdef");
  Result.mergeEdit(Replacement("f.cpp", 1, 3, "X"));
  EXPECT_FALSE(Result.overlappingEdit(Replacement("f.cpp", 1, 0, "<")).has_value());
  EXPECT_FALSE(Result.overlappingEdit(Replacement("f.cpp", 4, 0, ">")).has_value());
  EXPECT_TRUE(Result.overlappingEdit(Replacement("f.cpp", 2, 0, "!")).has_value());
}

TEST(FileEdits, EditCountIsTheRulesFixesNotComments) {
  FileResult Result = fileWith("a\nb\n");
  addRewrite(Result, Replacement("f.cpp", 0, 1, "A"), "r");
  Result.mergeEdit(Replacement("f.cpp", 2, 0, "// a comment\n"));
  EXPECT_EQ(Result.editCount(), 1u);
  EXPECT_EQ(applied(Result), "A\n// a comment\nb\n");
}

} // namespace
} // namespace to_device_migrate
