#include "run/ProgramAnalysis.h"
#include "engine/Migrator.h"
#include "parse/HeaderFiles.h"
#include "run/ParseSetup.h"
#include "run/SummaryCache.h"

#include "clang/Basic/Diagnostic.h"

#include <mutex>

namespace to_device_migrate {
namespace {

/// The command `File` is parsed with, as the run adjusts it (without the
/// precompiled header, which follows from it).
clang::tooling::CommandLineArguments commandOf(const clang::tooling::CompilationDatabase &Database,
                                               const std::string &File,
                                               const RunOptions &Options) {
  std::vector<clang::tooling::CompileCommand> Commands = Database.getCompileCommands(File);
  if (Commands.empty())
    return {};
  return Options.Flags(Commands.front().CommandLine, File);
}

/// Parses `File` and summarises it; nothing when it does not parse.
std::optional<ParseAnalysis> analyseOne(const clang::tooling::CompilationDatabase &Database,
                                        const std::string &File, const RunOptions &Options) {
  MigrationOptions Migration = Options.Migration;
  if (const llvm::Regex *Filter = Options.HeaderFilter)
    Migration.IsMigratedHeader = [Filter](llvm::StringRef Path) {
      return !isLibraryHeader(Path) && Filter->match(Path);
    };
  Migrator Analyser(std::move(Migration), {}, /*AnalyseOnly=*/true);
  const std::string Directory = workingDirectory(Database, File);
  std::unique_ptr<clang::tooling::ClangTool> Tool =
      toolFor(Database, File, parseFlags(Options, Directory));
  clang::IgnoringDiagConsumer Quiet;
  Tool->setDiagnosticConsumer(&Quiet);
  Tool->run(Analyser.newActionFactory().get());
  if (Analyser.analyses().empty())
    return std::nullopt;
  ParseAnalysis Analysis = Analyser.analyses().front();
  llvm::erase_if(Analysis.UserFiles, [](const std::string &Path) { return isLibraryHeader(Path); });
  return Analysis;
}

} // namespace

std::shared_ptr<const ProgramSummary>
analyseProgram(const clang::tooling::CompilationDatabase &Database,
               const std::vector<std::string> &Files, const RunOptions &Options) {
  const SummaryCache Cache(Options.SummaryCacheDirectory);
  const std::string Filter = Options.HeaderFilter ? Options.HeaderFilterText : "";
  std::vector<TranslationUnitSummary> Units(Files.size());
  forEachInParallel(Files.size(), Options.Jobs, [&](size_t I) {
    const std::string Key = SummaryCache::keyFor(Files[I], commandOf(Database, Files[I], Options), Filter);
    if (std::optional<TranslationUnitSummary> Cached = Cache.load(Key)) {
      Units[I] = std::move(*Cached);
      return;
    }
    if (std::optional<ParseAnalysis> Analysis = analyseOne(Database, Files[I], Options)) {
      Cache.store(Key, *Analysis);
      Units[I] = std::move(Analysis->Summary);
    }
  });
  return std::make_shared<const ProgramSummary>(ProgramSummary::merge(Units));
}

} // namespace to_device_migrate
