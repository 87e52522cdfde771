#include "CompileFlags.h"
#include "Config.h"
#include "PchCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace to_device_migrate {

void addFlags(clang::tooling::CommandLineArguments &Command,
              std::initializer_list<std::string> Flags) {
  Command.insert(llvm::find(Command, "--"), Flags);
}

clang::tooling::ArgumentsAdjuster defaultFlags(DefaultFlags Options) {
  return [Options](const clang::tooling::CommandLineArguments &Args, llvm::StringRef File) {
    clang::tooling::CommandLineArguments Out = Args;
    if (!llvm::any_of(Args, [](llvm::StringRef A) { return A.startswith("-std="); }))
      addFlags(Out, {"-std=c++17"});
    addFlags(Out, {"-isystem", TO_DEVICE_TORCH_API_INCLUDE});
    if (!Options.RuntimeInclude.empty())
      addFlags(Out, {"-isystem", Options.RuntimeInclude});
    addFlags(Out, {"-resource-dir=" + Options.ResourceDir, "-w", "-Qunused-arguments"});
    // The build's PCH was made with the build tree's flags: an installed tool
    // (other runtime path) uses the cache instead.
    if (Options.CommandLineIsOurs && Options.RuntimeInclude == TO_DEVICE_RUNTIME_INCLUDE &&
        !Options.PrebuiltPch.empty() &&
        llvm::sys::fs::exists(Options.PrebuiltPch) && includesTorchHeader(File))
      addFlags(Out, {"-include-pch", Options.PrebuiltPch});
    return Out;
  };
}

std::string runtimeIncludeDir(const char *Argv0) {
  static int Anchor;
  llvm::SmallString<256> Installed(llvm::sys::fs::getMainExecutable(Argv0, &Anchor));
  llvm::sys::path::remove_filename(Installed); // bin
  llvm::sys::path::remove_filename(Installed); // the prefix
  llvm::sys::path::append(Installed, "include");
  llvm::SmallString<256> Header(Installed);
  llvm::sys::path::append(Header, "todevice", "todevice.h");
  if (!llvm::sys::fs::exists(Header))
    return TO_DEVICE_RUNTIME_INCLUDE;
  // Already searched by default; naming it with -isystem would reorder it
  // before the C++ library's headers and break their #include_next.
  if (Installed == "/usr/include" || Installed == "/usr/local/include")
    return std::string();
  return Installed.str().str();
}

} // namespace to_device_migrate
