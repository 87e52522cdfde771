// Migrates many files, several at a time, each in its own ClangTool: one file
// failing to parse never stops the others.
#pragma once

#include "MigrationContext.h"
#include "PchCache.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace todevice {

/// What happened to one input file.
struct FileOutcome {
  std::string Input;                ///< the path as given
  std::optional<FileResult> Result; ///< empty when the file did not parse
  std::string Diagnostics;          ///< clang's messages for this file, kept together
};

struct RunOptions {
  MigrationOptions Migration;
  std::vector<std::string> Rules;          ///< names of the enabled rules
  clang::tooling::ArgumentsAdjuster Flags; ///< applied to every command
  PchCache *Cache = nullptr;               ///< no PCH when null
  unsigned Jobs = 0;                       ///< files parsed at once; 0: one per core
};

/// Migrates `Files` and returns their outcomes in the order of `Files`.
/// `Finished(outcome, done)` is called as each file completes, one call at a
/// time (for progress lines), with the number of files done so far.
std::vector<FileOutcome>
migrateFiles(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const RunOptions &Options,
             llvm::function_ref<void(const FileOutcome &, size_t)> Finished);

} // namespace todevice
