// A cache of precompiled <torch/torch.h> headers, one per set of compile flags.
//
// Parsing <torch/torch.h> is ~90% of the tool's time on a LibTorch file. A
// precompiled header is only valid for the flags it was built with (macros,
// language options), so files from a compile database each get the PCH of
// their own flags: built once, on first use, then reused by every file and
// every later run with the same flags.
#pragma once

#include "clang/Tooling/ArgumentsAdjusters.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace to_device_migrate {

/// The <torch/torch.h> a compile command's -I/-isystem/-iquote/-idirafter
/// directories give (the first that has one), "" when none does.
std::string torchHeaderOf(const clang::tooling::CommandLineArguments &Args,
                          llvm::StringRef WorkingDirectory);

class PchCache {
public:
  /// How many PCHs the cache keeps (the most recently used, and any used in
  /// the last hour): one project needs one per set of flags, rarely more
  /// than a few; this project's test suite needs 13.
  static constexpr unsigned Kept = 16;

  /// `Directory` holds the PCH files (created on demand).
  explicit PchCache(std::string Directory) : Directory(std::move(Directory)) {}

  /// The default cache directory: $TO_DEVICE_MIGRATE_CACHE, else
  /// $XDG_CACHE_HOME/to-device-migrate, else ~/.cache/to-device-migrate.
  static std::string defaultDirectory();

  /// An adjuster that adds `-include-pch` to the command of a file including
  /// <torch/torch.h>, building the PCH of that command's flags first if it is
  /// not cached. `WorkingDirectory` resolves the command's relative paths.
  clang::tooling::ArgumentsAdjuster adjuster(std::string WorkingDirectory);

  /// The cache file for `Flags` (compiler flags without input and output),
  /// whether it exists or not. The key also covers the Clang and LibTorch
  /// versions and the header's size and time, so an upgrade never reuses a
  /// stale PCH.
  std::string pathFor(const clang::tooling::CommandLineArguments &Flags,
                      llvm::StringRef TorchHeader, llvm::StringRef WorkingDirectory) const;

private:
  /// Builds `Output` from `TorchHeader` with `Flags`; false (and no file) if
  /// that fails, in which case files are parsed without a PCH.
  bool build(const clang::tooling::CommandLineArguments &Flags, llvm::StringRef TorchHeader,
             llvm::StringRef WorkingDirectory, llvm::StringRef Output);
  /// The PCH for these flags, built if needed; empty if it cannot be built.
  /// A cached one is marked used (its time), so that prune() keeps it.
  std::string get(const clang::tooling::CommandLineArguments &Flags, llvm::StringRef TorchHeader,
                  llvm::StringRef WorkingDirectory);

  /// Removes all but the `Kept` most recently used PCHs of the directory
  /// (and those used in the last hour):
  /// each is ~110 MB, and the key covers the flags, the working directory
  /// and the versions, so a user who migrates many projects, or upgrades
  /// LibTorch or the tool, would otherwise keep every one ever built.
  void prune() const;

  std::string Directory;
  std::once_flag Pruned; ///< once per run, when the first PCH is chosen
  std::mutex Lock; ///< guards Building and Failed
  llvm::StringMap<std::shared_ptr<std::mutex>> Building; ///< one builder per key
  llvm::StringMap<bool> Failed;
};

/// The program's own include directories a compile command names (-I, -iquote).
std::vector<std::string> projectIncludeDirectories(const clang::tooling::CommandLineArguments &Args);

/// Whether `File` includes <torch/torch.h> (the header the PCH replaces),
/// itself or through the program's own headers: those next to their includer
/// or in `ProjectDirectories` (-I, -iquote; relative to `WorkingDirectory`).
bool includesTorchHeader(llvm::StringRef File, llvm::ArrayRef<std::string> ProjectDirectories = {},
                         llvm::StringRef WorkingDirectory = "");

} // namespace to_device_migrate
