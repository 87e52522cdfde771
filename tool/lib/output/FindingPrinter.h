// Findings printed as clang prints its own diagnostics, by Clang's
// TextDiagnosticPrinter (as clang-tidy's error reporter does): the location,
// the source line with its caret, and colours on a terminal are clang's. The
// parse is over when a finding is printed, so the printer has a SourceManager
// of its own over the files the findings are in, a migrated file as it was
// before the run changed it.
#pragma once

#include "diagnostics/Finding.h"
#include "compat/LlvmCompat.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace to_device_migrate {

class FindingPrinter : public clang::DiagnosticConsumer {
public:
  FindingPrinter(llvm::raw_ostream &OS, bool Colors);
  ~FindingPrinter() override;

  /// `file:line:col: warning: message [rule]`, the source line and a caret
  /// under the column. `F` is one of `Result`'s findings.
  void print(const FileResult &Result, const Finding &F);

  /// --check: prints each rewrite finding, one per site a rule would change
  /// (support code, such as the device declaration, follows from them and is
  /// not listed). Returns the number of rewrites and warnings: what --check
  /// fails on.
  unsigned printRewrites(const FileResult &Result);

  /// The engine reports at the level a custom diagnostic can have alone (a
  /// note needs a diagnostic before it); the printer gets the finding's own.
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  /// Where `F` is, in this printer's SourceManager; invalid if it has no place.
  clang::SourceLocation locationOf(const FileResult &Result, const Finding &F);

  compat::TextDiagnostics Printer;
  compat::DiagnosticsOf Diagnostics;
  clang::FileManager Files;
  std::unique_ptr<clang::SourceManager> Sources;
  clang::LangOptions LangOpts;
  llvm::StringMap<clang::FileID> Opened;
  clang::DiagnosticsEngine::Level Level = clang::DiagnosticsEngine::Warning;
};

} // namespace to_device_migrate
