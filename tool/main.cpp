// to-device-migrate: rewrites a CPU-only LibTorch program so its tensors,
// models and losses live on a device chosen once. This file only parses
// options, runs the migration library, and writes what it produced.
#include "Config.h"
#include "lib/CompileFlags.h"
#include "lib/FileRunner.h"
#include "lib/Output.h"
#include "lib/Report.h"
#include "lib/Rule.h"
#include "lib/UnifiedDiff.h"
#include "lib/WarningComments.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"

using namespace clang::tooling;
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
                cl::desc("Also write the edits as YAML for clang-apply-replacements"),
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
                cl::desc("Directory of precompiled <torch/torch.h> headers, one per set of "
                         "compile flags (default: $TO_DEVICE_MIGRATE_CACHE, else "
                         "~/.cache/to-device-migrate)"),
                cl::value_desc("dir"), cl::cat(Category));
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
static cl::extrahelp CommonHelp(CommonOptionsParser::HelpMessage);
static cl::extrahelp MoreHelp(R"(
Examples:
  to-device-migrate train.cpp               print train.cpp, migrated
  to-device-migrate -i train.cpp            migrate it in place (atomically)
  to-device-migrate --diff train.cpp        a patch for `git apply` / `patch -p1`
  to-device-migrate --check src/*.cpp       CI: list what is not on the device, exit 1 if any
  to-device-migrate -p build --all -i       every file of build/compile_commands.json
  to-device-migrate -p build --all --out-root migrated --report report.md

With no -p and no --, LibTorch's include directories and -std=c++17 are used;
anything after -- is added to the compile flags. Files that include
<torch/torch.h> are parsed with a precompiled header, built once per set of
flags and cached (--no-pch disables it). Exit status: 0 on success, 1 if a file
did not parse or could not be written, or --check found sites.
Rules: --list-rules. Documentation: docs/usage.md, docs/rules.md.
)");

static int error(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "to-device-migrate") << Message << "\n";
  return 1;
}

/// clang-format-like invocation: without -p, parse with default flags rather
/// than searching for a compilation database. `FlagsAreOurs` says whether the
/// command line is only ours (no -p, nothing after --): then the precompiled
/// header the build made with exactly those flags can be used.
static std::vector<const char *> withDefaultSeparator(int Argc, const char **Argv,
                                                      bool &FlagsAreOurs) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  bool HasSeparator = false, HasDatabase = false, HasExtraFlags = false;
  for (llvm::StringRef A : llvm::makeArrayRef(Argv, Argc)) {
    HasExtraFlags |= HasSeparator;
    HasSeparator |= A == "--";
    HasDatabase |= A == "-p" || A.startswith("-p=") || A == "--p" || A.startswith("--p=");
  }
  if (!HasSeparator && !HasDatabase)
    Args.push_back("--");
  FlagsAreOurs = !HasDatabase && !HasExtraFlags;
  return Args;
}

/// `path` relative to the working directory when below it, for diff headers.
static std::string relativePath(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  llvm::StringRef Rel = Path;
  if (Rel.consume_front(Cwd) && Rel.consume_front("/"))
    return Rel.str();
  return Path.str();
}

/// The database `-p` names, for --all. CommonOptionsParser loads one only when
/// it is given file names.
static llvm::Expected<std::unique_ptr<CompilationDatabase>> compileDatabaseOfAll() {
  auto *BuildPath = static_cast<cl::opt<std::string> *>(cl::getRegisteredOptions().lookup("p"));
  if (!BuildPath || BuildPath->empty())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "needs a compile database: -p <build directory>");
  std::string Why;
  std::unique_ptr<CompilationDatabase> Database =
      CompilationDatabase::autoDetectFromDirectory(*BuildPath, Why);
  if (!Database)
    return llvm::createStringError(std::make_error_code(std::errc::no_such_file_or_directory), Why);
  return inferTargetAndDriverMode(std::move(Database));
}

/// Why `File` cannot be migrated, or "" when it can be.
static std::string inputProblem(const std::string &File) {
  namespace fs = llvm::sys::fs;
  if (fs::is_directory(File))
    return "'" + File + "' is a directory, not a source file";
  if (!fs::exists(File))
    return "no such file or directory: '" + File + "'";
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return "cannot read '" + File + "': " + Buffer.getError().message();
  llvm::StringRef Text = (*Buffer)->getBuffer();
  if (Text.empty())
    return "'" + File + "' is empty: there is nothing to migrate";
  if (size_t Nul = Text.take_front(1 << 16).find('\0'); Nul != llvm::StringRef::npos)
    return "'" + File + "' is not a source file: it holds binary data (a NUL byte at offset " +
           std::to_string(Nul) + ")";
  if (InPlace) {
    // Checked on the mode bits, not access(): root may write anything, but a
    // file someone made read-only is not meant to be rewritten.
    llvm::ErrorOr<fs::perms> Perms = fs::getPermissions(File);
    if (Perms && (*Perms & fs::all_write) == 0)
      return "'" + File + "' is read-only: not rewritten in place (make it writable, or use -o)";
  }
  return std::string();
}

/// A usage error in the options, or "" when they fit together.
static std::string conflictingOptions(size_t FileCount) {
  if (InPlace && !OutputFile.empty())
    return "-i and -o cannot be used together";
  if (!OutRoot.empty() && (InPlace || !OutputFile.empty()))
    return "--out-root cannot be used with -i or -o";
  if ((Diff || Check) && (InPlace || !OutputFile.empty() || !OutRoot.empty()))
    return std::string(Diff ? "--diff" : "--check") + " writes no file: not with -i or -o";
  if (Diff && Check)
    return "--diff and --check cannot be used together";
  if (!OutputFile.empty() && FileCount > 1)
    return "-o takes one input file, " + std::to_string(FileCount) + " were given";
  if (!OutputFile.empty() && !HeaderFilter.empty())
    return "-o writes one file: use -i, --out-root or --diff with --header-filter";
  return std::string();
}

/// Where the migrated text of `Path` goes: the file itself, -o, or the mirror tree.
static llvm::Expected<std::string> targetOf(llvm::StringRef Path) {
  if (InPlace)
    return Path.str();
  if (OutRoot.empty())
    return OutputFile.getValue();
  llvm::SmallString<256> Mirrored(OutRoot);
  llvm::sys::path::append(Mirrored, relativePath(Path));
  if (std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Mirrored)))
    return llvm::createStringError(EC, "cannot create '%s': %s",
                                   llvm::sys::path::parent_path(Mirrored).str().c_str(),
                                   EC.message().c_str());
  return Mirrored.str().str();
}

/// Writes one file's result as the options ask; returns the exit status.
static int writeResult(todevice::FileResult Result,
                       std::vector<clang::tooling::TranslationUnitReplacements> &Fixes) {
  for (const todevice::Finding &F : Result.Findings)
    todevice::printFinding(llvm::errs(), F);
  if (Check)
    return todevice::printSites(llvm::outs(), Result) ? 1 : 0;
  if (Comments)
    todevice::addWarningComments(Result);
  llvm::Expected<Replacements> Replaces = Result.Edits.toReplacements(Result.Path, Result.Original);
  if (!Replaces)
    return error(llvm::toString(Replaces.takeError()));
  if (!ExportFixes.empty() && !Replaces->empty())
    Fixes.push_back({Result.Path, std::vector<Replacement>(Replaces->begin(), Replaces->end())});
  if (Diff) {
    llvm::outs() << todevice::unifiedDiff(relativePath(Result.Path), Result.Original, *Replaces);
    return 0;
  }
  llvm::Expected<std::string> Migrated = applyAllReplacements(Result.Original, *Replaces);
  if (!Migrated)
    return error(llvm::toString(Migrated.takeError()));
  if (!InPlace && OutputFile.empty() && OutRoot.empty()) {
    llvm::outs() << *Migrated;
    return 0;
  }
  if (InPlace && *Migrated == Result.Original)
    return 0;
  llvm::Expected<std::string> Target = targetOf(Result.Path);
  if (!Target)
    return error(llvm::toString(Target.takeError()));
  if (llvm::Error Err = todevice::writeFileAtomically(*Target, *Migrated))
    return error(llvm::toString(std::move(Err)));
  return 0;
}

/// --export-fixes: one TranslationUnitReplacements document per file, as
/// clang-apply-replacements reads them.
static int writeFixes(std::vector<clang::tooling::TranslationUnitReplacements> &Fixes) {
  std::string Yaml;
  llvm::raw_string_ostream OS(Yaml);
  llvm::yaml::Output Out(OS);
  for (clang::tooling::TranslationUnitReplacements &Unit : Fixes)
    Out << Unit;
  OS.flush();
  if (llvm::Error Err = todevice::writeFileAtomically(ExportFixes, Yaml))
    return error(llvm::toString(std::move(Err)));
  return 0;
}

static int writeReport(llvm::ArrayRef<todevice::FileOutcome> Outcomes) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (llvm::StringRef(ReportFile).endswith(".md"))
    todevice::writeMarkdownReport(OS, Outcomes);
  else
    todevice::writeJsonReport(OS, Outcomes);
  OS.flush();
  if (llvm::Error Err = todevice::writeFileAtomically(ReportFile, Text))
    return error(llvm::toString(std::move(Err)));
  return 0;
}

/// `[3/12] src/train.cpp: 7 rewrites`
static std::string progressLine(const todevice::FileOutcome &Outcome, size_t Done,
                                size_t Total) {
  std::string Line = llvm::formatv("[{0}/{1}] {2}: ", Done, Total, relativePath(Outcome.Input));
  if (!Outcome.Result)
    return Line + "failed to parse";
  const size_t Rewrites = Outcome.Result->Edits.size();
  return Line + std::to_string(Rewrites) + (Rewrites == 1 ? " rewrite" : " rewrites");
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
  std::vector<const char *> Args = withDefaultSeparator(Argc, Argv, FlagsAreOurs);
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
  auto Rules = todevice::selectRules(RuleGlobs);
  if (!Rules)
    return error("--rules: " + llvm::toString(Rules.takeError()));
  if (ListRules) {
    for (const todevice::RuleInfo &Rule : todevice::allRules())
      if (llvm::is_contained(*Rules, Rule.Name))
        llvm::outs() << llvm::formatv("{0,-20} {1}\n", Rule.Name, Rule.Summary);
    return 0;
  }
  if (Rules->empty())
    return error("--rules='" + RuleGlobs + "' selects no rule (see --list-rules)");
  std::vector<std::string> Files = Parser->getSourcePathList();
  std::unique_ptr<CompilationDatabase> AllFilesDatabase;
  if (AllFiles) {
    if (!Files.empty())
      return error("--all takes no file names: it migrates every file of the compile database");
    llvm::Expected<std::unique_ptr<CompilationDatabase>> Database = compileDatabaseOfAll();
    if (!Database)
      return error("--all: " + llvm::toString(Database.takeError()));
    AllFilesDatabase = std::move(*Database);
    Files = AllFilesDatabase->getAllFiles();
    if (Files.empty())
      return error("--all: the compile database lists no file");
  }
  if (Files.empty())
    return error("no input files (try --help)");
  if (std::string Conflict = conflictingOptions(Files.size()); !Conflict.empty())
    return error(Conflict);
  // Inputs that cannot be migrated: named files stop the run before anything
  // is parsed; files of a compile database (--all) are skipped, and counted.
  size_t Skipped = 0;
  std::vector<std::string> Valid;
  for (const std::string &File : Files) {
    if (std::string Problem = inputProblem(File); !Problem.empty()) {
      error(Problem);
      if (!AllFiles)
        return 1;
      ++Skipped;
      continue;
    }
    Valid.push_back(File);
  }
  Files.swap(Valid);

  std::optional<todevice::PchCache> Cache;
  if (!NoPch)
    Cache.emplace(PchCacheDir.empty() ? todevice::PchCache::defaultDirectory() : PchCacheDir);
  todevice::RunOptions Run;
  Run.Migration.DeviceExpr = DeviceExpr;
  Run.Migration.RegistryMode = MigrationMode == Mode::Registry;
  Run.Migration.DataParallel = DataParallel;
  Run.Migration.Distributed = Distributed;
  if (Distributed && MigrationMode == Mode::Registry)
    return error("--distributed places modules per site (it broadcasts their parameters "
                 "where they are moved): it does not combine with --mode=registry");
  if (Distributed && DeviceExpr.empty())
    Run.Migration.DeviceExpr = "todevice::distributed::device()";
  Run.Rules = *Rules;
  Run.Flags = todevice::defaultFlags({ResourceDir, todevice::runtimeIncludeDir(Argv[0]),
                                      NoPch ? std::string() : PchFile.getValue(), FlagsAreOurs});
  Run.Cache = Cache ? &*Cache : nullptr;
  Run.Jobs = Jobs;
  llvm::Regex Headers(HeaderFilter);
  if (std::string Why; !HeaderFilter.empty() && !Headers.isValid(Why))
    return error("--header-filter: '" + HeaderFilter + "' is not a valid regex: " + Why);
  Run.HeaderFilter = HeaderFilter.empty() ? nullptr : &Headers;
  const bool ShowProgress = (Files.size() > 1 || Run.HeaderFilter) &&
                            llvm::sys::Process::StandardErrIsDisplayed();
  std::vector<todevice::FileOutcome> Outcomes = todevice::migrateFiles(
      AllFilesDatabase ? *AllFilesDatabase : Parser->getCompilations(), Files, Run,
      [&](const todevice::FileOutcome &Outcome, size_t Done, size_t Total) {
        llvm::errs() << Outcome.Diagnostics;
        if (ShowProgress)
          llvm::errs() << progressLine(Outcome, Done, Total) << "\n";
      });

  int Status = Skipped ? 1 : 0;
  std::vector<clang::tooling::TranslationUnitReplacements> Fixes;
  size_t Migrated = 0, Unchanged = 0, Failed = Skipped, Rewrites = 0;
  for (const todevice::FileOutcome &Outcome : Outcomes) {
    if (!Outcome.Result) {
      ++Failed;
      Status = error(Outcome.Input + " does not compile (see the errors above); it was not changed" +
                     (Outcome.IncludedBy.empty() ? ""
                                                 : " (a header is parsed on its own, with the flags of " +
                                                       Outcome.IncludedBy + ": it must include what it uses)"));
      continue;
    }
    Rewrites += Outcome.Result->Edits.size();
    ++(Outcome.Result->Edits.empty() ? Unchanged : Migrated);
    Status |= writeResult(*Outcome.Result, Fixes);
  }
  if (!ExportFixes.empty())
    Status |= writeFixes(Fixes);
  if (!ReportFile.empty())
    Status |= writeReport(Outcomes);
  if (Outcomes.size() + Skipped > 1)
    llvm::errs() << llvm::formatv("{0} files: {1} migrated ({2} rewrites), {3} unchanged, {4} failed\n",
                                  Outcomes.size() + Skipped, Migrated, Rewrites, Unchanged, Failed);
  return Status;
}
