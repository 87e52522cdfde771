// Facts about the whole parse, computed once before any file of it is
// migrated: a question about where a function's code runs may need another
// file's code (a data set in one header calls a helper of another; main.cpp
// receives what an environment's header builds), while each file's rules run
// with only that file in the AST's traversal scope.
#pragma once

#include "facts/ModuleInventory.h"
#include "facts/PerSampleCode.h"
#include "facts/PlacementFlow.h"
#include "facts/ProgramSummary.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>

namespace to_device_migrate {

class ParseFacts {
public:
  /// `Decls`: the top-level declarations of every migrated file (`Files`); the
  /// AST's traversal scope must be `Decls` while the facts are computed.
  /// `Program`: the whole program's summary (the run's first pass); null when
  /// this parse is the whole program, whose summary is then made from it.
  ParseFacts(clang::ASTContext &Ast, llvm::ArrayRef<clang::Decl *> Decls,
             const llvm::DenseSet<clang::FileID> &Files,
             std::shared_ptr<const ProgramSummary> Program);

  /// What this parse tells the rest of the run (the first pass writes it).
  /// `Flow`: the parse's placement analysis, when made already.
  static TranslationUnitSummary summarize(clang::ASTContext &Ast,
                                          llvm::ArrayRef<clang::Decl *> Decls,
                                          const llvm::DenseSet<clang::FileID> &Files,
                                          const PlacementFlow *Flow = nullptr);

  const PerSampleCode &perSample() const { return PerSample; }
  /// Where each tensor of the migrated files is needed (PlacementFlow.h).
  const PlacementFlow &placement() const { return *Flow; }
  /// Every store into a module object in the migrated files (ModuleInventory.h).
  llvm::ArrayRef<ModuleStore> moduleStores() const { return ModuleStores; }
  const ProgramSummary &program() const { return *Program; }
  /// The USR of `D`, computed once (ProgramSummary.h).
  std::string usr(const clang::Decl *D) const;

  /// True if `F`'s body is in a file this run migrates, in any of its
  /// translation units.
  bool isDefinedInProgram(const clang::FunctionDecl &F) const { return Program->defines(usr(&F)); }
  /// True if `F` returns a tensor its own host code built and wrote
  /// (HostWrites.h): what it returns is on the CPU.
  bool returnsHostBuiltTensor(const clang::FunctionDecl &F) const {
    return Program->returnsHostBuiltTensor(usr(&F));
  }
  /// True if every call of the program hands `Param` host data, which its
  /// function only reads (ProgramSummary::receivesHostData()).
  bool receivesHostData(const clang::ParmVarDecl &Param) const;
  /// The same, for parameter `Index` of `Callee` (HostWrites.h, HandedTo).
  bool receivesHostData(const clang::FunctionDecl &Callee, unsigned Index) const {
    return Program->receivesHostData(usr(&Callee), Index);
  }
  /// True if the program gives the device parameter or member `Device`
  /// only the CPU (ProgramSummary::isCpuOnlyParameter(), isCpuOnlyMember()).
  bool isCpuOnlyDevice(const clang::ValueDecl &Device) const;
  /// True if the tensor member `Field` is built and filled on the host, in
  /// whatever files its class's functions are (ProgramSummary::isHostBuiltField()).
  bool isHostBuiltField(const clang::FieldDecl &Field) const {
    return Program->isHostBuiltField(usr(&Field));
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
  std::shared_ptr<const ProgramSummary> Program;
  mutable llvm::DenseMap<const clang::Decl *, std::string> Usrs;
  PerSampleCode PerSample;
  std::unique_ptr<PlacementFlow> Flow; ///< made after Program and PerSample, which it asks
  std::vector<ModuleStore> ModuleStores;
  llvm::DenseMap<const clang::Decl *, llvm::SmallVector<const clang::Expr *, 2>> OptionsValues;
};

} // namespace to_device_migrate
