// Shared by model-placement and loss-placement: move a module variable to the
// device once, right after it exists.
#pragma once

#include "engine/MigrationContext.h"
#include "engine/Rule.h"
#include "facts/TorchTypes.h"

namespace to_device_migrate {

class ModuleVariableRule;

/// Records `var->to(device);` (or `var.to(device);`) after the declaration of
/// `Var` — after a following `torch::load(var, ...)` if there is one — unless
/// the module is built inside another module, is empty, aliases another
/// variable, or is already moved somewhere in its function.
void placeModuleVariable(MigrationContext &Ctx, const clang::VarDecl &Var, const ModuleType &Type,
                         const ModuleVariableRule &Rule);

/// Moves the module members of a plain (non-module) struct variable right
/// after it exists: `Holder h;` -> `Holder h; h.proj->to(device);` — those
/// its class's constructors do not build (see placeMembersInConstructor).
void placeModuleMembers(MigrationContext &Ctx, const clang::VarDecl &Var,
                        const ModuleVariableRule &Rule);

/// Moves a module made with new right after the statement that stores it:
/// `model = new Model(n);` -> `... (*model)->to(device);` (a holder) or
/// `net->to(device);` (a module class).
void placeNewModule(MigrationContext &Ctx, const clang::CXXNewExpr &New,
                    const ModuleVariableRule &Rule);

/// Moves the module members a plain class's constructor builds at the end of
/// that constructor (ConstructorPlacement.cpp).
void placeMembersInConstructor(MigrationContext &Ctx, const clang::CXXConstructorDecl &Ctor,
                               const ModuleVariableRule &Rule);

/// Base of model-placement and loss-placement: matches module variables of the
/// main file and places those whose module class the subclass handles().
class ModuleVariableRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  /// Whether this rule places modules of `ModuleClass` (models or losses).
  virtual bool handles(const clang::CXXRecordDecl &ModuleClass) const = 0;
};

} // namespace to_device_migrate
