// Migrates many files, several at a time, each in its own ClangTool: one file
// failing to parse never stops the others.
#pragma once

#include "FileOutcome.h"
#include "MigrationContext.h"
#include "PchCache.h"

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

} // namespace to_device_migrate
