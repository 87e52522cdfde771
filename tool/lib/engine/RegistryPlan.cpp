#include "engine/RegistryPlan.h"
#include "engine/MigrationContext.h"
#include "facts/HostWrites.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace to_device_migrate {

namespace {

/// Finds `<registry>.add(..., var, ...)` on a todevice::Registry.
class RegistrationFinder : public RecursiveASTVisitor<RegistrationFinder> {
public:
  explicit RegistrationFinder(const VarDecl &Var) : Var(Var) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method || !Method->getIdentifier() || Method->getName() != "add" ||
        !isNamed(Method->getParent(), "todevice::Registry"))
      return true;
    for (const Expr *Arg : Call->arguments())
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
        Found |= Ref->getDecl() == &Var;
    return !Found;
  }
  bool Found = false;

private:
  const VarDecl &Var;
};

} // namespace

bool RegistryPlan::registerInstead(const VarDecl &Var) {
  if (!Ctx.options().RegistryMode || !Var.hasLocalStorage() || Var.getType()->isReferenceType())
    return false;
  for (const Registration &R : Registrations)
    if (R.Var == &Var)
      return true;
  auto [Declaration, Body] = Ctx.declarationInBlock(Var);
  if (!Body)
    return false;
  DynTypedNodeList Owner = Ctx.ast().getParents(*Body);
  const auto *Function = Owner.empty() ? nullptr : Owner[0].get<FunctionDecl>();
  if (!Function || Function->getBody() != Body || !Ctx.isWrittenInFile(Declaration->getSourceRange()))
    return false;
  RegistrationFinder Existing(Var);
  Existing.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (!Existing.Found) // registered by an earlier run: nothing more to do
    Registrations.push_back({&Var, Declaration, Body});
  return true;
}

bool RegistryPlan::registerInstead(const Expr &Initializer) {
  if (!Ctx.options().RegistryMode)
    return false;
  const VarDecl *Var = initializedVariable(Ctx.ast(), Initializer);
  return Var && registerInstead(*Var);
}

} // namespace to_device_migrate
