// Migrates many files, several at a time, each in its own ClangTool: one file
// failing to parse never stops the others.
#pragma once

#include "MigrationContext.h"
#include "PchCache.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>
#include <vector>

namespace todevice {

/// What happened to one input file.
struct FileOutcome {
  std::string Input;                ///< the path as given
  std::optional<FileResult> Result; ///< empty when the file did not parse
  std::string Diagnostics;          ///< clang's messages for this file, kept together
  std::string IncludedBy;           ///< for a header (--header-filter): the input including it
};

struct RunOptions {
  MigrationOptions Migration;
  std::vector<std::string> Rules;          ///< names of the enabled rules
  clang::tooling::ArgumentsAdjuster Flags; ///< applied to every command
  PchCache *Cache = nullptr;               ///< no PCH when null
  unsigned Jobs = 0;                       ///< files parsed at once; 0: one per core
  /// --header-filter: the user headers (absolute paths) to migrate too; none when null.
  const llvm::Regex *HeaderFilter = nullptr;
};

/// Migrates `Files`, then the headers they include that RunOptions::HeaderFilter
/// selects (see HeaderFiles.h), and returns the outcomes: `Files` in their
/// order, then the headers. `Finished(outcome, done, total)` is called as each
/// file completes, one call at a time (for progress lines); `total` grows when
/// the headers are known.
std::vector<FileOutcome>
migrateFiles(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const RunOptions &Options,
             llvm::function_ref<void(const FileOutcome &, size_t, size_t)> Finished);

} // namespace todevice
