#include "HostBuiltTensorRule.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/PlacementFlow.h"
#include "facts/Repetition.h"
#include "facts/TorchOps.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <map>

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// Every reference to `Var` below the traversal root.
class References : public RecursiveASTVisitor<References> {
public:
  explicit References(const VarDecl &Var) : Var(Var) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == &Var)
      Found.push_back(Ref);
    return true;
  }
  std::vector<const DeclRefExpr *> Found;

private:
  const VarDecl &Var;
};

/// What device code takes of the host tensor's view `View`: a selection of
/// it the analysis makes on the host (`t.index_select(0, idx)` with host
/// indices: PlacementFlow), moved instead of all of `t`; else `View`.
const Expr &selectedPart(ASTContext &Ast, const PlacementFlow &Flow, const Expr &View) {
  const CallExpr *Selection = selectionOf(Ast, View);
  return Selection && !Flow.needsDevice(*Selection) ? *Selection : View;
}

/// Can `.to(d)` be appended to `E`'s text as is?
bool isPostfix(const Expr &E) {
  const Expr *Bare = E.IgnoreImplicit();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Bare))
    return Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Call;
  return isa<DeclRefExpr, CallExpr, MemberExpr, ParenExpr>(Bare);
}

/// How a `*_like` factory takes the host-built `Use` as its operand, which
/// lends the new tensor its shape and dtype only (`torch::zeros_like(rewards)`).
enum class LikeOperand {
  None,           ///< not a like factory's operand, or its options say other things
  DefaultOptions, ///< its options are left to their default: the device goes there
  Placed,         ///< its options name a device already (`torch::device(d)`)
};

LikeOperand likeOperand(ASTContext &Ast, const Expr &Use) {
  const auto *Like = dyn_cast_or_null<CallExpr>(userOf(Ast, Use));
  if (!Like || isa<CXXMemberCallExpr>(Like) || effectOf(*Like) != TensorEffect::CreateLike ||
      Like->getNumArgs() < 2 || ignoreConversions(Like->getArg(0)) != ignoreConversions(&Use))
    return LikeOperand::None;
  const FunctionDecl *Callee = Like->getDirectCallee();
  if (!Callee || Callee->getNumParams() < 2 || !isTensorOptionsType(Callee->getParamDecl(1)->getType()))
    return LikeOperand::None;
  if (isa<CXXDefaultArgExpr>(Like->getArg(1)))
    return LikeOperand::DefaultOptions;
  const auto *Options = dyn_cast<CallExpr>(ignoreConversions(Like->getArg(1)));
  const FunctionDecl *Made = Options ? Options->getDirectCallee() : nullptr;
  return Made && Made->getIdentifier() && Made->getName() == "device" ? LikeOperand::Placed
                                                                      : LikeOperand::None;
}

} // namespace

void HostBuiltTensorRule::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              varDecl(isExpansionInFile(Ctx.file()), hasLocalStorage())
                                  .bind("tensor")),
                     this);
  // A member of one of the program's classes, wherever it is used: its
  // class's functions may be in other files (ParseFacts::isHostBuiltField()).
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              memberExpr(isExpansionInFile(Ctx.file()), member(fieldDecl()))
                                  .bind("member")),
                     this);
}

void HostBuiltTensorRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Member = Result.Nodes.getNodeAs<MemberExpr>("member")) {
    const auto *Field = cast<FieldDecl>(Member->getMemberDecl());
    if (isProgramTensorField(Field) && Ctx.facts().isHostBuiltField(*Field) &&
        !Ctx.isPerSampleCode(*Member))
      moveWhereDeviceUses(
          selectedPart(Ctx.ast(), Ctx.facts().placement(), outermostView(Ctx.ast(), *Member, *Field)));
    return;
  }
  const auto *Tensor = Result.Nodes.getNodeAs<VarDecl>("tensor");
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Tensor->getParentFunctionOrMethod());
  const auto *Param = dyn_cast<ParmVarDecl>(Tensor);
  if (!Function || !Function->getBody() || Ctx.isPerSampleCode(*Tensor) ||
      !(Param ? Ctx.facts().receivesHostData(*Param) : isHostBuiltTensor(Ctx.ast(), *Tensor)))
    return;
  References Uses(*Tensor);
  Uses.TraverseStmt(Function->getBody());
  // Device uses at every turn of a loop that only reads the tensor there are
  // moved once, in front of the loop (the outermost such loop).
  std::map<const Stmt *, std::vector<const DeclRefExpr *>> BeforeLoop;
  for (const DeclRefExpr *Ref : Uses.Found) {
    const Expr &Taken =
        selectedPart(Ctx.ast(), Ctx.facts().placement(), outermostView(Ctx.ast(), *Ref, *Tensor));
    if (const Stmt *Loop = loopTakingOnlyOnDevice(*Tensor, Uses.Found, *Ref))
      BeforeLoop[Loop].push_back(Ref);
    else
      moveWhereDeviceUses(Taken);
  }
  for (const auto &[Loop, Refs] : BeforeLoop)
    moveBeforeLoop(*Tensor, *Loop, Refs);
}

