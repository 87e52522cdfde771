#include "DataLoaderBatchRule.h"
#include "../lib/TorchTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace todevice {
namespace {

/// The uses of `batch.<field>` in a loop body, and whether the body already
/// moves or replaces the field.
class FieldUses : public RecursiveASTVisitor<FieldUses> {
public:
  FieldUses(const VarDecl &Batch, StringRef Field) : Batch(Batch), Field(Field) {}

  bool VisitMemberExpr(MemberExpr *Member) {
    const auto *Base = dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts());
    if (Base && Base->getDecl() == &Batch && Member->getMemberDecl()->getName() == Field)
      Uses.push_back(Member);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->isAssignmentOp() && Op->getNumArgs() && isField(Op->getArg(0)))
      AlreadyHandled = true; // `batch.data = ...`
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() && Method->getName() == "to" &&
        isField(Call->getImplicitObjectArgument()) && Call->getNumArgs() &&
        isDeviceExpression(*ignoreConversions(Call->getArg(0))))
      AlreadyHandled = true; // `batch.data.to(device)` somewhere: the user moves it
    return true;
  }

  std::vector<const MemberExpr *> Uses;
  bool AlreadyHandled = false;

private:
  bool isField(const Expr *E) const {
    const auto *Member = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    const auto *Base = Member ? dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts()) : nullptr;
    return Base && Base->getDecl() == &Batch && Member->getMemberDecl()->getName() == Field;
  }
  const VarDecl &Batch;
  StringRef Field;
};

bool isExampleType(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->getQualifiedNameAsString() == "torch::data::Example";
}

} // namespace

void DataLoaderBatchRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                             cxxForRangeStmt(isExpansionInMainFile(),
                                             hasBody(compoundStmt().bind("body")))
                                 .bind("loop")),
                    this);
}

void DataLoaderBatchRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<CXXForRangeStmt>("loop");
  const auto *Body = Result.Nodes.getNodeAs<CompoundStmt>("body");
  const VarDecl *Batch = Loop->getLoopVariable();
  if (!Batch || !isExampleType(Batch->getType()) || Body->body_empty() ||
      !Ctx.isRewritable(Body->getSourceRange()) || Ctx.isKeptOnCpu(Loop->getBeginLoc()))
    return;
  bool IsConst = Batch->getType().getNonReferenceType().isConstQualified();
  std::string Indent = Ctx.indentationOf(Body->body_front()->getBeginLoc());
  std::string Moves;
  for (StringRef Field : {"data", "target"}) {
    FieldUses Uses(*Batch, Field);
    Uses.TraverseStmt(const_cast<CompoundStmt *>(Body));
    if (Uses.Uses.empty() || Uses.AlreadyHandled || !isTensorType(Uses.Uses.front()->getType()))
      continue;
    std::string Source = Batch->getName().str() + "." + Field.str();
    std::string Device = Ctx.deviceAt(*Body->body_front());
    if (!IsConst) {
      Moves += "\n" + Indent + Source + " = " + Source + ".to(" + Device + ");";
      continue;
    }
    std::string Local =
        Ctx.freshName(Batch->getName().str() + "_" + Field.str(), Field.str() + "_on_device");
    Moves += "\n" + Indent + "auto " + Local + " = " + Source + ".to(" + Device + ");";
    for (const MemberExpr *Use : Uses.Uses)
      Ctx.replace(Use->getSourceRange(), Local, name());
  }
  if (!Moves.empty())
    Ctx.insert(Ctx.offsetAfterToken(Body->getLBracLoc()), Moves, name());
}

} // namespace todevice
