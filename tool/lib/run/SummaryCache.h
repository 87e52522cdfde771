// The first pass's summaries, cached by content: a translation unit whose
// compile command, tool and user files (the main file and the headers it
// includes from user directories) are unchanged is not parsed again.
#pragma once

#include "engine/Migrator.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <optional>
#include <string>

namespace to_device_migrate {

class SummaryCache {
public:
  /// `Directory` holds one JSON file per translation unit (made on demand);
  /// "" caches nothing.
  explicit SummaryCache(std::string Directory) : Directory(std::move(Directory)) {}

  /// The key of a translation unit: its file, its compile command as the run
  /// adjusts it, the --header-filter that selects its migrated headers, and
  /// this tool's build (version and binary), so a rebuilt tool never reads a
  /// summary an older one wrote.
  static std::string keyFor(llvm::StringRef File,
                            const clang::tooling::CommandLineArguments &Command,
                            llvm::StringRef HeaderFilter);

  /// The summary stored under `Key`, if every user file it was made from still
  /// has the content it had.
  std::optional<TranslationUnitSummary> load(llvm::StringRef Key) const;
  /// Stores `Analysis` under `Key` (atomically: temp file + rename; a cache
  /// that cannot be written is no error).
  void store(llvm::StringRef Key, const ParseAnalysis &Analysis) const;

private:
  std::string pathOf(llvm::StringRef Key) const;
  std::string Directory;
};

} // namespace to_device_migrate
