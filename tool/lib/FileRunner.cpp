#include "FileRunner.h"
#include "HeaderFiles.h"
#include "Migrator.h"
#include "compat/LlvmCompat.h"

#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <mutex>

namespace to_device_migrate {
namespace {

/// The directory relative paths of `File`'s command are resolved against.
std::string workingDirectory(const clang::tooling::CompilationDatabase &Database,
                             llvm::StringRef File) {
  std::vector<clang::tooling::CompileCommand> Commands = Database.getCompileCommands(File);
  if (!Commands.empty() && !Commands.front().Directory.empty())
    return Commands.front().Directory;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  return Cwd.str().str();
}

FileOutcome migrateOne(const clang::tooling::CompilationDatabase &Database,
                       const std::string &File, const RunOptions &Options, bool IsHeader) {
  FileOutcome Outcome;
  Outcome.Input = File;
  // A physical file system of its own per tool: its working directory is not
  // the process's, so tools in different threads cannot move each other's.
  const std::string Directory = workingDirectory(Database, File);
  clang::tooling::ClangTool Tool(Database, {File},
                                 std::make_shared<clang::PCHContainerOperations>(),
                                 llvm::vfs::createPhysicalFileSystem());
  Tool.appendArgumentsAdjuster(Options.Flags);
  if (Options.Cache)
    Tool.appendArgumentsAdjuster(Options.Cache->adjuster(Directory));

  llvm::raw_string_ostream Diagnostics(Outcome.Diagnostics);
  compat::TextDiagnostics Printer(Diagnostics, llvm::sys::Process::StandardErrHasColors());
  Tool.setDiagnosticConsumer(&Printer.consumer());

  MigrationOptions Migration = Options.Migration;
  if (IsHeader)
    Migration.HeaderPrefix = headerPrefix(File);
  if (const llvm::Regex *Filter = Options.HeaderFilter)
    Migration.IsMigratedHeader = [Filter](llvm::StringRef Path) {
      return !isLibraryHeader(Path) && Filter->match(Path);
    };
  Migrator Migrator(std::move(Migration), Options.Rules);
  Tool.run(Migrator.newActionFactory().get());
  Diagnostics.flush();
  if (Migrator.results().empty())
    return Outcome;
  // Paths as the compile command wrote them are relative to its directory,
  // which is not the process's: make them absolute before anyone writes.
  Outcome.Result = Migrator.results().front();
  auto MakeAbsolute = [&](std::string &Path) {
    llvm::SmallString<256> Absolute(Path);
    compat::makeAbsolute(Directory, Absolute);
    Path = Absolute.str().str();
  };
  MakeAbsolute(Outcome.Result->Path);
  for (Finding &F : Outcome.Result->Findings)
    MakeAbsolute(F.File);
  return Outcome;
}

/// Migrates `Files` several at a time into `Outcomes[First...]`.
void migrateAll(const clang::tooling::CompilationDatabase &Database,
                const std::vector<std::string> &Files, const RunOptions &Options,
                std::vector<FileOutcome> &Outcomes, size_t First,
                llvm::function_ref<void(const FileOutcome &, size_t, size_t)> Finished) {
  std::mutex Lock; // serialises Finished and the count
  size_t Done = First;
  auto Run = [&](size_t I) {
    FileOutcome Outcome = migrateOne(Database, Files[I], Options, /*IsHeader=*/First > 0);
    std::lock_guard<std::mutex> Guard(Lock);
    Outcomes[First + I] = std::move(Outcome);
    Finished(Outcomes[First + I], ++Done, Outcomes.size());
  };
  const unsigned Jobs = std::min<size_t>(
      Options.Jobs ? Options.Jobs : llvm::hardware_concurrency().compute_thread_count(),
      Files.size());
  if (Jobs <= 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      Run(I);
    return;
  }
  compat::ThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < Files.size(); ++I)
    Pool.async([&Run, I] { Run(I); });
  Pool.wait();
}

} // namespace

std::vector<FileOutcome>
migrateFiles(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const RunOptions &Options,
             llvm::function_ref<void(const FileOutcome &, size_t, size_t)> Finished) {
  std::vector<FileOutcome> Outcomes(Files.size());
  migrateAll(Database, Files, Options, Outcomes, 0, Finished);
  if (!Options.HeaderFilter)
    return Outcomes;
  // Headers second: which ones, and with what flags, depends on the inputs.
  const auto Headers = headersToMigrate(Outcomes, *Options.HeaderFilter);
  if (Headers.empty())
    return Outcomes;
  HeaderCompilationDatabase HeaderCommands(Database, Headers);
  std::vector<std::string> HeaderFiles;
  for (const auto &Header : Headers)
    HeaderFiles.push_back(Header.first);
  const size_t First = Outcomes.size();
  Outcomes.resize(First + Headers.size());
  migrateAll(HeaderCommands, HeaderFiles, Options, Outcomes, First, Finished);
  for (size_t I = 0; I < Headers.size(); ++I)
    Outcomes[First + I].IncludedBy = Headers[I].second;
  return Outcomes;
}

} // namespace to_device_migrate
