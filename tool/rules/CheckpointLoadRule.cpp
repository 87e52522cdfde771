#include "CheckpointLoadRule.h"
#include "../lib/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace todevice {
namespace {

/// Is `S` the statement `var = var.to(...)`?
bool reassignsMoved(const Stmt *S, const VarDecl &Var) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *Assign = E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!Assign || !Assign->isAssignmentOp() || Assign->getNumArgs() != 2)
    return false;
  const auto *Target = dyn_cast<DeclRefExpr>(Assign->getArg(0)->IgnoreParenImpCasts());
  const auto *Call = dyn_cast<CXXMemberCallExpr>(ignoreConversions(Assign->getArg(1)));
  return Target && Target->getDecl() == &Var && Call && Call->getMethodDecl() &&
         Call->getMethodDecl()->getName() == "to";
}

} // namespace

void CheckpointLoadRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               callExpr(isExpansionInMainFile(), callee(functionDecl(hasName("::torch::load"))),
                        hasArgument(0, declRefExpr(to(varDecl().bind("var")))),
                        hasParent(compoundStmt().bind("block")))
                   .bind("load")),
      this);
}

void CheckpointLoadRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Load = Result.Nodes.getNodeAs<CallExpr>("load");
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  const auto *Block = Result.Nodes.getNodeAs<CompoundStmt>("block");
  if (!Ctx.isRewritable(Load->getSourceRange()) || Ctx.isKeptOnCpu(Load->getBeginLoc()))
    return;
  const CXXRecordDecl *Record = Var->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (Record && isOrDerivesFrom(Record, "torch::optim::Optimizer")) {
    Ctx.report(Load->getBeginLoc(), Finding::Level::Warning,
               "optimizer state loaded from a checkpoint stays on the CPU (optimizers have no "
               "to()); register the optimizer with a todevice::Registry and call to(device)",
               name());
    return;
  }
  if (!isTensorType(Var->getType()) || Var->getType().isConstQualified())
    return;
  // Idempotent: the statement after the load already moves it.
  const Stmt *Next = nullptr;
  for (auto It = Block->body_begin(); It != Block->body_end(); ++It)
    if (isa<Expr>(*It) && cast<Expr>(*It)->IgnoreImplicit() == Load && It + 1 != Block->body_end())
      Next = *(It + 1);
  if (reassignsMoved(Next, *Var))
    return;
  std::string Name = Var->getName().str();
  Ctx.insert(Ctx.offsetAfterStatement(*Load),
             "\n" + Ctx.indentationOf(Load->getBeginLoc()) + Name + " = " + Name + ".to(" +
                 Ctx.deviceAt(*Load) + ");",
             name());
}

} // namespace todevice
