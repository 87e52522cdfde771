// --header-filter: the user's own headers, migrated like clang-tidy fixes them.
//
// A header is migrated as a main file of its own, parsed with the compile
// command of the first input that included it (as C++), so every rule works
// on it unchanged. That needs the header to be self-contained (to include
// what it uses), as clangd and include-what-you-use expect too; one that is
// not fails to parse and is left untouched, like any file that does not parse.
#pragma once

#include "FileOutcome.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <string>
#include <vector>

namespace to_device_migrate {

/// True for headers the tool never rewrites whatever the filter says:
/// LibTorch's (ATen, c10, torch/csrc, caffe2), the todevice runtime's, and
/// anything under /usr/include, /usr/lib or /usr/local/cuda — even when a
/// compile command names their directories with -I instead of -isystem.
bool isLibraryHeader(llvm::StringRef Path);

/// The prefix of the names the tool declares at namespace scope in `Header`
/// (MigrationOptions::HeaderPrefix): its file name as an identifier, `model`
/// for include/model.h.
std::string headerPrefix(llvm::StringRef Header);

/// The headers to migrate after `Inputs`, in the order they were first
/// included: user (non-system) files whose absolute path `Filter` matches,
/// that are not library headers nor inputs themselves. Maps each to the input
/// that included it first.
std::vector<std::pair<std::string, std::string>>
headersToMigrate(llvm::ArrayRef<FileOutcome> Inputs, const llvm::Regex &Filter);

/// Compile commands for headers: the command of the input that included the
/// header, transferred to it (tooling::transferCompileCommand: `-x c++-header`, so a `.h` is not taken for C).
class HeaderCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  HeaderCompilationDatabase(const clang::tooling::CompilationDatabase &Inputs,
                            const std::vector<std::pair<std::string, std::string>> &Headers);

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;

private:
  std::map<std::string, clang::tooling::CompileCommand> Commands;
};

} // namespace to_device_migrate
