#include "run/ParseSetup.h"
#include "compat/LlvmCompat.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace to_device_migrate {

std::string workingDirectory(const clang::tooling::CompilationDatabase &Database,
                             llvm::StringRef File) {
  std::vector<clang::tooling::CompileCommand> Commands = Database.getCompileCommands(File);
  llvm::SmallString<256> Directory;
  llvm::sys::fs::current_path(Directory);
  if (!Commands.empty() && !Commands.front().Directory.empty()) {
    llvm::SmallString<256> Given(Commands.front().Directory);
    compat::makeAbsolute(Directory, Given);
    llvm::sys::path::remove_dots(Given, /*remove_dot_dot=*/true);
    Directory = Given;
  }
  return Directory.str().str();
}

std::vector<clang::tooling::ArgumentsAdjuster> parseFlags(const RunOptions &Options,
                                                          const std::string &Directory) {
  std::vector<clang::tooling::ArgumentsAdjuster> Flags = {Options.Flags};
  if (Options.Cache)
    Flags.push_back(Options.Cache->adjuster(Directory));
  return Flags;
}

std::unique_ptr<clang::tooling::ClangTool>
toolFor(const clang::tooling::CompilationDatabase &Database, const std::string &File,
        llvm::ArrayRef<clang::tooling::ArgumentsAdjuster> Flags) {
  auto Tool = std::make_unique<clang::tooling::ClangTool>(
      Database, std::vector<std::string>{File}, std::make_shared<clang::PCHContainerOperations>(),
      llvm::vfs::createPhysicalFileSystem());
  for (const clang::tooling::ArgumentsAdjuster &Adjuster : Flags)
    Tool->appendArgumentsAdjuster(Adjuster);
  return Tool;
}

void forEachInParallel(size_t Count, unsigned Jobs, llvm::function_ref<void(size_t)> Work) {
  const unsigned Threads = std::min<size_t>(
      Jobs ? Jobs : llvm::hardware_concurrency().compute_thread_count(), Count);
  if (Threads <= 1) {
    for (size_t I = 0; I < Count; ++I)
      Work(I);
    return;
  }
  compat::ThreadPool Pool(llvm::hardware_concurrency(Threads));
  for (size_t I = 0; I < Count; ++I)
    Pool.async([&Work, I] { Work(I); });
  Pool.wait();
}

} // namespace to_device_migrate
