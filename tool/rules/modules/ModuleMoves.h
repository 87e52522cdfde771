// What model-placement and loss-placement share about moving a module: the
// statements that move one (by how it is held: a handle, a pointer, a
// container of them), whether the program moves it already, where its
// host-side initialisation ends, and which members of a plain class its
// constructors build. Used by StorePlacement.cpp (each store of the module
// inventory), ConstructorPlacement.cpp (members a constructor builds) and
// ModulePlacement.cpp (the rules, and plain structs created by code).
#pragma once

#include "engine/MigrationContext.h"
#include "facts/ModuleInventory.h"
#include "facts/TorchTypes.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace to_device_migrate {

class ModuleVariableRule;

/// A module object to move, as code reaches it where the move goes.
struct ModuleToMove {
  std::string Object; ///< `net`, `agent.net`, `layers`, `this->heads`
  ModuleSlotType Type;
  bool IsLoss = false;
  /// For an array made with `new Net[n]`: its length (`n`).
  std::string ArrayLength;
};

/// `\n<Indent>net->to(device);` for each module (a loop over a container or
/// an array); with --distributed, models (not losses) then get rank 0's
/// parameters: `todevice::distributed::broadcast_parameters(*net);`.
std::string moveStatements(MigrationContext &Ctx, llvm::ArrayRef<ModuleToMove> Modules,
                           llvm::StringRef Device, llvm::StringRef Indent);

/// True if `Module` — reached as `Access`, or, when that is empty, through an
/// expression spelled `Spelling` — is moved to a device (`->to(device)`, or a
/// loop over it that moves each element) in `Root`, after `After` when it is
/// valid.
bool isMovedIn(MigrationContext &Ctx, const clang::Stmt *Root, const ModuleAccess &Access,
               llvm::StringRef Spelling, clang::SourceLocation After = clang::SourceLocation());

/// The last statement of `Block` from `Anchor` on (from its start when `Anchor`
/// is null) that belongs before the move of `Module`: `Anchor`, then the
/// statements after it that only initialise
/// the module on the host (a checkpoint loaded into it, a copy into its
/// parameters, a replaced head, layers appended, a call of a function that
/// does one of these, a pin to the CPU that a use follows), skipping
/// statements that do not touch it, and stopping at its first use, at a
/// statement that may use it through its owner, and at a thread started.
const clang::Stmt *endOfInitialisation(MigrationContext &Ctx, const clang::CompoundStmt &Block,
                                       const clang::Stmt *Anchor, const ModuleAccess &Module);

/// What the program's functions do with a module handed to them (the
/// program's summary, the placement analysis), for endOfInitialisation().
ModuleCallFacts moduleCallFacts(MigrationContext &Ctx);

/// A plain (non-module) class of the user's, not a library's nor a dataset.
bool isUserRecord(const clang::CXXRecordDecl *Record);

/// The constructors of `Record` (of its template, for an instantiation) that
/// build its members and move them (ConstructorPlacement.cpp): user-written,
/// not copy or move, not delegating, with a body in this translation unit in a
/// file this run migrates.
std::vector<const clang::CXXConstructorDecl *>
buildingConstructors(MigrationContext &Ctx, const clang::CXXRecordDecl &Record);

/// True if a constructor of `Record` that the user wrote is defined in the
/// program, in this translation unit or another of the run: it moves what it builds.
bool isConstructedInProgram(MigrationContext &Ctx, const clang::CXXRecordDecl &Record);

/// A module member of a plain class, reached below a variable or `this`.
struct ModuleMember {
  ModuleAccess Access;
  ModuleSlotType Type;
};

/// The module members of a plain class (and of plain classes it holds by
/// value) that `Rule` places and that exist as soon as the object does, below
/// `Path`. Members of a class whose constructors build them are left to those
/// constructors, unless `InConstructorOf` is that class. A member that starts
/// empty is left to where the program assigns it (StorePlacement.cpp).
void collectModuleMembers(MigrationContext &Ctx, const clang::CXXRecordDecl &Record,
                          const ModuleAccess &Path, const ModuleVariableRule &Rule,
                          std::vector<ModuleMember> &Out,
                          const clang::CXXRecordDecl *InConstructorOf = nullptr);

/// Moves `Members` of the global `Var` (the variable itself, or members of a
/// plain struct it is) at the start of main(), those not moved there already;
/// a warning when there is no main() after it in the file.
void placeGlobal(MigrationContext &Ctx, const clang::VarDecl &Var,
                 llvm::ArrayRef<ModuleMember> Members, const ModuleVariableRule &Rule);

} // namespace to_device_migrate
