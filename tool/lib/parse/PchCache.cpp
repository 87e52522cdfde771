#include "parse/PchCache.h"
#include "parse/CompileFlags.h"
#include "Config.h"
#include "compat/DriverOptions.h"
#include "compat/LlvmCompat.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using clang::tooling::CommandLineArguments;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace to_device_migrate {
namespace {

/// A compile command as the compiler driver's own option table reads it.
struct ParsedCommand {
  /// The flags a PCH must be built with: no compiler, input, output,
  /// dependency-file option (-M*), -c, -fsyntax-only, input language (a header
  /// is parsed with `-x c++`; the PCH is built as c++-header) or previous PCH.
  CommandLineArguments Flags;
  /// -I, -isystem, -iquote and -idirafter directories, in command-line order.
  std::vector<std::string> IncludeDirectories;
  /// The program's own: -I and -iquote directories.
  std::vector<std::string> ProjectDirectories;
};

ParsedCommand parseCommand(const CommandLineArguments &Args) {
  namespace options = compat::driver_options;
  std::vector<const char *> Argv;
  for (size_t I = 1; I < Args.size(); ++I) // Args[0] is the compiler
    Argv.push_back(Args[I].c_str());
  const llvm::opt::InputArgList Parsed = compat::parseDriverArguments(Argv);
  ParsedCommand Command;
  for (const llvm::opt::Arg *A : Parsed) {
    const llvm::opt::Option &O = A->getOption();
    // `--` takes every argument after it (the inputs) as its values.
    if (O.matches(options::OPT__DASH_DASH) || O.matches(options::OPT_INPUT) ||
        O.matches(options::OPT_o) ||
        O.matches(options::OPT_M_Group) || O.matches(options::OPT_c) ||
        O.matches(options::OPT_fsyntax_only) || O.matches(options::OPT_x) ||
        O.matches(options::OPT_include_pch))
      continue;
    if (O.matches(options::OPT_I) || O.matches(options::OPT_isystem) ||
        O.matches(options::OPT_iquote) || O.matches(options::OPT_idirafter))
      Command.IncludeDirectories.push_back(A->getValue());
    if (O.matches(options::OPT_I) || O.matches(options::OPT_iquote))
      Command.ProjectDirectories.push_back(A->getValue());
    llvm::opt::ArgStringList Rendered;
    A->render(Parsed, Rendered);
    Command.Flags.insert(Command.Flags.end(), Rendered.begin(), Rendered.end());
  }
  return Command;
}

std::string absolute(llvm::StringRef Path, llvm::StringRef WorkingDirectory) {
  llvm::SmallString<256> Out(Path);
  compat::makeAbsolute(WorkingDirectory, Out);
  return Out.str().str();
}

/// The <torch/torch.h> these include directories give: the first that has
/// one, as the compiler would find it.
std::string findTorchHeader(llvm::ArrayRef<std::string> IncludeDirectories,
                            llvm::StringRef WorkingDirectory) {
  for (const std::string &Dir : IncludeDirectories) {
    llvm::SmallString<256> Header(absolute(Dir, WorkingDirectory));
    path::append(Header, "torch", "torch.h");
    if (fs::exists(Header))
      return Header.str().str();
  }
  return std::string();
}

void hashFileStatus(llvm::MD5 &Hash, llvm::StringRef File) {
  fs::file_status Status;
  if (fs::status(File, Status))
    return;
  Hash.update(File);
  Hash.update(std::to_string(Status.getSize()));
  Hash.update(std::to_string(Status.getLastModificationTime().time_since_epoch().count()));
}

} // namespace

std::string torchHeaderOf(const CommandLineArguments &Args, llvm::StringRef WorkingDirectory) {
  return findTorchHeader(parseCommand(Args).IncludeDirectories, WorkingDirectory);
}

namespace {

/// Where `Header` (as written, with its delimiters) included by `Includer`
/// is found among the program's own files: next to the includer for a quoted
/// name, then in `ProjectDirectories`. Empty if it is not the program's.
std::string findProjectHeader(llvm::StringRef Header, llvm::StringRef Includer,
                              llvm::ArrayRef<std::string> ProjectDirectories,
                              llvm::StringRef WorkingDirectory) {
  const llvm::StringRef Name = Header.drop_front().drop_back();
  std::vector<std::string> Candidates;
  if (compat::startsWith(Header, "\"")) {
    llvm::SmallString<256> Sibling(path::parent_path(Includer));
    path::append(Sibling, Name);
    Candidates.push_back(Sibling.str().str());
  }
  for (const std::string &Dir : ProjectDirectories) {
    llvm::SmallString<256> Candidate(absolute(Dir, WorkingDirectory));
    path::append(Candidate, Name);
    Candidates.push_back(Candidate.str().str());
  }
  for (std::string &Candidate : Candidates)
    if (fs::is_regular_file(Candidate))
      return Candidate;
  return std::string();
}

} // namespace

