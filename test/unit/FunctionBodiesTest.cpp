// Where a function's body ends, read from the raw text (output/FunctionBodies):
// the compile check skips the bodies no edit touched, so an end read too
// early would skip an edited body, and one that cannot be read must say so.
#include "output/FunctionBodies.h"

#include <gtest/gtest.h>

#include <string>

namespace to_device_migrate {
namespace {

/// The end functionBodyEnd() finds for the function named `Name` in `Code`,
/// as the text after it; "none" where it finds none.
std::string after(const std::string &Code, const std::string &Name) {
  clang::LangOptions Language;
  Language.CPlusPlus = Language.CPlusPlus11 = Language.CPlusPlus14 = Language.CPlusPlus17 = true;
  const std::optional<unsigned> End = functionBodyEnd(Code, Code.find(Name), Language);
  return End ? Code.substr(*End) : "none";
}

TEST(FunctionBodies, EndsAtTheBodysClosingBrace) {
  EXPECT_EQ(after("int f(int a) { if (a) { return 1; } return 0; }\nint g;", "f"), "\nint g;");
  EXPECT_EQ(after("struct S { void f() const noexcept(true) { } int x; };", "f"), " int x; };");
  EXPECT_EQ(after("auto f() -> std::vector<int> { return {}; } X", "f"), " X");
}

TEST(FunctionBodies, ReadsBracesInsideCommentsStringsAndParameters) {
  EXPECT_EQ(after("void f(std::function<void()> g = [] {}) { /* } */ g(\"}\"); } X", "f"), " X");
  EXPECT_EQ(after("void f() { char c = '}'; // }\n } X", "f"), " X");
}

TEST(FunctionBodies, PassesAConstructorsInitialisers) {
  EXPECT_EQ(after("S::S() : a(1), b{2}, c(3) { x(); } X", "S()"), " X");
  EXPECT_EQ(after("S::S() : a{1} { x(); } X", "S()"), " X");
  EXPECT_EQ(after("S::S() : a{1}, b{2} {} X", "S()"), " X");
}

TEST(FunctionBodies, NoneWithoutABodyOrWhereTheTextDoesNotReadAsOne) {
  EXPECT_EQ(after("void f(); void g() {}", "f"), "none");
  EXPECT_EQ(after("S() = default; void g() {}", "S"), "none");
  EXPECT_EQ(after("void f() try { } catch (...) { } X", "f"), "none");
  EXPECT_EQ(after("void f() {\n#if A\n {\n#endif\n} X", "f"), "none");
  EXPECT_EQ(after("void f() { { } X", "f"), "none");
}

} // namespace
} // namespace to_device_migrate
