// The flags every parse gets, so that `to-device-migrate file.cpp` needs no
// flags at all: LibTorch's and the runtime's headers, C++17, Clang's builtin
// headers, and the precompiled <torch/torch.h> the build made.
#pragma once

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <initializer_list>
#include <string>

namespace to_device_migrate {

struct DefaultFlags {
  std::string ResourceDir;    ///< Clang's builtin headers
  std::string RuntimeInclude; ///< where <todevice/todevice.h> is (runtimeIncludeDir())
  /// The PCH the build made with exactly these flags; used only when the
  /// command line is the tool's own (no -p, nothing after --) and it exists.
  std::string PrebuiltPch;
  bool CommandLineIsOurs = false;
};

clang::tooling::ArgumentsAdjuster defaultFlags(DefaultFlags Options);

/// Adds `Flags` to a command: before the `--` that ends its flags when it has
/// one (commands from tooling::transferCompileCommand do), else at the end.
void addFlags(clang::tooling::CommandLineArguments &Command,
              std::initializer_list<std::string> Flags);

/// The runtime's include directory: `<prefix>/include` next to an installed
/// tool (`<prefix>/bin`), else the source tree's, recorded at build time;
/// empty when it is a directory the compiler searches anyway (/usr/include).
std::string runtimeIncludeDir(const char *Argv0);

} // namespace to_device_migrate
