#include "output/FunctionBodies.h"

#include "clang/Lex/Lexer.h"

namespace to_device_migrate {

std::optional<unsigned> functionBodyEnd(llvm::StringRef Text, unsigned NameOffset,
                                        const clang::LangOptions &Language) {
  if (NameOffset >= Text.size())
    return std::nullopt;
  // The raw lexer reads comments, strings and character literals right; it
  // expands no macro and takes no directive, so a `#` ends the reading (a
  // brace inside `#if` would be counted whatever the condition).
  clang::Lexer Raw(clang::SourceLocation(), Language, Text.begin(), Text.begin() + NameOffset,
                   Text.end());
  clang::Token Tok;
  auto Next = [&] {
    Raw.LexFromRawLexer(Tok);
    return !Tok.isOneOf(clang::tok::eof, clang::tok::hash);
  };
  auto IsWord = [&](llvm::StringRef Word) {
    return Tok.is(clang::tok::raw_identifier) && Tok.getRawIdentifier() == Word;
  };
  // From an opening brace (Tok) to just past its closing one.
  auto PastBraces = [&]() -> std::optional<unsigned> {
    for (int Depth = 1; Depth > 0;) {
      if (!Next())
        return std::nullopt;
      if (Tok.is(clang::tok::l_brace))
        ++Depth;
      else if (Tok.is(clang::tok::r_brace))
        --Depth;
    }
    return static_cast<unsigned>(Raw.getBufferLocation() - Text.begin());
  };

  int Nesting = 0; // parentheses and brackets: parameters, noexcept(...), initialisers' arguments
  if (!Next())
    return std::nullopt;
  while (true) {
    if (Nesting == 0 && Tok.is(clang::tok::l_brace)) {
      const std::optional<unsigned> End = PastBraces();
      if (!End)
        return std::nullopt;
      Raw.LexFromRawLexer(Tok);
      if (Tok.is(clang::tok::comma)) { // `b{2},`: an initialiser; the body is further
        if (!Next())
          return std::nullopt;
        continue;
      }
      if (Tok.is(clang::tok::l_brace)) // `b{2} {`: the body opens here
        continue;
      if (IsWord("catch")) // the handlers of a function-try-block belong to it
        return std::nullopt;
      return End;
    }
    // No body: a declaration, `= default`, `= delete`, `= 0`; or one that
    // starts with `try`.
    if (Nesting == 0 && (Tok.isOneOf(clang::tok::semi, clang::tok::equal) || IsWord("try")))
      return std::nullopt;
    if (Tok.isOneOf(clang::tok::l_paren, clang::tok::l_square))
      ++Nesting;
    else if (Tok.isOneOf(clang::tok::r_paren, clang::tok::r_square) && --Nesting < 0)
      return std::nullopt;
    if (!Next())
      return std::nullopt;
  }
}

} // namespace to_device_migrate
