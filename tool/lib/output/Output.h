// Writing results: atomic file writes.
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace to_device_migrate {

/// Writes `Contents` to `Path` through a temporary file in the same directory
/// and a rename, so `Path` holds either its old or its new contents, never a
/// part. Keeps the permissions of an existing file: built from the parts of
/// llvm::writeFileAtomically (createUniqueFile, rename), since LLVM 14's own
/// gives the new file default permissions, not the old file's.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace to_device_migrate
