// Facts about the whole parse, computed once before any file of it is
// migrated: a question about where a function's code runs may need another
// file's code (a data set in one header calls a helper of another; main.cpp
// receives what an environment's header builds), while each file's rules run
// with only that file in the AST's traversal scope.
#pragma once

#include "facts/PerSampleCode.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace to_device_migrate {

class ParseFacts {
public:
  /// `Decls`: the top-level declarations of every migrated file (`Files`); the
  /// AST's traversal scope must be `Decls` while the facts are computed.
  ParseFacts(clang::ASTContext &Ast, llvm::ArrayRef<clang::Decl *> Decls,
             const llvm::DenseSet<clang::FileID> &Files);

  const PerSampleCode &perSample() const { return PerSample; }
  /// True if `F` (defined in a migrated file) returns a tensor its own host
  /// code built and wrote (HostWrites.h): what it returns is on the CPU.
  bool returnsHostBuiltTensor(const clang::FunctionDecl &F) const {
    return ReturnsHostBuilt.count(F.getCanonicalDecl());
  }

  /// The values the migrated files give tensor options that outlive a call
  /// (a global or static member, a class member, what a function returns):
  /// initialisers, assignments and return values. Empty when none is seen
  /// (the options are set in a file this run does not parse).
  llvm::ArrayRef<const clang::Expr *> optionsValues(const clang::Decl &D) const {
    auto Found = OptionsValues.find(D.getCanonicalDecl());
    return Found == OptionsValues.end() ? llvm::ArrayRef<const clang::Expr *>() : Found->second;
  }

private:
  PerSampleCode PerSample;
  llvm::DenseSet<const clang::FunctionDecl *> ReturnsHostBuilt;
  llvm::DenseMap<const clang::Decl *, llvm::SmallVector<const clang::Expr *, 2>> OptionsValues;
};

} // namespace to_device_migrate
