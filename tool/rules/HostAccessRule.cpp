#include "HostAccessRule.h"
#include "../lib/Matchers.h"
#include "../lib/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// Is `Arg` the destination of memcpy/memmove/memset/std::fill/std::copy?
bool isCalledWithDestination(const CallExpr &Call, const Expr &Arg) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier())
    return false;
  unsigned Destination = llvm::StringSwitch<unsigned>(F->getName())
                             .Case("memcpy", 0)
                             .Case("memmove", 0)
                             .Case("memset", 0)
                             .Case("fill", 0)
                             .Case("fill_n", 0)
                             .Case("copy", 2)
                             .Case("copy_n", 2)
                             .Default(~0u);
  return Destination < Call.getNumArgs() &&
         Call.getArg(Destination)->IgnoreParenImpCasts() == Arg.IgnoreParenImpCasts();
}

/// Is `E` (a pointer or accessor, or an element reached through it) written?
bool isWrittenThrough(ASTContext &Ctx, const Expr &E, int Depth = 0) {
  if (Depth > 12)
    return false;
  DynTypedNodeList Parents = Ctx.getParents(E);
  if (Parents.empty())
    return false;
  if (const auto *Op = Parents[0].get<BinaryOperator>())
    return Op->isAssignmentOp() ? Op->getLHS()->IgnoreParenImpCasts() == E.IgnoreParenImpCasts()
           : Op->isAdditiveOp() ? isWrittenThrough(Ctx, *Op, Depth + 1) // p + i
                                : false;
  if (const auto *Op = Parents[0].get<UnaryOperator>())
    return Op->isIncrementDecrementOp() || (Op->getOpcode() == UO_Deref && isWrittenThrough(Ctx, *Op, Depth + 1));
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>()) {
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus || Op->getOperator() == OO_MinusMinus)
      return Op->getArg(0)->IgnoreParenImpCasts() == E.IgnoreParenImpCasts();
    if (Op->getOperator() == OO_Subscript) // accessor[i][j]
      return isWrittenThrough(Ctx, *Op, Depth + 1);
    return false;
  }
  if (const auto *Subscript = Parents[0].get<ArraySubscriptExpr>())
    return isWrittenThrough(Ctx, *Subscript, Depth + 1);
  if (const auto *Call = Parents[0].get<CallExpr>())
    return isCalledWithDestination(*Call, E);
  // Implicit wrappers: casts, parentheses, temporaries (`acc[i]` of an accessor
  // is a temporary that the next `[j]` is called on).
  if (const auto *Wrapper = Parents[0].get<Expr>();
      Wrapper && (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
                      CXXBindTemporaryExpr, ExprWithCleanups>(Wrapper)))
    return isWrittenThrough(Ctx, *Wrapper, Depth + 1);
  return false;
}

/// Every use of `Var` in `Body` is checked for a write.
class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  WriteFinder(ASTContext &Ctx, const VarDecl &Var) : Ctx(Ctx), Var(Var) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == &Var && isWrittenThrough(Ctx, *Ref) && !Found)
      Found = Ref;
    return true;
  }
  const DeclRefExpr *Found = nullptr;

private:
  ASTContext &Ctx;
  const VarDecl &Var;
};

/// The statement of a block that contains `E`.
const Stmt *enclosingStatement(ASTContext &Ctx, const Stmt &E) {
  DynTypedNode Node = DynTypedNode::create(E);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    if (Parents[0].get<CompoundStmt>())
      return Node.get<Stmt>();
    Node = Parents[0];
  }
}

/// A variable initialised with `x.cpu()`: already a host tensor.
bool isHostCopy(const VarDecl &Var) {
  const auto *Call = Var.getInit() ? dyn_cast<CXXMemberCallExpr>(ignoreConversions(Var.getInit())) : nullptr;
  return Call && Call->getMethodDecl() && Call->getMethodDecl()->getName() == "cpu";
}

} // namespace

void HostAccessRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               cxxMemberCallExpr(isExpansionInFile(Ctx.file()),
                                 callee(cxxMethodDecl(hasAnyName("data_ptr", "accessor"))),
                                 on(declRefExpr(to(varDecl().bind("tensor")))))
                   .bind("access")),
      this);
}

void HostAccessRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Access = Result.Nodes.getNodeAs<CXXMemberCallExpr>("access");
  const auto *Tensor = Result.Nodes.getNodeAs<VarDecl>("tensor");
  if (!isTensorType(Tensor->getType()) || isHostCopy(*Tensor) ||
      !Ctx.mayRewrite(Access->getSourceRange(), name()))
    return;
  const Stmt *Statement = enclosingStatement(Ctx.ast(), *Access);
  if (!Statement)
    return;

  // Written directly (`t.data_ptr<float>()[0] = 1`) or through the variable
  // holding the pointer/accessor?
  bool Written = isWrittenThrough(Ctx.ast(), *Access);
  const auto *Holder = dyn_cast<DeclStmt>(Statement);
  if (!Written && Holder && Holder->isSingleDecl())
    if (const auto *Var = dyn_cast<VarDecl>(Holder->getSingleDecl());
        Var && Var->getInit() && ignoreConversions(Var->getInit()) == Access) {
      WriteFinder Finder(Ctx.ast(), *Var);
      if (const auto *Function = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod()))
        Finder.TraverseStmt(Function->getBody());
      Written = Finder.Found != nullptr;
    }
  StringRef Method = Access->getMethodDecl()->getName();
  if (Written) {
    Ctx.report(Access->getBeginLoc(), Finding::Level::Warning,
               "host code writes into '" + Tensor->getName().str() + "' through " + Method.str() +
                   "(); on the device a .cpu() copy would take the write, so this is not "
                   "rewritten: fill a CPU tensor and move it with .to(device), or use tensor "
                   "operations",
               name());
    return;
  }
  // One host copy per statement and tensor, shared by all its reads there
  // (`std::vector<float> v(t.data_ptr<float>(), t.data_ptr<float>() + n)`).
  std::string &Host = HostCopies[{Statement, Tensor}];
  if (Host.empty())
    Host = Ctx.freshName(Tensor->getName().str() + "_host", Tensor->getName().str() + "_on_host");
  Ctx.insert(Ctx.offsetOf(Statement->getBeginLoc()),
             "auto " + Host + " = " + Tensor->getName().str() + ".cpu();\n" +
                 Ctx.indentationOf(Statement->getBeginLoc()),
             name());
  Ctx.replace(Access->getImplicitObjectArgument()->getSourceRange(), Host, name());
}

static RuleRegistry::Add<RuleFactoryFor<HostAccessRule, 90>>
    Registration("host-access",
                 "read device tensors from host code through .cpu(); report writes");

} // namespace to_device_migrate
