#include "driver/Outputs.h"
#include "output/Output.h"
#include "output/Report.h"
#include "output/UnifiedDiff.h"
#include "compat/LlvmCompat.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

namespace to_device_migrate::driver {

using clang::tooling::TranslationUnitDiagnostics;

int error(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "to-device-migrate") << Message << "\n";
  return 1;
}

std::string relativePath(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  llvm::StringRef Rel = Path;
  if (Rel.consume_front(Cwd) && Rel.consume_front("/"))
    return Rel.str();
  return Path.str();
}

/// Where the migrated text of `Path` goes: the file itself, -o, or the mirror tree.
static llvm::Expected<std::string> targetOf(llvm::StringRef Path, const OutputOptions &Options) {
  if (Options.InPlace)
    return Path.str();
  if (Options.OutRoot.empty())
    return Options.OutputFile;
  llvm::SmallString<256> Mirrored(Options.OutRoot);
  llvm::sys::path::append(Mirrored, relativePath(Path));
  llvm::StringRef Parent = llvm::sys::path::parent_path(Mirrored);
  if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
    return llvm::createStringError(EC, "cannot create '%s': %s", Parent.str().c_str(),
                                   EC.message().c_str());
  return Mirrored.str().str();
}

FindingPrinters::FindingPrinters()
    : Errors(llvm::errs(), llvm::sys::Process::StandardErrHasColors()),
      Out(llvm::outs(), llvm::sys::Process::StandardOutHasColors()) {}

/// Writes `Contents` to `Path` atomically; returns the exit status.
static int writeAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  if (llvm::Error Err = writeFileAtomically(Path, Contents))
    return error(llvm::toString(std::move(Err)));
  return 0;
}

/// The file's diagnostics as clang-tidy exports them (those of a header it
/// includes go with the header's own result).
static void addDiagnostics(const FileResult &Result, TranslationUnitDiagnostics &Fixes) {
  for (const Finding &F : Result.Findings)
    if (F.file() == Result.Path && F.Line != 0)
      Fixes.Diagnostics.push_back(F.Diag);
}

int writeResult(const FileResult &Result, const OutputOptions &Options, FindingPrinters &Printers,
                TranslationUnitDiagnostics &Fixes) {
  for (const Finding *F : Result.inSourceOrder())
    if (!F->isEdit())
      Printers.Errors.print(Result, *F);
  if (Options.Check)
    return Printers.Out.printRewrites(Result) ? 1 : 0;
  if (!Options.ExportFixes.empty()) {
    if (Fixes.MainSourceFile.empty())
      Fixes.MainSourceFile = Result.Path;
    addDiagnostics(Result, Fixes);
  }
  if (Options.Diff) {
    llvm::outs() << unifiedDiff(relativePath(Result.Path), Result.Original, Result.Rewrite);
    return 0;
  }
  if (!Options.InPlace && Options.OutputFile.empty() && Options.OutRoot.empty()) {
    llvm::outs() << Result.Migrated;
    return 0;
  }
  if (Options.InPlace && Result.Migrated == Result.Original)
    return 0;
  llvm::Expected<std::string> Target = targetOf(Result.Path, Options);
  if (!Target)
    return error(llvm::toString(Target.takeError()));
  return writeAtomically(*Target, Result.Migrated);
}

int writeFixes(const std::string &Path, const TranslationUnitDiagnostics &Fixes) {
  std::string Yaml;
  llvm::raw_string_ostream OS(Yaml);
  llvm::yaml::Output Out(OS);
  Out << const_cast<TranslationUnitDiagnostics &>(Fixes); // yaml::Output takes a non-const reference
  OS.flush();
  return writeAtomically(Path, Yaml);
}

int writeReport(const std::string &Path, llvm::ArrayRef<FileOutcome> Outcomes) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (compat::endsWith(Path, ".md"))
    writeMarkdownReport(OS, Outcomes);
  else
    writeJsonReport(OS, Outcomes);
  OS.flush();
  return writeAtomically(Path, Text);
}

std::string progressLine(const FileOutcome &Outcome, size_t Done, size_t Total) {
  std::string Line = llvm::formatv("[{0}/{1}] {2}: ", Done, Total, relativePath(Outcome.Input));
  if (!Outcome.Result)
    return Line + "failed to parse";
  const size_t Rewrites = Outcome.Result->editCount();
  return Line + std::to_string(Rewrites) + (Rewrites == 1 ? " rewrite" : " rewrites");
}

} // namespace to_device_migrate::driver
