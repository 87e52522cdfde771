// The output must compile: before anything is written, the translation unit
// is parsed once more with its rewritten files in place of the originals (in
// memory, with the same flags and precompiled header), and a rewrite that
// does not compile is refused with the errors clang gives for it. A rule's
// mistake then costs the user an error message, never a broken program.
#pragma once

#include "output/FileOutcome.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace to_device_migrate {

/// One error clang reported in a rewritten file.
struct RewriteError {
  std::string File;    ///< absolute path of the rewritten file
  unsigned Line = 0;   ///< in the original text, where the user finds it
  unsigned Column = 0;
  std::string Message;
  /// The rules whose edits lie on that line of the rewritten text (empty when
  /// the error is elsewhere, e.g. where a changed declaration is used).
  std::vector<std::string> Rules;
  /// The tool's own assertion failed (a write redirected to a copy), not the compiler.
  bool Internal = false;
};

/// Re-parses `MainFile` (one command of `Database`, with `Flags`) with every
/// outcome's migrated text (FileResult::Migrated) mapped over its file (absolute paths; relative
/// ones clang reports are taken from `Directory`). Returns the errors, at most
/// five; none if nothing changed or everything compiles.
std::vector<RewriteError> checkRewritesCompile(const clang::tooling::CompilationDatabase &Database,
                                               const std::string &MainFile,
                                               llvm::StringRef Directory,
                                               llvm::ArrayRef<clang::tooling::ArgumentsAdjuster> Flags,
                                               llvm::ArrayRef<FileOutcome> Outcomes);

/// `file:line:col: error: the migrated file would not compile: ... [rules]`.
std::string describe(const RewriteError &Error);

} // namespace to_device_migrate
