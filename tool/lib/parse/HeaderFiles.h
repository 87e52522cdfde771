// --header-filter: the user's own headers, migrated like clang-tidy fixes them:
// from the parse of the first input that includes the header (Migrator.h), so
// a header that uses what its includer brought in (as most projects' headers
// do) migrates like a self-contained one.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace to_device_migrate {

/// True for headers the tool never rewrites whatever the filter says:
/// LibTorch's (ATen, c10, torch/csrc, caffe2), the todevice runtime's, and
/// anything under /usr/include, /usr/lib or /usr/local/cuda — even when a
/// compile command names their directories with -I instead of -isystem.
bool isLibraryHeader(llvm::StringRef Path);

/// The prefix of the names the tool declares at namespace scope in `Header`
/// (MigrationOptions::HeaderPrefix): its file name as an identifier, `model`
/// for include/model.h.
std::string headerPrefix(llvm::StringRef Header);

} // namespace to_device_migrate
