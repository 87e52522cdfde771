// How each file of a run is parsed, in either pass: its compile command's
// working directory and flags (with the precompiled <torch/torch.h> of those
// flags), in a ClangTool of its own.
#pragma once

#include "run/FileRunner.h"

#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace to_device_migrate {

/// The directory relative paths of `File`'s command are resolved against
/// (absolute: `--` gives the directory ".").
std::string workingDirectory(const clang::tooling::CompilationDatabase &Database,
                             llvm::StringRef File);

/// The adjusters every parse of a file in `Directory` gets: the run's flags,
/// then the precompiled header of the command's flags when there is a cache.
std::vector<clang::tooling::ArgumentsAdjuster> parseFlags(const RunOptions &Options,
                                                          const std::string &Directory);

/// A ClangTool that parses `File` alone with `Flags`, in a physical file
/// system of its own: its working directory is not the process's, so tools
/// in different threads cannot move each other's.
std::unique_ptr<clang::tooling::ClangTool>
toolFor(const clang::tooling::CompilationDatabase &Database, const std::string &File,
        llvm::ArrayRef<clang::tooling::ArgumentsAdjuster> Flags);

/// Calls `Work(0)` ... `Work(Count - 1)`, `Jobs` at a time (0: one per core).
void forEachInParallel(size_t Count, unsigned Jobs, llvm::function_ref<void(size_t)> Work);

} // namespace to_device_migrate
