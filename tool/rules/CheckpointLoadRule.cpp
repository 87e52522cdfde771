#include "CheckpointLoadRule.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// The variable or member a reference names (`t`, `X_internal`, `data.X`).
const ValueDecl *namedBy(const Expr &E) {
  const Expr *Bare = E.IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(Bare))
    return Member->getMemberDecl();
  return nullptr;
}

/// Is `S` the statement `t = t.to(...)` for the tensor `Loaded` names?
bool reassignsMoved(const Stmt *S, const ValueDecl &Loaded) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *Assign = E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!Assign || !Assign->isAssignmentOp() || Assign->getNumArgs() != 2)
    return false;
  const auto *Call = dyn_cast<CXXMemberCallExpr>(ignoreConversions(Assign->getArg(1)));
  return namedBy(*Assign->getArg(0)) == &Loaded && Call && Call->getMethodDecl() &&
         Call->getMethodDecl()->getName() == "to";
}

/// Is `S` the loop the rule inserts after an optimizer load (`for (... : opt.state())`)?
bool movesOptimizerState(const Stmt *S, const VarDecl &Optimizer) {
  const auto *Loop = dyn_cast_or_null<CXXForRangeStmt>(S);
  if (!Loop)
    return false;
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Loop->getRangeInit()->IgnoreImplicit());
  const auto *On = Call ? dyn_cast<DeclRefExpr>(Call->getImplicitObjectArgument()->IgnoreImplicit()) : nullptr;
  return On && On->getDecl() == &Optimizer && Call->getMethodDecl()->getName() == "state";
}

/// The per-parameter state class of a LibTorch optimizer and its tensors.
struct OptimizerState {
  const char *Optimizer, *State;
  std::vector<const char *> Tensors;
};

const OptimizerState *stateOf(const CXXRecordDecl *Record) {
  static const OptimizerState Known[] = {
      {"torch::optim::SGD", "SGDParamState", {"momentum_buffer"}},
      {"torch::optim::Adam", "AdamParamState", {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"}},
      {"torch::optim::AdamW", "AdamWParamState", {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"}},
      {"torch::optim::Adagrad", "AdagradParamState", {"sum"}},
      {"torch::optim::RMSprop", "RMSpropParamState", {"square_avg", "momentum_buffer", "grad_avg"}},
  };
  for (const OptimizerState &S : Known)
    if (isNamed(Record, S.Optimizer))
      return &S;
  return nullptr;
}

/// The statement after `Load` in `Block`, if any.
const Stmt *statementAfter(const CompoundStmt &Block, const CallExpr &Load) {
  for (auto It = Block.body_begin(); It != Block.body_end(); ++It)
    if (isa<Expr>(*It) && cast<Expr>(*It)->IgnoreImplicit() == &Load && It + 1 != Block.body_end())
      return *(It + 1);
  return nullptr;
}

} // namespace

void CheckpointLoadRule::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              callExpr(isExpansionInFile(Ctx.file()),
                                       callee(functionDecl(hasName("::torch::load"))),
                                       hasArgument(0, anyOf(declRefExpr(to(varDecl().bind("var"))),
                                                            memberExpr(member(fieldDecl().bind("field")))
                                                                .bind("member"))),
                                       hasParent(compoundStmt().bind("block")))
                                  .bind("load")),
                     this);
}

void CheckpointLoadRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Load = Result.Nodes.getNodeAs<CallExpr>("load");
  const auto *Block = Result.Nodes.getNodeAs<CompoundStmt>("block");
  if (Ctx.isPerSampleCode(*Load))
    return;
  // A tensor member loaded in one of its class's functions (`torch::load(X, path)`
  // in a data set's constructor) is moved there as a local is.
  if (const auto *Field = Result.Nodes.getNodeAs<FieldDecl>("field")) {
    const auto *Member = Result.Nodes.getNodeAs<MemberExpr>("member");
    if (!isProgramTensorField(Field) || Field->getType().isConstQualified() ||
        reassignsMoved(statementAfter(*Block, *Load), *Field))
      return;
    const std::string Name = Ctx.text(Member->getSourceRange()).str();
    rewrite(Load->getSourceRange(),
            insertion(Ctx.offsetAfterStatement(*Load),
                      "\n" + Ctx.indentationOf(Load->getBeginLoc()) + Name + " = " + Name +
                          ".to(" + Ctx.device().at(*Load) + ");"));
    return;
  }
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  const CXXRecordDecl *Record = Var->getType().getNonReferenceType()->getAsCXXRecordDecl();
  const Stmt *Next = statementAfter(*Block, *Load);
  if (Record && isOrDerivesFrom(Record, "torch::optim::Optimizer")) {
    moveOptimizerState(*Load, *Var, Record, Next);
    return;
  }
  if (!isTensorType(Var->getType()) || Var->getType().isConstQualified())
    return;
  // Idempotent: the statement after the load already moves it.
  if (reassignsMoved(Next, *Var))
    return;
  std::string Name = Var->getName().str();
  rewrite(Load->getSourceRange(),
          insertion(Ctx.offsetAfterStatement(*Load), "\n" + Ctx.indentationOf(Load->getBeginLoc()) +
                                                         Name + " = " + Name + ".to(" +
                                                         Ctx.device().at(*Load) + ");"));
}

void CheckpointLoadRule::moveOptimizerState(const CallExpr &Load, const VarDecl &Optimizer,
                                            const CXXRecordDecl *Record, const Stmt *Next) {
  const OptimizerState *State = stateOf(Record);
  if (!State) {
    diag(Load.getBeginLoc(),
         "optimizer state loaded from a checkpoint stays on the CPU (optimizers have no "
         "to(), and this optimizer's state is not one the tool knows); register the "
         "optimizer with a todevice::Registry and call to(device)");
    return;
  }
  if (movesOptimizerState(Next, Optimizer))
    return;
  // The state is keyed by each parameter's TensorImpl, which Module::to keeps:
  // moving the tensors in place is all it takes.
  const std::string Indent = Ctx.indentationOf(Load.getBeginLoc());
  std::string Fields;
  for (const char *Tensor : State->Tensors)
    Fields += std::string(Fields.empty() ? "" : ", ") + "&state." + Tensor + "()";
  rewrite(Load.getSourceRange(),
          insertion(Ctx.offsetAfterStatement(Load),
                    "\n" + Indent + "for (auto &entry : " + Optimizer.getName().str() +
                        ".state()) { // loaded on the CPU: moved (added by to-device-migrate)\n" +
                        Indent + "  auto &state = static_cast<torch::optim::" + State->State +
                        " &>(*entry.second);\n" + Indent + "  for (torch::Tensor *t : {" + Fields +
                        "})\n" + Indent + "    if (t->defined())\n" + Indent + "      *t = t->to(" +
                        Ctx.device().at(Load) + ");\n" + Indent + "}"));
}

} // namespace to_device_migrate
