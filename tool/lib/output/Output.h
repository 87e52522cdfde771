// Writing results: atomic file writes and compiler-style findings.
#pragma once

#include "diagnostics/Finding.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace to_device_migrate {

/// Writes `Contents` to `Path` through a temporary file in the same directory
/// and a rename, so `Path` holds either its old or its new contents, never a
/// part. Keeps the permissions of an existing file: built from the parts of
/// llvm::writeFileAtomically (createUniqueFile, rename), since LLVM 14's own
/// gives the new file default permissions, not the old file's.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// `file:line:col: warning: message [rule]`, then the source line and a caret
/// under the column, as clang prints a diagnostic.
void printFinding(llvm::raw_ostream &OS, const Finding &F);

/// --check: prints each rewrite finding, one per site a rule would change
/// (support code, such as the device declaration, follows from them and is not
/// listed). Returns the number of rewrites and warnings: what --check fails on.
unsigned printRewrites(llvm::raw_ostream &OS, const FileResult &Result);

} // namespace to_device_migrate
