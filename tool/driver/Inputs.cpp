#include "driver/Inputs.h"
#include "compat/LlvmCompat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace to_device_migrate::driver {

std::vector<const char *> withDefaultSeparator(int Argc, const char **Argv, bool &FlagsAreOurs) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  bool HasSeparator = false, HasDatabase = false, HasExtraFlags = false;
  for (llvm::StringRef A : llvm::ArrayRef<const char *>(Argv, Argc)) {
    HasExtraFlags |= HasSeparator;
    HasSeparator |= A == "--";
    HasDatabase |= A == "-p" || compat::startsWith(A, "-p=") || A == "--p" || compat::startsWith(A, "--p=");
  }
  if (!HasSeparator && !HasDatabase)
    Args.push_back("--");
  FlagsAreOurs = !HasDatabase && !HasExtraFlags;
  return Args;
}

llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> compileDatabaseOfAll() {
  using clang::tooling::CompilationDatabase;
  // -p belongs to CommonOptionsParser, which registers it.
  auto *BuildPath =
      static_cast<llvm::cl::opt<std::string> *>(llvm::cl::getRegisteredOptions().lookup("p"));
  if (!BuildPath || BuildPath->empty())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "needs a compile database: -p <build directory>");
  std::string Why;
  std::unique_ptr<CompilationDatabase> Database =
      CompilationDatabase::autoDetectFromDirectory(*BuildPath, Why);
  if (!Database)
    return llvm::createStringError(std::make_error_code(std::errc::no_such_file_or_directory), Why);
  return clang::tooling::inferTargetAndDriverMode(std::move(Database));
}

std::string inputProblem(const std::string &File, const OutputOptions &Options) {
  namespace fs = llvm::sys::fs;
  if (fs::is_directory(File))
    return "'" + File + "' is a directory, not a source file";
  if (!fs::exists(File))
    return "no such file or directory: '" + File + "'";
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return "cannot read '" + File + "': " + Buffer.getError().message();
  // An empty file is a translation unit too (a placeholder a build compiles):
  // like a file without LibTorch code, it comes out as it is.
  llvm::StringRef Text = (*Buffer)->getBuffer();
  if (size_t Nul = Text.take_front(1 << 16).find('\0'); Nul != llvm::StringRef::npos)
    return "'" + File + "' is not a source file: it holds binary data (a NUL byte at offset " +
           std::to_string(Nul) + ")";
  if (Options.InPlace) {
    // Checked on the mode bits, not access(): root may write anything, but a
    // file someone made read-only is not meant to be rewritten.
    llvm::ErrorOr<fs::perms> Perms = fs::getPermissions(File);
    if (Perms && (*Perms & fs::all_write) == 0)
      return "'" + File + "' is read-only: not rewritten in place (make it writable, or use -o)";
  }
  return std::string();
}

std::string conflictingOptions(const OutputOptions &O, size_t FileCount) {
  const bool WritesFile = O.InPlace || !O.OutputFile.empty();
  if (O.InPlace && !O.OutputFile.empty())
    return "-i and -o cannot be used together";
  if (!O.OutRoot.empty() && WritesFile)
    return "--out-root cannot be used with -i or -o";
  if ((O.Diff || O.Check) && (WritesFile || !O.OutRoot.empty()))
    return std::string(O.Diff ? "--diff" : "--check") + " writes no file: not with -i or -o";
  if (O.Diff && O.Check)
    return "--diff and --check cannot be used together";
  if (!O.OutputFile.empty() && FileCount > 1)
    return "-o takes one input file, " + std::to_string(FileCount) + " were given";
  if (!O.OutputFile.empty() && !O.HeaderFilter.empty())
    return "-o writes one file: use -i, --out-root or --diff with --header-filter";
  return std::string();
}

} // namespace to_device_migrate::driver
