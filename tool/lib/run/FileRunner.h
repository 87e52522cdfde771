// Migrates many files, several at a time, each in its own ClangTool: one file
// failing to parse never stops the others.
#pragma once

#include "output/FileOutcome.h"
#include "engine/MigrationContext.h"
#include "parse/PchCache.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Regex.h"

#include <string>
#include <vector>

namespace to_device_migrate {

struct RunOptions {
  MigrationOptions Migration;
  std::vector<std::string> Rules;          ///< names of the enabled rules
  clang::tooling::ArgumentsAdjuster Flags; ///< applied to every command
  PchCache *Cache = nullptr;               ///< no PCH when null
  unsigned Jobs = 0;                       ///< files parsed at once; 0: one per core
  /// --header-filter: the user headers (absolute paths) to migrate too; none when null.
  const llvm::Regex *HeaderFilter = nullptr;
  /// The text of that regex (part of a summary's cache key).
  std::string HeaderFilterText;
  /// Where the first pass caches each translation unit's summary
  /// (SummaryCache.h); "" caches nothing.
  std::string SummaryCacheDirectory;
  /// Parse each translation unit once more with its rewritten files before
  /// anything is written (RewriteCheck.h); off for --check, which writes nothing.
  bool CheckRewritesCompile = true;
  /// --format-style: how the changed lines are formatted (output/Formatting.h).
  std::string FormatStyle = "file";
  /// --comments: each warning also becomes a comment above its line.
  bool WarningComments = false;
  /// Appended to every file that has edits (the compile check's test).
  std::string AppendForTesting;
};

/// Migrates `Files`, and the headers they include that RunOptions::HeaderFilter
/// selects, each from the parse of the first of `Files` that includes it (see
/// HeaderFiles.h), and returns the outcomes: `Files` in their order, then the
/// headers in the order they were first included. `Finished(outcome, done,
/// total)` is called as each file completes, one call at a time (for progress
/// lines); `total` grows when the headers are known.
std::vector<FileOutcome>
migrateFiles(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const RunOptions &Options,
             llvm::function_ref<void(const FileOutcome &, size_t, size_t)> Finished);

} // namespace to_device_migrate
