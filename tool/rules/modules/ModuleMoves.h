// What model-placement and loss-placement share about moving a module: how a
// module is reached (a variable, a member path), whether it is moved already,
// the statements that move it, and which members of a plain class are
// modules to move. Used by ModulePlacement.cpp (variables, where they are
// declared) and ConstructorPlacement.cpp (members, in their class's constructor).
#pragma once

#include "engine/MigrationContext.h"
#include "facts/TorchTypes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace to_device_migrate {

class ModuleVariableRule;

/// A module reached from a variable (`net`), a member of a plain struct it
/// holds (`h.proj`, `h.inner.net`), or, inside a member function, a member of
/// `this` (Var null: `proj`, `inner.net`).
struct ModuleAccess {
  const clang::VarDecl *Var = nullptr;
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
  bool operator==(const ModuleAccess &Other) const {
    return Var == Other.Var && Fields.size() == Other.Fields.size() &&
           std::equal(Fields.begin(), Fields.end(), Other.Fields.begin(),
                      [](const clang::FieldDecl *A, const clang::FieldDecl *B) {
                        // A template's member and an instantiation's are one member.
                        return A->getName() == B->getName();
                      });
  }
  bool empty() const { return !Var && Fields.empty(); }
  std::string spelling() const;
};

/// `net` in `net->f(...)`, `net.f(...)`, `(*net).f(...)`, `h.proj->f(...)`,
/// `this->proj->f(...)`: the module a call is made on (empty if none).
ModuleAccess calledOn(const clang::Expr *Object);

/// True if `Module->to(<not the CPU>)` is called anywhere below `Roots`.
bool isMovedWithin(const ModuleAccess &Module, llvm::ArrayRef<clang::Decl *> Roots);

/// A module to move and how it is held.
struct ModuleToMove {
  ModuleAccess Access;
  ModuleHandle Handle;
  bool IsLoss = false;
};

/// `\n<Indent>net->to(device);` for each module; with --distributed, models
/// (not losses) then get rank 0's parameters:
/// `todevice::distributed::broadcast_parameters(*net);`.
std::string moveStatements(MigrationContext &Ctx, llvm::ArrayRef<ModuleToMove> Modules,
                           llvm::StringRef Device, llvm::StringRef Indent);

/// A plain (non-module) class of the user's, not a library's nor a dataset.
bool isUserRecord(const clang::CXXRecordDecl *Record);

/// The constructors of `Record` (of its template, for an instantiation) that
/// build its members and move them (ConstructorPlacement.cpp): user-written,
/// not copy or move, not delegating, with a body in a file this run migrates.
std::vector<const clang::CXXConstructorDecl *>
buildingConstructors(MigrationContext &Ctx, const clang::CXXRecordDecl &Record);

/// The module members of a plain class (and of plain classes it holds by
/// value) that `Rule` places, below `Path`. Members of a class whose
/// constructors build them are left to those constructors, unless
/// `InConstructorOf` is that class. A member that may be empty when the
/// object is created is reported instead.
void collectModuleMembers(MigrationContext &Ctx, const clang::CXXRecordDecl &Record,
                          const ModuleAccess &Path, const ModuleVariableRule &Rule,
                          std::vector<ModuleToMove> &Out,
                          const clang::CXXRecordDecl *InConstructorOf = nullptr);

} // namespace to_device_migrate
