// to-device-migrate: rewrites a CPU-only LibTorch program so its tensors,
// models and losses live on a device chosen once. This file only parses
// options, runs the migration library, and writes what it produced.
#include "Config.h"
#include "lib/Migrator.h"
#include "lib/Output.h"
#include "lib/UnifiedDiff.h"
#include "lib/Rule.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
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
static cl::opt<bool> NoPch("no-pch", cl::desc("Parse <torch/torch.h> from source"),
                           cl::cat(Category));
static cl::extrahelp CommonHelp(CommonOptionsParser::HelpMessage);
static cl::extrahelp MoreHelp(R"(
With no -p and no --, LibTorch's include directories and -std=c++17 are used;
anything after -- is added to the compile flags. Prints the migrated source to
stdout unless -i or -o is given. See docs/usage.md.
)");

static int error(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "to-device-migrate") << Message << "\n";
  return 1;
}

/// clang-format-like invocation: without -p, parse with default flags rather
/// than searching for a compilation database. `FlagsAreOurs` says whether the
/// command line is only ours (no -p, nothing after --): then the precompiled
/// header, built with exactly those flags, can be used.
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

static bool includesTorchHeader(llvm::StringRef File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  static const llvm::Regex Include("#[ \t]*include[ \t]*[<\"]torch/torch\\.h[>\"]");
  return Buffer && Include.match((*Buffer)->getBuffer());
}

/// The flags every parse gets: LibTorch's headers, C++17, the builtin headers,
/// and the precompiled <torch/torch.h> when the command line is ours alone.
static ArgumentsAdjuster defaultFlags(bool CommandLineIsOurs) {
  return [CommandLineIsOurs](const CommandLineArguments &Args, llvm::StringRef File) {
    CommandLineArguments Out = Args;
    bool HasStd = llvm::any_of(Args, [](llvm::StringRef A) { return A.startswith("-std="); });
    if (!HasStd)
      Out.push_back("-std=c++17");
    Out.insert(Out.end(), {"-isystem", TO_DEVICE_TORCH_API_INCLUDE, "-isystem",
                           TO_DEVICE_RUNTIME_INCLUDE, "-resource-dir=" + ResourceDir, "-w",
                           "-Qunused-arguments"});
    if (CommandLineIsOurs && !NoPch && !PchFile.empty() && llvm::sys::fs::exists(PchFile) &&
        includesTorchHeader(File))
      Out.insert(Out.end(), {"-include-pch", PchFile});
    return Out;
  };
}

/// The rules `--rules` selects; later globs win, as in clang-tidy's --checks.
static llvm::Expected<std::vector<std::string>> selectedRules(llvm::StringRef Globs) {
  std::vector<std::pair<llvm::GlobPattern, bool>> Patterns;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Globs.split(Parts, ',', -1, false);
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    bool Remove = Part.consume_front("-");
    auto Pattern = llvm::GlobPattern::create(Part);
    if (!Pattern)
      return Pattern.takeError();
    Patterns.emplace_back(std::move(*Pattern), !Remove);
  }
  std::vector<std::string> Selected;
  for (const todevice::RuleInfo &Rule : todevice::allRules()) {
    bool Enabled = false;
    for (const auto &[Pattern, Include] : Patterns)
      if (Pattern.match(Rule.Name))
        Enabled = Include;
    if (Enabled)
      Selected.push_back(Rule.Name);
  }
  return Selected;
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

/// --check: one warning per site a rule would change (the device declaration
/// follows from the others and is not listed); 1 if there is any.
static int reportSites(const todevice::FileResult &Result) {
  int Sites = 0;
  llvm::StringRef Code = Result.Original;
  for (const todevice::Edit &E : Result.Edits.edits()) {
    if (E.Rule == "device-declaration")
      continue;
    todevice::Finding F;
    F.File = Result.Path;
    std::tie(F.Line, F.Column) = todevice::lineAndColumn(Code, E.Offset);
    for (const todevice::RuleInfo &Rule : todevice::allRules())
      if (E.Rule == Rule.Name)
        F.Message = std::string("not on the device yet: ") + Rule.Summary;
    F.Rule = E.Rule;
    todevice::printFinding(llvm::outs(), F);
    ++Sites;
  }
  for (const todevice::Finding &F : Result.Findings)
    Sites += F.Severity == todevice::Finding::Level::Warning;
  return Sites ? 1 : 0;
}