std::vector<std::string> projectIncludeDirectories(const CommandLineArguments &Args) {
  return parseCommand(Args).ProjectDirectories;
}

bool includesTorchHeader(llvm::StringRef File, llvm::ArrayRef<std::string> ProjectDirectories,
                         llvm::StringRef WorkingDirectory) {
  // The file and the program's headers it includes, transitively: most
  // programs include <torch/torch.h> from a header of their own (model.h).
  // A bound keeps a pathological include graph cheap.
  std::vector<std::string> Pending{File.str()};
  llvm::StringSet<> Seen{File};
  for (unsigned Read = 0; !Pending.empty() && Read < 64; ++Read) {
    const std::string Current = Pending.back();
    Pending.pop_back();
    auto Buffer = llvm::MemoryBuffer::getFile(Current);
    if (!Buffer)
      continue;
    // The preprocessor's view of the directives, as clang-scan-deps takes
    // it: comments, string literals and code gone, line continuations
    // joined. A commented-out include is no include.
    std::vector<std::string> Headers;
    if (!compat::includedHeaders((*Buffer)->getBuffer(), Headers))
      continue; // not lexable: the parse will say why
    for (const std::string &Header : Headers) {
      if (Header == "<torch/torch.h>" || Header == "\"torch/torch.h\"")
        return true;
      std::string Found = findProjectHeader(Header, Current, ProjectDirectories, WorkingDirectory);
      if (!Found.empty() && Seen.insert(Found).second)
        Pending.push_back(std::move(Found));
    }
  }
  return false;
}

std::string PchCache::defaultDirectory() {
  llvm::SmallString<256> Dir;
  if (auto Env = llvm::sys::Process::GetEnv("TO_DEVICE_MIGRATE_CACHE"); Env && !Env->empty())
    return *Env;
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    Dir = *Xdg;
  else if (path::home_directory(Dir))
    path::append(Dir, ".cache");
  else
    path::system_temp_directory(/*ErasedOnReboot=*/false, Dir);
  path::append(Dir, "to-device-migrate");
  return Dir.str().str();
}

std::string PchCache::pathFor(const CommandLineArguments &Flags, llvm::StringRef TorchHeader,
                              llvm::StringRef WorkingDirectory) const {
  llvm::MD5 Hash;
  for (llvm::StringRef Part : {llvm::StringRef(TO_DEVICE_MIGRATE_VERSION),
                               llvm::StringRef(TO_DEVICE_CLANG_VERSION),
                               llvm::StringRef(TO_DEVICE_TORCH_VERSION), WorkingDirectory})
    Hash.update(Part), Hash.update(llvm::StringRef("\0", 1));
  for (const std::string &Flag : Flags)
    Hash.update(Flag), Hash.update(llvm::StringRef("\0", 1));
  hashFileStatus(Hash, TorchHeader);
  llvm::SmallString<256> Version(path::parent_path(TorchHeader));
  path::append(Version, "version.h");
  hashFileStatus(Hash, Version);
  llvm::MD5::MD5Result Digest;
  Hash.final(Digest);
  llvm::SmallString<256> Out(Directory);
  path::append(Out, "torch-" + Digest.digest().str().substr(0, 16) + ".pch");
  return Out.str().str();
}

bool PchCache::build(const CommandLineArguments &Flags, llvm::StringRef TorchHeader,
                     llvm::StringRef WorkingDirectory, llvm::StringRef Output) {
  CommandLineArguments Command = Flags;
  Command.insert(Command.end(), {"-fpch-instantiate-templates", "-o", Output.str(), "-x", "c++-header"});
  clang::tooling::FixedCompilationDatabase Database(WorkingDirectory, Command);
  clang::tooling::ClangTool Tool(Database, {TorchHeader.str()},
                                 std::make_shared<clang::PCHContainerOperations>(),
                                 llvm::vfs::createPhysicalFileSystem());
  Tool.clearArgumentsAdjusters(); // no -fsyntax-only, keep -o
  // Counts errors and prints nothing (a failure only means "parse without a
  // PCH"). Counted, so that a header with errors is a failed build: the
  // ignoring consumer counts none, the run reports success, and the output
  // left behind is an empty file that every later parse would be given.
  clang::DiagnosticConsumer Quiet;
  Tool.setDiagnosticConsumer(&Quiet);
  return Tool.run(clang::tooling::newFrontendActionFactory<clang::GeneratePCHAction>().get()) == 0 &&
         fs::exists(Output);
}

