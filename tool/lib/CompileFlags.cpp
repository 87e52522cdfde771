#include "CompileFlags.h"
#include "Config.h"
#include "PchCache.h"

#include "llvm/Support/FileSystem.h"

namespace todevice {

clang::tooling::ArgumentsAdjuster defaultFlags(DefaultFlags Options) {
  return [Options](const clang::tooling::CommandLineArguments &Args, llvm::StringRef File) {
    clang::tooling::CommandLineArguments Out = Args;
    if (!llvm::any_of(Args, [](llvm::StringRef A) { return A.startswith("-std="); }))
      Out.push_back("-std=c++17");
    Out.insert(Out.end(), {"-isystem", TO_DEVICE_TORCH_API_INCLUDE, "-isystem",
                           TO_DEVICE_RUNTIME_INCLUDE, "-resource-dir=" + Options.ResourceDir,
                           "-w", "-Qunused-arguments"});
    if (Options.CommandLineIsOurs && !Options.PrebuiltPch.empty() &&
        llvm::sys::fs::exists(Options.PrebuiltPch) && includesTorchHeader(File))
      Out.insert(Out.end(), {"-include-pch", Options.PrebuiltPch});
    return Out;
  };
}

} // namespace todevice
