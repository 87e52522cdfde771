// Shared by model-placement and loss-placement: every module the program
// creates is moved to the device where it is complete — after the statement
// that stores it into an object of the module inventory
// (facts/ModuleInventory.h) and the host-side initialisation that follows,
// before its first use and before any thread that may use it starts.
#pragma once

#include "engine/MigrationContext.h"
#include "engine/Rule.h"
#include "facts/ModuleInventory.h"
#include "facts/TorchTypes.h"

namespace to_device_migrate {

class ModuleVariableRule;

/// What an earlier store's move already follows: a module's initialisation,
/// from the store to the statement after which it is moved. A checkpoint
/// loaded there (`net = Net(); if (p) torch::load(net, p);`) needs no move of
/// its own.
struct InitialisedRange {
  ModuleAccess Access;
  clang::SourceRange Range;
};

/// Places one store of the inventory (StorePlacement.cpp): `net = Net(cfg);`
/// -> `net = Net(cfg); net->to(device);`, after the checkpoint loaded into it
/// or the weights copied into it if they follow; a member of a module that its
/// parent did not register is moved where it is built (Module::to() would
/// not reach it). A store that cannot be placed is reported. `Initialised`
/// holds the ranges of the file's earlier stores, and gets this one's.
void placeStore(MigrationContext &Ctx, const ModuleStore &Store, const ModuleVariableRule &Rule,
                std::vector<InitialisedRange> &Initialised);

/// Moves the module members of a plain (non-module) struct variable right
/// after it exists: `Holder h;` -> `Holder h; h.proj->to(device);` — those
/// that exist with the object and that no constructor of its class in the
/// program builds (see placeMembersInConstructor).
void placeModuleMembers(MigrationContext &Ctx, const clang::VarDecl &Var,
                        const ModuleVariableRule &Rule);

/// Moves the module members a constructor builds (in its initialiser list, by
/// their in-class initialisers, or by value) at the start of its body, after
/// the host-side initialisation that follows (ConstructorPlacement.cpp): in
/// a plain class, and, for the members its parent does not register, in a
/// module.
void placeMembersInConstructor(MigrationContext &Ctx, const clang::CXXConstructorDecl &Ctor,
                               const ModuleVariableRule &Rule);

/// Moves a module back to the device right after the program pins it to the
/// CPU (`net->to(torch::kCPU)`, `Pin`) when the statements after the pin in
/// its block run it (PinPlacement.cpp).
void placeAfterPin(MigrationContext &Ctx, const clang::CXXMemberCallExpr &Pin,
                   const ModuleVariableRule &Rule);

/// Base of model-placement and loss-placement: places the inventory's stores,
/// plain struct variables and constructors of the file, for the modules whose
/// class the subclass handles().
class ModuleVariableRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfFile() override;

  /// Whether this rule places modules of `ModuleClass` (models or losses);
  /// null for a module whose class is not known (an AnyModule, TorchScript).
  virtual bool handles(const clang::CXXRecordDecl *ModuleClass) const = 0;
  /// handles(), and code outside the class can call its `to()`
  /// (exposesModuleInterface()).
  bool moves(const clang::CXXRecordDecl *ModuleClass) const {
    return handles(ModuleClass) && exposesModuleInterface(ModuleClass);
  }
};

} // namespace to_device_migrate
