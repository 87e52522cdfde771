// The compiler driver's option table across LLVM versions: its header and
// namespace moved (clang/Options/Options.h, clang::options, LLVM 22), and
// clang-cl's options are told apart by visibility, not flags (LLVM 17).
#pragma once

#include "llvm/Config/llvm-config.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"

#if LLVM_VERSION_MAJOR >= 22
#include "clang/Options/Options.h"
#else
#include "clang/Driver/Options.h"
#endif

namespace to_device_migrate {
namespace compat {

#if LLVM_VERSION_MAJOR >= 22
namespace driver_options = clang::options;
#else
namespace driver_options = clang::driver::options;
#endif

/// Arguments as the clang driver reads them outside clang-cl mode (where
/// `/path/file.cpp` is an input, not a cl.exe option).
inline llvm::opt::InputArgList parseDriverArguments(llvm::ArrayRef<const char *> Argv) {
  unsigned MissingIndex = 0, MissingCount = 0;
#if LLVM_VERSION_MAJOR >= 22
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
#else
  const llvm::opt::OptTable &Table = clang::driver::getDriverOptTable();
#endif
#if LLVM_VERSION_MAJOR >= 17
  return Table.ParseArgs(Argv, MissingIndex, MissingCount,
                         llvm::opt::Visibility(driver_options::ClangOption));
#else
  return Table.ParseArgs(Argv, MissingIndex, MissingCount, /*FlagsToInclude=*/0,
                         driver_options::CLOption | driver_options::NoDriverOption);
#endif
}

} // namespace compat
} // namespace to_device_migrate
