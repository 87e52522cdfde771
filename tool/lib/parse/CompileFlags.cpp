#include "parse/CompileFlags.h"
#include "Config.h"
#include "parse/PchCache.h"
#include "compat/LlvmCompat.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace to_device_migrate {

void addFlags(clang::tooling::CommandLineArguments &Command,
              std::initializer_list<std::string> Flags) {
  Command.insert(llvm::find(Command, "--"), Flags);
}

namespace {

/// The C++ standard a LibTorch's headers require: the N of their own
/// "#error C++N or later compatible compiler is required" (torch/all.h,
/// c10/macros/Macros.h), at least 17. `TorchHeader` is its torch/torch.h.
std::string requiredStandard(llvm::StringRef TorchHeader) {
  if (TorchHeader == std::string(TO_DEVICE_TORCH_API_INCLUDE) + "/torch/torch.h")
    return TO_DEVICE_CXX_STANDARD; // read at build time
  namespace path = llvm::sys::path;
  llvm::StringRef Api = path::parent_path(path::parent_path(TorchHeader)); // .../csrc/api/include
  llvm::SmallString<256> AllHeader(Api), Macros(Api);
  path::append(AllHeader, "torch", "all.h");
  path::append(Macros, "..", "..", "..", "..");
  path::append(Macros, "c10", "macros", "Macros.h");
  unsigned Standard = 17;
  static const llvm::Regex Required("C\\+\\+([0-9]+) or later compatible compiler");
  for (llvm::StringRef Header : {AllHeader.str(), Macros.str()}) {
    auto Buffer = llvm::MemoryBuffer::getFile(Header);
    llvm::SmallVector<llvm::StringRef, 2> Match;
    unsigned N = 0;
    if (Buffer && Required.match((*Buffer)->getBuffer(), &Match) && !Match[1].getAsInteger(10, N))
      Standard = std::max(Standard, N);
  }
  return "c++" + std::to_string(Standard);
}

} // namespace

clang::tooling::ArgumentsAdjuster defaultFlags(DefaultFlags Options) {
  return [Options](const clang::tooling::CommandLineArguments &Args, llvm::StringRef File) {
    clang::tooling::CommandLineArguments Out = Args;
    // The user's LibTorch when the command names its headers (a compile
    // database), else the one the tool was built with.
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    std::string TorchHeader = torchHeaderOf(Args, Cwd);
    if (TorchHeader.empty()) {
      addFlags(Out, {"-isystem", TO_DEVICE_TORCH_API_INCLUDE});
      TorchHeader = std::string(TO_DEVICE_TORCH_API_INCLUDE) + "/torch/torch.h";
    }
    // The standard that LibTorch requires, unless the command sets one.
    if (!llvm::any_of(Args, [](llvm::StringRef A) { return compat::startsWith(A, "-std="); }))
      addFlags(Out, {"-std=" + requiredStandard(TorchHeader)});
    if (!Options.RuntimeInclude.empty())
      addFlags(Out, {"-isystem", Options.RuntimeInclude});
    addFlags(Out, {"-resource-dir=" + Options.ResourceDir, "-w", "-Qunused-arguments"});
    // The build's PCH was made with the build tree's flags: an installed tool
    // (other runtime path) uses the cache instead.
    if (Options.CommandLineIsOurs && Options.RuntimeInclude == TO_DEVICE_RUNTIME_INCLUDE &&
        !Options.PrebuiltPch.empty() &&
        llvm::sys::fs::exists(Options.PrebuiltPch) &&
        includesTorchHeader(File, projectIncludeDirectories(Args), Cwd))
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
