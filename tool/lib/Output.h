// Writing results: atomic file writes and compiler-style findings.
#pragma once

#include "MigrationContext.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace to_device_migrate {

/// Writes `Contents` to `Path` through a temporary file in the same directory
/// and a rename, so `Path` holds either its old or its new contents, never a
/// part. Keeps the permissions of an existing file.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// `file:line:col: warning: message [rule]`, then the source line and a caret
/// under the column, as clang prints a diagnostic.
void printFinding(llvm::raw_ostream &OS, const Finding &F);

/// What an edit does, as --check and --export-fixes say it:
/// `not on the device yet: <the rule's summary>`.
std::string siteMessage(const Edit &E);

/// --check: one warning per site a rule would change (support code, such as
/// the device declaration, follows from the others and is not listed), then the file's own warnings
/// count too. Returns the number of sites.
unsigned printSites(llvm::raw_ostream &OS, const FileResult &Result);

} // namespace to_device_migrate
