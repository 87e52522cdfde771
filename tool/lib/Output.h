// Writing results: atomic file writes and compiler-style findings.
#pragma once

#include "MigrationContext.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace todevice {

/// Writes `Contents` to `Path` through a temporary file in the same directory
/// and a rename, so `Path` holds either its old or its new contents, never a
/// part. Keeps the permissions of an existing file.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// `file:line:col: warning: message [rule]`
void printFinding(llvm::raw_ostream &OS, const Finding &F);

/// --check: one warning per site a rule would change (the device declaration
/// follows from the others and is not listed), then the file's own warnings
/// count too. Returns the number of sites.
unsigned printSites(llvm::raw_ostream &OS, const FileResult &Result);

} // namespace todevice
