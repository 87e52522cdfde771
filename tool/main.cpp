// to-device-migrate: rewrites a CPU-only LibTorch program so its tensors,
// models and losses live on a device chosen once. This file only parses
// options, runs the migration library, and writes what it produced.
#include "Config.h"
#include "driver/Inputs.h"
#include "driver/Outputs.h"
#include "parse/CompileFlags.h"
#include "run/FileRunner.h"
#include "engine/Rule.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"

using namespace clang::tooling;
using namespace to_device_migrate;
using driver::error;
namespace cl = llvm::cl;

static cl::OptionCategory Category("to-device-migrate options");
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the files in place (atomically)"),
                             cl::cat(Category));
static cl::opt<std::string> OutputFile("o", cl::desc("Write the migrated source to <file>"),
                                       cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string>
    DeviceExpr("device-expr",
               cl::desc("Initialise the inserted device declaration with <expr>\n"
                        "(default: torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;\n"
                        "'todevice::default_device()' honours the TODEVICE variable)"),
               cl::value_desc("expr"), cl::cat(Category));
static cl::opt<std::string>
    OutRoot("out-root",
            cl::desc("Write each migrated file to <dir>/<its path> (a mirror tree; inputs "
                     "are not touched)"),
            cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> Diff("diff",
                          cl::desc("Print a unified diff (for patch -p1 / git apply) instead of "
                                   "the migrated source"),
                          cl::cat(Category));
static cl::opt<bool> Check("check",
                           cl::desc("Rewrite nothing: report every site that would change as a "
                                    "warning and exit 1 if there is any (for CI)"),
                           cl::cat(Category));
static cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("Also write the edits and findings with their messages as clang-tidy exports "
                         "them (YAML that clang-apply-replacements applies)"),
                cl::value_desc("file"), cl::cat(Category));
enum class Mode { PerSite, Registry };
static cl::opt<Mode> MigrationMode(
    "mode", cl::desc("How variables are placed"), cl::init(Mode::PerSite),
    cl::values(clEnumValN(Mode::PerSite, "per-site", "rewrite each site (default)"),
               clEnumValN(Mode::Registry, "registry",
                          "register them with a todevice::Registry, moved with one call")),
    cl::cat(Category));
static cl::opt<bool>
    DataParallel("data-parallel",
                 cl::desc("Run forward calls in training loops with "
                          "torch::nn::parallel::data_parallel when there are several CUDA "
                          "devices (cloneable modules; others get a note)"),
                 cl::cat(Category));
static cl::opt<bool> Distributed(
    "distributed",
    cl::desc("Make the program train data-parallel across processes and machines on c10d "
             "(todevice/distributed.h): initialisation in main(), distributed samplers, "
             "parameters broadcast from rank 0, gradients averaged before each step, "
             "checkpoints saved by rank 0; the device defaults to "
             "todevice::distributed::device()"),
    cl::cat(Category));
static cl::opt<std::string>
    RuleGlobs("rules",
              cl::desc("Comma-separated globs of rules to run, clang-tidy style: '-name' "
                       "removes (default: '*')"),
              cl::value_desc("globs"), cl::init("*"), cl::cat(Category));
static cl::opt<bool> ListRules("list-rules", cl::desc("List the rewrite rules and exit"),
                               cl::cat(Category));
static cl::opt<std::string> ResourceDir("resource-dir",
                                        cl::desc("Clang resource directory (builtin headers)"),
                                        cl::init(TO_DEVICE_RESOURCE_DIR), cl::cat(Category));
static cl::opt<std::string> PchFile("pch",
                                    cl::desc("Precompiled <torch/torch.h> to parse with, for "
                                             "files that include it"),
                                    cl::init(TO_DEVICE_DEFAULT_PCH), cl::cat(Category));
static cl::opt<bool> NoPch("no-pch",
                           cl::desc("Parse <torch/torch.h> from source: no precompiled header"),
                           cl::cat(Category));
static cl::opt<std::string>
    PchCacheDir("pch-cache",
                cl::desc("Directory of the tool's caches: precompiled <torch/torch.h> headers, "
                         "one per set of compile flags, and the whole-program analysis of each "
                         "file (summaries/) (default: $TO_DEVICE_MIGRATE_CACHE, else "
                         "~/.cache/to-device-migrate)"),
                cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool>
    NoCompileCheck("no-compile-check",
                   cl::desc("Write the migrated code without parsing it once more first (by "
                            "default a migration that would not compile is refused)"),
                   cl::cat(Category));
// For comparing the placement analysis with the rules (PlacementFlow.h).
static cl::opt<bool> ExplainPlacement("explain-placement", cl::Hidden,
                                      cl::desc("Note where the placement analysis puts each factory"),
                                      cl::cat(Category));
// For the compile check's own test: a way to make a migration not compile.
static cl::opt<std::string> AppendForTesting("append-to-rewritten-files-for-testing", cl::Hidden,
                                             cl::cat(Category));
static cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc("Also migrate the headers the files include whose absolute path "
                          "matches <regex> (clang-tidy style; never system or LibTorch headers)"),
                 cl::value_desc("regex"), cl::cat(Category));
static cl::opt<bool> AllFiles("all", cl::desc("Migrate every file of the compile database (-p)"),
                              cl::cat(Category));
static cl::opt<unsigned> Jobs("j",
                              cl::desc("Files parsed at once (default: 0, one per core)"),
                              cl::value_desc("N"), cl::init(0), cl::cat(Category));
static cl::opt<bool> Comments("comments",
                              cl::desc("Also write each warning as a comment above its line in "
                                       "the migrated output"),
                              cl::cat(Category));
static cl::opt<std::string>
    ReportFile("report",
               cl::desc("Write what was done to each file, per rule and site, with totals: "
                        "JSON, or Markdown when <file> ends in .md"),
               cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> FormatStyle(
    "format-style",
    cl::desc("Format the changed lines in this clang-format style: 'file' (the default: the "
             ".clang-format above each file; none found, no formatting), 'none', a style name "
             "(llvm, google, ...) or '{key: value, ...}'. Other lines are never touched"),
    cl::value_desc("style"), cl::init("file"), cl::cat(Category));
static cl::extrahelp CommonHelp(CommonOptionsParser::HelpMessage);
static cl::extrahelp MoreHelp(R"(
Examples:
  to-device-migrate train.cpp               print train.cpp, migrated
  to-device-migrate -i train.cpp            migrate it in place (atomically)
  to-device-migrate --diff train.cpp        a patch for `git apply` / `patch -p1`
  to-device-migrate --check src/*.cpp       CI: list what is not on the device, exit 1 if any
  to-device-migrate -p build --all -i       every file of build/compile_commands.json
  to-device-migrate -p build --all --out-root migrated --report report.md

With no -p and no --, LibTorch's include directories and the C++ standard its
headers require (C++17; C++20 for LibTorch 2.10 and later) are used;
anything after -- is added to the compile flags. Files that include
<torch/torch.h> are parsed with a precompiled header, built once per set of
flags and cached (--no-pch disables it). Exit status: 0 on success, 1 if a file
did not parse or could not be written, or --check found sites.
Rules: --list-rules. Documentation: docs/usage.md, docs/rules.md.
)");

static driver::OutputOptions outputOptions() {
  driver::OutputOptions O;
  O.InPlace = InPlace;
  O.Diff = Diff;
  O.Check = Check;
  O.Comments = Comments;
  O.OutputFile = OutputFile;
  O.OutRoot = OutRoot;
  O.ExportFixes = ExportFixes;
  O.ReportFile = ReportFile;
  O.HeaderFilter = HeaderFilter;
  O.FormatStyle = FormatStyle;
  return O;
}

/// The files to migrate: those named, or every file of the compile database
/// (--all, which then owns `AllFilesDatabase`). Named files that cannot be
/// migrated stop the run (nullopt) before anything is parsed; files of a
/// compile database are skipped, and counted in `Skipped`.
static std::optional<std::vector<std::string>>
filesToMigrate(CommonOptionsParser &Parser, const driver::OutputOptions &Options,
               std::unique_ptr<CompilationDatabase> &AllFilesDatabase, size_t &Skipped) {
  std::vector<std::string> Files = Parser.getSourcePathList();
  auto Fail = [](const llvm::Twine &Message) -> std::nullopt_t {
    error(Message);
    return std::nullopt;
  };
  if (AllFiles) {
    if (!Files.empty())
      return Fail("--all takes no file names: it migrates every file of the compile database");
    llvm::Expected<std::unique_ptr<CompilationDatabase>> Database = driver::compileDatabaseOfAll();
    if (!Database)
      return Fail("--all: " + llvm::toString(Database.takeError()));
    AllFilesDatabase = std::move(*Database);
    Files = AllFilesDatabase->getAllFiles();
    if (Files.empty())
      return Fail("--all: the compile database lists no file");
  }
  if (Files.empty())
    return Fail("no input files (try --help)");
  if (std::string Conflict = driver::conflictingOptions(Options, Files.size()); !Conflict.empty())
    return Fail(Conflict);
  std::vector<std::string> Valid;
  for (const std::string &File : Files) {
    if (std::string Problem = driver::inputProblem(File, Options); !Problem.empty()) {
      error(Problem);
      if (!AllFiles)
        return std::nullopt;
      ++Skipped;
      continue;
    }
    Valid.push_back(File);
  }
  return Valid;
}

/// What a migration does, from the options; an error message when they do not fit.
static llvm::Expected<MigrationOptions> migrationOptions() {
  MigrationOptions Migration;
  Migration.DeviceExpr = DeviceExpr;
  Migration.RegistryMode = MigrationMode == Mode::Registry;
  Migration.DataParallel = DataParallel;
  Migration.Distributed = Distributed;
  Migration.ExplainPlacement = ExplainPlacement;
  if (Distributed && MigrationMode == Mode::Registry)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--distributed places modules per site (it broadcasts their "
                                   "parameters where they are moved): it does not combine with "
                                   "--mode=registry");
  if (Distributed && DeviceExpr.empty())
    Migration.DeviceExpr = "todevice::distributed::device()";
  return Migration;
}

/// Writes every outcome as the options ask, the --export-fixes and --report
/// files, and the summary line; returns the exit status.
static int writeOutcomes(llvm::ArrayRef<FileOutcome> Outcomes, const driver::OutputOptions &Options,
                         size_t Skipped) {
  int Status = Skipped ? 1 : 0;
  TranslationUnitDiagnostics Fixes;
  driver::FindingPrinters Printers;
  size_t Migrated = 0, Unchanged = 0, Failed = Skipped, Rewrites = 0;
  for (const FileOutcome &Outcome : Outcomes) {
    if (!Outcome.Result) {
      ++Failed;
      Status = error(Outcome.Input + " does not compile (see the errors above); it was not changed");
      continue;
    }
    if (!Outcome.CompileErrors.empty()) {
      ++Failed;
      for (const std::string &Line : Outcome.CompileErrors)
        llvm::errs() << Line << "\n";
      Status = error(Outcome.Input + " was not changed: its migration would not compile (a bug in "
                                     "to-device-migrate; please report it with the lines above)");
      continue;
    }
    if (!Outcome.FormatError.empty() && !Options.Check) {
      ++Failed;
      Status = error(Outcome.Input + " was not changed: " + Outcome.FormatError);
      continue;
    }
    const size_t Edits = Outcome.Result->editCount();
    Rewrites += Edits;
    ++(Edits == 0 ? Unchanged : Migrated);
    Status |= driver::writeResult(*Outcome.Result, Options, Printers, Fixes);
  }
  if (!Options.ExportFixes.empty())
    Status |= driver::writeFixes(Options.ExportFixes, Fixes);
  if (!Options.ReportFile.empty())
    Status |= driver::writeReport(Options.ReportFile, Outcomes);
  if (Outcomes.size() + Skipped > 1)
    llvm::errs() << llvm::formatv("{0} files: {1} migrated ({2} rewrites), {3} unchanged, {4} failed\n",
                                  Outcomes.size() + Skipped, Migrated, Rewrites, Unchanged, Failed);
  return Status;
}

int main(int Argc, const char **Argv) {
  // A crash prints a stack trace. Registering LLVM's signal handlers here, on the
  // main thread, also gives them their alternate signal stack here: otherwise the
  // first -j worker to need them installs one, and ASan's thread teardown then
  // tries to unmap that malloc'd stack ("failed to deallocate", seen in CI).
  llvm::sys::PrintStackTraceOnErrorSignal(Argv[0]);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "to-device-migrate " TO_DEVICE_MIGRATE_VERSION " (Clang " TO_DEVICE_CLANG_VERSION
          ", LibTorch " TO_DEVICE_TORCH_VERSION ")\n";
  });
  bool FlagsAreOurs = false;
  std::vector<const char *> Args = driver::withDefaultSeparator(Argc, Argv, FlagsAreOurs);
  int ArgCount = static_cast<int>(Args.size());
  auto Parser = CommonOptionsParser::create(ArgCount, Args.data(), Category, cl::ZeroOrMore,
                                            "Places LibTorch tensors, models and losses on a "
                                            "device chosen once.\n");
  if (!Parser) {
    // One line, as for every other error ("Unknown command line argument...").
    std::string Why = llvm::toString(Parser.takeError());
    llvm::StringRef First = llvm::StringRef(Why).split('\n').first.trim();
    First.consume_front("to-device-migrate: ");
    return error(First + " (see --help)");
  }
  auto Rules = selectRules(RuleGlobs);
  if (!Rules)
    return error("--rules: " + llvm::toString(Rules.takeError()));
  if (ListRules) {
    for (const RuleInfo &Rule : registeredRules())
      if (Rule.AlwaysRuns || llvm::is_contained(*Rules, Rule.Name))
        llvm::outs() << llvm::formatv("{0,-20} {1}{2}\n", Rule.Name, Rule.Summary,
                                      Rule.AlwaysRuns ? " (always runs)" : "");
    return 0;
  }
  if (Rules->empty())
    return error("--rules='" + RuleGlobs + "' selects no rule (see --list-rules)");
  const driver::OutputOptions Output = outputOptions();
  size_t Skipped = 0;
  std::unique_ptr<CompilationDatabase> AllFilesDatabase;
  std::optional<std::vector<std::string>> Files =
      filesToMigrate(*Parser, Output, AllFilesDatabase, Skipped);
  if (!Files)
    return 1;

  RunOptions Run;
  llvm::Expected<MigrationOptions> Migration = migrationOptions();
  if (!Migration)
    return error(llvm::toString(Migration.takeError()));
  Run.Migration = *Migration;
  Run.Rules = *Rules;
  Run.Flags = defaultFlags({ResourceDir, runtimeIncludeDir(Argv[0]),
                            NoPch ? std::string() : PchFile.getValue(), FlagsAreOurs});
  std::optional<PchCache> Cache;
  if (!NoPch)
    Cache.emplace(PchCacheDir.empty() ? PchCache::defaultDirectory() : PchCacheDir);
  Run.Cache = Cache ? &*Cache : nullptr;
  Run.Jobs = Jobs;
  Run.CheckRewritesCompile = !Output.Check && !NoCompileCheck;
  Run.AppendForTesting = AppendForTesting;
  Run.FormatStyle = FormatStyle;
  Run.WarningComments = Comments && !Output.Check;
  llvm::Regex Headers(HeaderFilter);
  if (std::string Why; !HeaderFilter.empty() && !Headers.isValid(Why))
    return error("--header-filter: '" + HeaderFilter + "' is not a valid regex: " + Why);
  Run.HeaderFilter = HeaderFilter.empty() ? nullptr : &Headers;
  Run.HeaderFilterText = HeaderFilter;
  llvm::SmallString<256> Summaries(PchCacheDir.empty() ? PchCache::defaultDirectory()
                                                       : PchCacheDir.getValue());
  llvm::sys::path::append(Summaries, "summaries");
  Run.SummaryCacheDirectory = Summaries.str().str();
  const bool ShowProgress = (Files->size() > 1 || Run.HeaderFilter) &&
                            llvm::sys::Process::StandardErrIsDisplayed();
  std::vector<FileOutcome> Outcomes = migrateFiles(
      AllFilesDatabase ? *AllFilesDatabase : Parser->getCompilations(), *Files, Run,
      [&](const FileOutcome &Outcome, size_t Done, size_t Total) {
        llvm::errs() << Outcome.Diagnostics;
        if (ShowProgress)
          llvm::errs() << driver::progressLine(Outcome, Done, Total) << "\n";
      });
  return writeOutcomes(Outcomes, Output, Skipped);
}
