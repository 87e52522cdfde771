// Where a function's body ends, read from the raw text before clang parses it:
// the compile check (RewriteCheck) asks, for each function definition, whether
// an edit lies in its body before clang decides to parse or skip it, and at
// that point the body's end is not known to the AST yet.
#pragma once

#include "clang/Basic/LangOptions.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace to_device_migrate {

/// The offset just past the closing brace of the body of the function whose
/// declaration names it at `NameOffset` in `Text`: past the parameters, any
/// trailing specifiers and return type, and a constructor's initialisers
/// (`: a(1), b{2}`). None where the raw tokens do not read as a body (a
/// function-try-block, `= default`, a declaration without body, unbalanced
/// braces, a directive): the caller then parses the body. `Text` is a
/// SourceManager's buffer, which ends with a null character as the lexer needs.
std::optional<unsigned> functionBodyEnd(llvm::StringRef Text, unsigned NameOffset,
                                        const clang::LangOptions &Language);

} // namespace to_device_migrate
