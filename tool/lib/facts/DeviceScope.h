// Finding a device variable the code already has, and a fresh name for one it
// does not.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace to_device_migrate {

/// What the main file declares, collected in one traversal per file: rules ask
/// at every site, and walking the whole file each time would cost
/// O(sites x file).
class FileScope {
public:
  explicit FileScope(clang::ASTContext &Ctx);

  /// The closest `torch::Device` variable visible at `Site` and declared before
  /// it: a local of an enclosing block, a parameter of the enclosing function
  /// (or of a capturing lambda's function), or a namespace-scope variable of
  /// the main file. Null if there is none.
  const clang::VarDecl *findDeviceVariable(const clang::DynTypedNode &Site,
                                           clang::SourceLocation SiteLoc) const;

  /// `Preferred` if no declaration, macro or using-directive of the main file,
  /// nor a name returned before, could collide with a new variable of that
  /// name; else the first free one of `Fallback`, `Fallback_1`, ... The name is
  /// remembered as taken.
  std::string freshName(llvm::StringRef Preferred, llvm::StringRef Fallback);

private:
  bool isFree(llvm::StringRef Name) const;

  clang::ASTContext &Ctx;
  std::vector<const clang::VarDecl *> GlobalDevices; ///< in source order
  llvm::StringSet<> Names;                            ///< declared or introduced
  std::vector<const clang::NamespaceDecl *> Nominated; ///< by using-directives
};

} // namespace to_device_migrate