namespace {
/// True if the cached PCH `Path` exists; its modification time becomes now,
/// the time of its last use that PchCache::prune() orders by.
bool markUsed(const std::string &Path) {
  uint64_t Size = 0;
  if (fs::file_size(Path, Size) || Size == 0)
    return false; // none, or an empty one (a full disk): built again
  int FD;
  // CD_OpenExisting without OF_Append: never creates the file (a PCH another
  // run just removed), never truncates it.
  if (fs::openFileForWrite(Path, FD, fs::CD_OpenExisting, fs::OF_None))
    return true; // a read-only cache: used as it is
  (void)fs::setLastAccessAndModificationTime(
      FD, std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now()));
  fs::closeFile(FD);
  return true;
}
} // namespace

std::string PchCache::get(const CommandLineArguments &Flags, llvm::StringRef TorchHeader,
                          llvm::StringRef WorkingDirectory) {
  const std::string Path = pathFor(Flags, TorchHeader, WorkingDirectory);
  if (markUsed(Path)) {
    std::call_once(Pruned, [this] { prune(); });
    return Path;
  }
  std::shared_ptr<std::mutex> Builder;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Failed.count(Path))
      return std::string();
    auto &Slot = Building[Path];
    if (!Slot)
      Slot = std::make_shared<std::mutex>();
    Builder = Slot;
  }
  // Files with the same flags wait for one build rather than each making one.
  std::lock_guard<std::mutex> OneBuild(*Builder);
  if (markUsed(Path))
    return Path;
  if (llvm::sys::Process::StandardErrIsDisplayed())
    llvm::errs() << "to-device-migrate: precompiling <torch/torch.h> for these flags, once, into "
                 << Directory << "\n";
  llvm::SmallString<256> Temp;
  bool Built = !fs::create_directories(Directory) &&
               !fs::createUniqueFile(Path + ".%%%%%%.tmp", Temp) &&
               build(Flags, TorchHeader, WorkingDirectory, Temp) &&
               !fs::rename(Temp, Path); // atomic: a reader sees no PCH or a whole one
  if (!Built) {
    if (!Temp.empty())
      fs::remove(Temp);
    // Once per set of flags: every file with them now parses in full.
    llvm::errs() << "to-device-migrate: warning: could not precompile <torch/torch.h> for "
                    "these flags; parsing without it (slower)\n";
    std::lock_guard<std::mutex> Guard(Lock);
    Failed[Path] = true;
    return std::string();
  }
  std::call_once(Pruned, [this] { prune(); });
  return Path;
}

void PchCache::prune() const {
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Cached;
  std::error_code Error;
  for (fs::directory_iterator It(Directory, Error), End; !Error && It != End; It.increment(Error)) {
    llvm::StringRef Name = path::filename(It->path());
    fs::file_status Status;
    if (compat::startsWith(Name, "torch-") && compat::endsWith(Name, ".pch") && !fs::status(It->path(), Status))
      Cached.emplace_back(Status.getLastModificationTime(), It->path());
  }
  if (Cached.size() <= Kept)
    return;
  llvm::sort(Cached, [](const auto &A, const auto &B) { return A.first > B.first; });
  // Never one used in the last hour: another run may have chosen it and not
  // opened it yet, and a test suite's many flags would otherwise rebuild
  // each other's. (A parse that has its PCH open keeps reading it anyway.)
  const auto Recent = std::chrono::system_clock::now() - std::chrono::hours(1);
  for (size_t I = Kept; I < Cached.size(); ++I)
    if (Cached[I].first < Recent)
      fs::remove(Cached[I].second);
}

clang::tooling::ArgumentsAdjuster PchCache::adjuster(std::string WorkingDirectory) {
  return [this, WorkingDirectory](const CommandLineArguments &Args, llvm::StringRef File) {
    if (llvm::is_contained(Args, "-include-pch"))
      return Args;
    ParsedCommand Command = parseCommand(Args);
    if (!includesTorchHeader(absolute(File, WorkingDirectory), Command.ProjectDirectories,
                             WorkingDirectory))
      return Args;
    std::string Header = findTorchHeader(Command.IncludeDirectories, WorkingDirectory);
    if (Header.empty())
      return Args;
    std::string Pch = get(Command.Flags, Header, WorkingDirectory);
    if (Pch.empty())
      return Args;
    CommandLineArguments Out = Args;
    addFlags(Out, {"-include-pch", Pch});
    return Out;
  };
}

} // namespace to_device_migrate
