#include "run/FileRunner.h"
#include "run/ParseSetup.h"
#include "run/ProgramAnalysis.h"
#include "parse/HeaderFiles.h"
#include "engine/Migrator.h"
#include "output/Formatting.h"
#include "output/RewriteCheck.h"
#include "output/WarningComments.h"
#include "compat/LlvmCompat.h"

#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <mutex>

namespace to_device_migrate {
namespace {

/// The compile check (RewriteCheck.h): a translation unit whose rewritten
/// files do not compile is written nowhere, its main file nor its headers;
/// the errors go to the file they are in (else to the main file).
void refuseWhatDoesNotCompile(const clang::tooling::CompilationDatabase &Database,
                              const std::string &File, llvm::StringRef Directory,
                              llvm::ArrayRef<clang::tooling::ArgumentsAdjuster> Flags,
                              std::vector<FileOutcome> &Outcomes) {
  std::vector<RewriteError> Errors = checkRewritesCompile(Database, File, Directory, Flags, Outcomes);
  if (Errors.empty())
    return;
  for (const RewriteError &Error : Errors) {
    auto Owner = llvm::find_if(Outcomes, [&](const FileOutcome &O) { return O.Result->Path == Error.File; });
    (Owner == Outcomes.end() ? Outcomes.front() : *Owner).CompileErrors.push_back(describe(Error));
  }
  for (FileOutcome &Outcome : Outcomes)
    if (Outcome.CompileErrors.empty())
      Outcome.CompileErrors.push_back(
          Outcome.Result->Path + ": error: not written: " +
          (&Outcome == &Outcomes.front()
               ? "a header migrated with it would not compile"
               : "the migrated code of " + Outcomes.front().Input + ", which includes it, would not compile"));
}

/// The compile check's own test (--append-for-testing): `Text` appended to a
/// rewritten file, as support code would be.
void appendForTesting(FileResult &Result, const std::string &Text) {
  Finding Appended;
  Appended.Kind = FindingKind::SupportCode;
  Appended.Diag.DiagnosticName = "append-to-rewritten-files-for-testing";
  Appended.Diag.Message.FilePath = Result.Path;
  const clang::tooling::Replacement AtEnd(Result.Path, Result.Original.size(), 0, Text);
  Appended.Diag.Message.FileOffset = AtEnd.getOffset();
  llvm::consumeError(Appended.Diag.Message.Fix[Result.Path].add(AtEnd));
  Result.Findings.push_back(std::move(Appended));
  Result.mergeEdit(AtEnd);
}

/// Migrates `File` and the headers migrated from its parse: the file's outcome
/// first, then each header's.
std::vector<FileOutcome> migrateOne(const clang::tooling::CompilationDatabase &Database,
                                    const std::string &File, const RunOptions &Options) {
  std::vector<FileOutcome> Outcomes(1);
  FileOutcome &Outcome = Outcomes.front();
  Outcome.Input = File;
  const std::string Directory = workingDirectory(Database, File);
  const std::vector<clang::tooling::ArgumentsAdjuster> Flags = parseFlags(Options, Directory);
  std::unique_ptr<clang::tooling::ClangTool> Tool = toolFor(Database, File, Flags);

  llvm::raw_string_ostream Diagnostics(Outcome.Diagnostics);
  compat::TextDiagnostics Printer(Diagnostics, llvm::sys::Process::StandardErrHasColors());
  Tool->setDiagnosticConsumer(&Printer.consumer());

  MigrationOptions Migration = Options.Migration;
  if (const llvm::Regex *Filter = Options.HeaderFilter)
    Migration.IsMigratedHeader = [Filter](llvm::StringRef Path) {
      return !isLibraryHeader(Path) && Filter->match(Path);
    };
  Migrator Migrator(std::move(Migration), Options.Rules);
  Tool->run(Migrator.newActionFactory().get());
  Diagnostics.flush();
  if (Migrator.results().empty())
    return Outcomes;
  // Paths as the compile command wrote them are relative to its directory,
  // which is not the process's: make them absolute before anyone writes.
  auto MakeAbsolute = [&](std::string &Path) {
    llvm::SmallString<256> Absolute(Path);
    compat::makeAbsolute(Directory, Absolute);
    Path = Absolute.str().str();
  };
  for (const FileResult &Result : Migrator.results()) {
    const bool IsHeader = &Result != &Migrator.results().front();
    if (IsHeader) {
      Outcomes.emplace_back();
      Outcomes.back().IncludedBy = File;
    }
    FileOutcome &Migrated = Outcomes.back();
    Migrated.Result = Result;
    const std::string Parsed = Migrated.Result->Path;
    MakeAbsolute(Migrated.Result->Path);
    if (IsHeader) { // named as clang composed it from an include directory: `dir/./x.h`
      llvm::SmallString<256> Path(Migrated.Result->Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      Migrated.Result->Path = Migrated.Input = Path.str().str();
    }
    for (Finding &F : Migrated.Result->Findings) {
      std::string Path = F.file();
      if (Path == Parsed)
        Path = Migrated.Result->Path;
      else
        MakeAbsolute(Path);
      F.renameFile(Path);
    }
    Migrated.Result->Edits = withPath(Migrated.Result->Edits, Migrated.Result->Path);
    if (!Options.AppendForTesting.empty() && Migrated.Result->editCount() > 0)
      appendForTesting(*Migrated.Result, Options.AppendForTesting);
    if (Options.WarningComments)
      addWarningComments(*Migrated.Result);
    if (llvm::Error Err = settleRewrite(*Migrated.Result, Options.FormatStyle))
      Migrated.FormatError = llvm::toString(std::move(Err));
  }
  if (Options.CheckRewritesCompile)
    refuseWhatDoesNotCompile(Database, File, Directory, Flags, Outcomes);
  return Outcomes;
}

/// Migrates `Files` several at a time: `Results[I]` are file I's outcomes.
void migrateAll(const clang::tooling::CompilationDatabase &Database,
                const std::vector<std::string> &Files, const RunOptions &Options,
                std::vector<std::vector<FileOutcome>> &Results,
                llvm::function_ref<void(const FileOutcome &, size_t, size_t)> Finished) {
  std::mutex Lock; // serialises Finished and the count
  size_t Done = 0;
  forEachInParallel(Files.size(), Options.Jobs, [&](size_t I) {
    std::vector<FileOutcome> Outcomes = migrateOne(Database, Files[I], Options);
    std::lock_guard<std::mutex> Guard(Lock);
    Results[I] = std::move(Outcomes);
    Finished(Results[I].front(), ++Done, Files.size());
  });
}

} // namespace

std::vector<FileOutcome>
migrateFiles(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const RunOptions &Options,
             llvm::function_ref<void(const FileOutcome &, size_t, size_t)> Finished) {
  std::vector<std::vector<FileOutcome>> Results(Files.size());
  // The first pass: a program of several files is analysed whole before any
  // file of it is migrated (ProgramAnalysis.h); a file given alone is its
  // own whole program, summarised from the parse that migrates it.
  if (Files.size() > 1 && !Options.Migration.Program) {
    RunOptions WithProgram = Options;
    WithProgram.Migration.Program = analyseProgram(Database, Files, Options);
    migrateAll(Database, Files, WithProgram, Results, Finished);
  } else {
    migrateAll(Database, Files, Options, Results, Finished);
  }
  std::vector<FileOutcome> Outcomes;
  llvm::StringSet<> Seen;
  for (std::vector<FileOutcome> &Result : Results) {
    Outcomes.push_back(std::move(Result.front()));
    if (Outcomes.back().Result)
      Seen.insert(Outcomes.back().Result->Path);
  }
  // Each header once, from the first input (in the order given) whose parse
  // migrated it, whatever order the parses finished in; an input is never
  // migrated again as a header.
  const size_t Total = Outcomes.size();
  std::vector<FileOutcome> Headers;
  for (std::vector<FileOutcome> &Result : Results)
    for (size_t I = 1; I < Result.size(); ++I)
      if (Seen.insert(Result[I].Result->Path).second)
        Headers.push_back(std::move(Result[I]));
  for (FileOutcome &Header : Headers) {
    Outcomes.push_back(std::move(Header));
    Finished(Outcomes.back(), Outcomes.size(), Total + Headers.size());
  }
  return Outcomes;
}

} // namespace to_device_migrate