int main(int Argc, const char **Argv) {
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
    llvm::errs() << llvm::toString(Parser.takeError());
    return 1;
  }
  auto Rules = selectedRules(RuleGlobs);
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
  const std::vector<std::string> &Files = Parser->getSourcePathList();
  if (Files.empty())
    return error("no input files (try --help)");
  if (InPlace && !OutputFile.empty())
    return error("-i and -o cannot be used together");
  if (!OutRoot.empty() && (InPlace || !OutputFile.empty()))
    return error("--out-root cannot be used with -i or -o");
  if ((Diff || Check) && (InPlace || !OutputFile.empty() || !OutRoot.empty()))
    return error(std::string(Diff ? "--diff" : "--check") + " writes no file: not with -i or -o");
  if (Diff && Check)
    return error("--diff and --check cannot be used together");
  if (!OutputFile.empty() && Files.size() > 1)
    return error("-o takes one input file, " + llvm::Twine(Files.size()) + " were given");
  for (const std::string &File : Files) {
    if (llvm::sys::fs::is_directory(File))
      return error("'" + File + "' is a directory, not a source file");
    if (!llvm::sys::fs::exists(File))
      return error("no such file or directory: '" + File + "'");
  }

  ClangTool Tool(Parser->getCompilations(), Files);
  Tool.appendArgumentsAdjuster(defaultFlags(FlagsAreOurs));
  todevice::MigrationOptions Options;
  Options.DeviceExpr = DeviceExpr;
  Options.RegistryMode = MigrationMode == Mode::Registry;
  todevice::Migrator Migrator(Options, *Rules);
  Tool.run(Migrator.newActionFactory().get());

  int Status = 0;
  std::vector<TranslationUnitReplacements> Fixes;
  for (const std::string &Failed : Migrator.failures())
    Status = error(Failed + " does not compile (see the errors above); it was not changed");
  for (const todevice::FileResult &Result : Migrator.results()) {
    for (const todevice::Finding &F : Result.Findings)
      todevice::printFinding(llvm::errs(), F);
    llvm::Expected<Replacements> Replaces =
        Result.Edits.toReplacements(Result.Path, Result.Original);
    if (!Replaces) {
      llvm::errs() << llvm::toString(Replaces.takeError()) << "\n";
      Status = 1;
      continue;
    }
    if (!ExportFixes.empty() && !Replaces->empty())
      Fixes.push_back({Result.Path, std::vector<Replacement>(Replaces->begin(), Replaces->end())});
    if (Check) {
      Status |= reportSites(Result);
      continue;
    }
    if (Diff) {
      llvm::outs() << todevice::unifiedDiff(relativePath(Result.Path), Result.Original, *Replaces);
      continue;
    }
    llvm::Expected<std::string> Migrated = applyAllReplacements(Result.Original, *Replaces);
    if (!Migrated) {
      Status = error(llvm::toString(Migrated.takeError()));
      continue;
    }
    if (InPlace || !OutputFile.empty() || !OutRoot.empty()) {
      std::string Target = InPlace ? Result.Path : OutputFile.getValue();
      if (!OutRoot.empty()) {
        llvm::SmallString<256> Mirrored(OutRoot);
        llvm::sys::path::append(Mirrored, relativePath(Result.Path));
        if (std::error_code EC =
                llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Mirrored))) {
          Status = error("cannot create '" + llvm::sys::path::parent_path(Mirrored) +
                         "': " + EC.message());
          continue;
        }
        Target = Mirrored.str().str();
      }
      if (InPlace && *Migrated == Result.Original)
        continue;
      if (llvm::Error Err = todevice::writeFileAtomically(Target, *Migrated))
        Status = error(llvm::toString(std::move(Err)));
    } else {
      llvm::outs() << *Migrated;
    }
  }
  if (!ExportFixes.empty()) {
    // clang-apply-replacements reads one TranslationUnitReplacements document per file.
    std::string Yaml;
    llvm::raw_string_ostream OS(Yaml);
    llvm::yaml::Output Out(OS);
    for (TranslationUnitReplacements &Unit : Fixes)
      Out << Unit;
    OS.flush();
    if (llvm::Error Err = todevice::writeFileAtomically(ExportFixes, Yaml))
      Status = error(llvm::toString(std::move(Err)));
  }
  if (Migrator.results().empty() && Migrator.failures().empty())
    Status = error("nothing was parsed");
  return Status;
}
