// The driver's outputs: each file's result written as the options ask (stdout,
// -o, -i, --out-root, --diff, --check), the --export-fixes and --report files,
// and the progress line.
#ifndef TO_DEVICE_MIGRATE_DRIVER_OUTPUTS_H
#define TO_DEVICE_MIGRATE_DRIVER_OUTPUTS_H

#include "driver/Options.h"
#include "output/FileOutcome.h"
#include "output/FindingPrinter.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <string>
#include <vector>

namespace to_device_migrate::driver {

/// Prints `to-device-migrate: error: <Message>`; returns the exit status 1.
int error(const llvm::Twine &Message);

/// `Path` relative to the working directory when below it, for diff headers.
std::string relativePath(llvm::StringRef Path);

/// Where findings are printed: warnings and notes to stderr, the rewrites
/// --check lists to stdout.
struct FindingPrinters {
  FindingPrinter Errors;
  FindingPrinter Out;
  FindingPrinters();
};

/// Writes one file's result as the options ask (its text is made once, with
/// --comments and --format-style, before the compile check: FileResult::Migrated);
/// returns the exit status. With --export-fixes, its edits and findings are
/// added to `Fixes`.
int writeResult(const FileResult &Result, const OutputOptions &Options, FindingPrinters &Printers,
                clang::tooling::TranslationUnitDiagnostics &Fixes);

/// --export-fixes: the diagnostics as clang-tidy exports them (each edit with
/// its rule, message and replacement; each warning and note with its message),
/// which clang-apply-replacements applies and editors show.
int writeFixes(const std::string &Path, const clang::tooling::TranslationUnitDiagnostics &Fixes);

/// --report: JSON, or Markdown when `Path` ends in .md.
int writeReport(const std::string &Path, llvm::ArrayRef<FileOutcome> Outcomes);

/// `[3/12] src/train.cpp: 7 rewrites`
std::string progressLine(const FileOutcome &Outcome, size_t Done, size_t Total);

} // namespace to_device_migrate::driver

#endif
