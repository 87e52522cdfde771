// The registry plan of one file (--mode=registry): the variables registered
// with a todevice::Registry instead of rewriting their sites. The registry
// step (finish/) writes the registry code for them at the end.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace to_device_migrate {

class MigrationContext;

/// A variable the registry mode registers instead of rewriting its site.
struct Registration {
  const clang::VarDecl *Var = nullptr;
  const clang::DeclStmt *Declaration = nullptr;
  const clang::CompoundStmt *FunctionBody = nullptr;
};

class RegistryPlan {
public:
  explicit RegistryPlan(MigrationContext &Ctx) : Ctx(Ctx) {}
  void reset() { Registrations.clear(); }

  /// In registry mode, takes over placing `Var` when it is declared directly in
  /// a function's body (the registry lives as long as the function's variables):
  /// returns true, and the calling rule records no edit of its own.
  bool registerInstead(const clang::VarDecl &Var);
  /// Same, for a call that is the whole initialiser of a variable.
  bool registerInstead(const clang::Expr &Initializer);
  const std::vector<Registration> &registrations() const { return Registrations; }

private:
  MigrationContext &Ctx;
  std::vector<Registration> Registrations;
};

} // namespace to_device_migrate