bool HostBuiltTensorRule::needsMoveAt(const Expr &Use) const {
  return isDeviceUse(Ctx.ast(), Use) && !isMovedToDevice(Ctx.ast(), Use) &&
         Ctx.isWrittenInFile(Use.getSourceRange());
}

const Stmt *HostBuiltTensorRule::loopTakingOnlyOnDevice(const VarDecl &Tensor,
                                                        llvm::ArrayRef<const DeclRefExpr *> Refs,
                                                        const DeclRefExpr &Ref) const {
  // Of a view of it (`rewards[t]`), not of a selection made on the host.
  auto TakenOnDevice = [&](const DeclRefExpr &R) {
    const Expr &View = outermostView(Ctx.ast(), R, Tensor);
    return &selectedPart(Ctx.ast(), Ctx.facts().placement(), View) == &View && needsMoveAt(View);
  };
  if (!TakenOnDevice(Ref))
    return nullptr;
  const Stmt *Chosen = nullptr;
  for (const Stmt *Loop = enclosingLoop(Ctx.ast(), Ref); Loop; Loop = enclosingLoop(Ctx.ast(), *Loop)) {
    const SourceRange Range = Loop->getSourceRange();
    if (Range.fullyContains(Tensor.getSourceRange()) || !Ctx.placeOf(*Loop).Statement ||
        !Ctx.isWrittenInFile(Range))
      break;
    // Nothing in the loop writes it, reads it on the host, or moves it.
    if (!llvm::all_of(Refs, [&](const DeclRefExpr *R) {
          return !Range.fullyContains(R->getSourceRange()) || TakenOnDevice(*R);
        }))
      break;
    Chosen = Loop;
  }
  return Chosen;
}

void HostBuiltTensorRule::moveBeforeLoop(const VarDecl &Tensor, const Stmt &Loop,
                                         llvm::ArrayRef<const DeclRefExpr *> Refs) {
  const Stmt &Statement = *Ctx.placeOf(Loop).Statement;
  const std::string Name = Ctx.device().freshName(Tensor.getName().str() + "_device",
                                                  Tensor.getName().str() + "_on_device");
  // The first reference reports the move with it; each reads the moved copy.
  for (const DeclRefExpr *Ref : Refs) {
    auto Site = rewrite(Ref->getSourceRange(), replacement(Ref->getSourceRange(), Name));
    if (Ref == Refs.front())
      Site << insertion(Ctx.offsetOf(Statement.getBeginLoc()),
                        "auto " + Name + " = " + Tensor.getName().str() + ".to(" +
                            Ctx.device().at(Loop) + ");\n" + Ctx.indentationOf(Statement.getBeginLoc()));
  }
}

void HostBuiltTensorRule::moveWhereDeviceUses(const Expr &Use) {
  if (!needsMoveAt(Use))
    return;
  switch (likeOperand(Ctx.ast(), Use)) {
  case LikeOperand::DefaultOptions: {
    const std::string NS = Ctx.device().torchNamespace().str();
    rewrite(Use.getSourceRange(), insertion(Ctx.offsetAfterToken(Use.getEndLoc()),
                                            ", " + NS + "::device(" + Ctx.device().at(Use) + ")"));
    return;
  }
  case LikeOperand::Placed:
    return;
  case LikeOperand::None:
    break;
  }
  const std::string Move = ".to(" + Ctx.device().at(Use) + ")";
  if (isPostfix(Use)) {
    rewrite(Use.getSourceRange(), insertion(Ctx.offsetAfterToken(Use.getEndLoc()), Move));
    return;
  }
  rewrite(Use.getSourceRange(), insertion(Ctx.offsetOf(Use.getBeginLoc()), "("))
      << insertion(Ctx.offsetAfterToken(Use.getEndLoc()), ")" + Move);
}

} // namespace to_device_migrate
