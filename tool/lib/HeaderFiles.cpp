#include "HeaderFiles.h"
#include "compat/LlvmCompat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace to_device_migrate {

bool isLibraryHeader(llvm::StringRef Path) {
  for (llvm::StringRef Root : {"/usr/include/", "/usr/lib/", "/usr/local/cuda"})
    if (compat::startsWith(Path, Root))
      return true;
  for (llvm::StringRef Component : {"/ATen/", "/c10/", "/torch/csrc/", "/caffe2/", "/include/todevice/"})
    if (Path.contains(Component))
      return true;
  return false;
}

std::string headerPrefix(llvm::StringRef Header) {
  std::string Prefix = llvm::sys::path::stem(Header).str();
  for (char &C : Prefix)
    if (!llvm::isAlnum(C))
      C = '_';
  if (Prefix.empty() || llvm::isDigit(Prefix.front()))
    Prefix.insert(0, "header_");
  return Prefix;
}

std::vector<std::pair<std::string, std::string>>
headersToMigrate(llvm::ArrayRef<FileOutcome> Inputs, const llvm::Regex &Filter) {
  llvm::StringSet<> Seen;
  for (const FileOutcome &Input : Inputs)
    if (Input.Result)
      Seen.insert(Input.Result->Path);
  std::vector<std::pair<std::string, std::string>> Headers;
  for (const FileOutcome &Input : Inputs) {
    if (!Input.Result)
      continue;
    for (const std::string &Header : Input.Result->UserIncludes)
      if (!isLibraryHeader(Header) && Filter.match(Header) && Seen.insert(Header).second)
        Headers.emplace_back(Header, Input.Input);
  }
  return Headers;
}

HeaderCompilationDatabase::HeaderCompilationDatabase(
    const clang::tooling::CompilationDatabase &Inputs,
    const std::vector<std::pair<std::string, std::string>> &Headers) {
  for (const auto &[Header, Includer] : Headers) {
    std::vector<clang::tooling::CompileCommand> Found = Inputs.getCompileCommands(Includer);
    if (Found.empty())
      continue;
    // The includer's flags for the header, as clangd transfers them: the
    // header as the file, and `-x c++-header` so a `.h` is not taken for C.
    clang::tooling::CompileCommand Command =
        clang::tooling::transferCompileCommand(Found.front(), Header);
    Commands.emplace(Header, std::move(Command));
  }
}

std::vector<clang::tooling::CompileCommand>
HeaderCompilationDatabase::getCompileCommands(llvm::StringRef FilePath) const {
  auto Found = Commands.find(FilePath.str());
  if (Found == Commands.end())
    return {};
  return {Found->second};
}

} // namespace to_device_migrate
