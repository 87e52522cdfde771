// The driver's checks on what it was given: the command line, the files, the
// compile database of --all. Each problem is one line for `error:`.
#ifndef TO_DEVICE_MIGRATE_DRIVER_INPUTS_H
#define TO_DEVICE_MIGRATE_DRIVER_INPUTS_H

#include "driver/Options.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace to_device_migrate::driver {

/// clang-format-like invocation: without -p, parse with default flags rather
/// than searching for a compilation database. `FlagsAreOurs` says whether the
/// command line is only ours (no -p, nothing after --): then the precompiled
/// header the build made with exactly those flags can be used.
std::vector<const char *> withDefaultSeparator(int Argc, const char **Argv, bool &FlagsAreOurs);

/// The database `-p` names, for --all. CommonOptionsParser loads one only when
/// it is given file names.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> compileDatabaseOfAll();

/// Why `File` cannot be migrated, or "" when it can be.
std::string inputProblem(const std::string &File, const OutputOptions &Options);

/// A usage error in the options, or "" when they fit together.
std::string conflictingOptions(const OutputOptions &Options, size_t FileCount);

} // namespace to_device_migrate::driver

#endif
