#include "DataLoaderBatchRule.h"
#include "facts/Matchers.h"
#include "facts/TorchTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// The uses of `batch.<field>` in a loop body, and whether the body already
/// moves or replaces the field. In a template's own body (not instantiated)
/// the uses are dependent member expressions, looked at by name.
class FieldUses : public RecursiveASTVisitor<FieldUses> {
public:
  FieldUses(const VarDecl &Batch, StringRef Field) : Batch(Batch), Field(Field) {}

  bool VisitMemberExpr(MemberExpr *Member) {
    if (isField(Member))
      Uses.push_back(Member);
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *Member) {
    if (isField(Member))
      Uses.push_back(Member);
    else if (Member->getMember().getAsString() == "to" && isField(Member->getBase()))
      AlreadyHandled = true; // `batch.data.to(...)` in a template: the user moves it
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->isAssignmentOp() && Op->getNumArgs() && isField(Op->getArg(0)))
      AlreadyHandled = true; // `batch.data = ...`
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) { // type-dependent `batch.data = ...`
    if (Op->isAssignmentOp() && isField(Op->getLHS()))
      AlreadyHandled = true;
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

  std::vector<const Expr *> Uses;
  bool AlreadyHandled = false;

private:
  bool isField(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    const Expr *Base = nullptr;
    if (const auto *Member = dyn_cast<MemberExpr>(E);
        Member && Member->getMemberDecl()->getName() == Field)
      Base = Member->getBase();
    else if (const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(E);
             Dependent && !Dependent->isImplicitAccess() &&
             Dependent->getMember().getAsString() == Field)
      Base = Dependent->getBase();
    const auto *Ref = Base ? dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts()) : nullptr;
    return Ref && Ref->getDecl() == &Batch;
  }
  const VarDecl &Batch;
  StringRef Field;
};

/// Whether the template holding `Var` is instantiated in this file (then each
/// instantiation says what the loop variable really is).
bool isInstantiated(const VarDecl &Var) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  if (!Function)
    return false;
  if (const FunctionTemplateDecl *Template = Function->getDescribedFunctionTemplate())
    return !Template->specializations().empty();
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function))
    if (const ClassTemplateDecl *Template = Method->getParent()->getDescribedClassTemplate())
      return !Template->specializations().empty();
  return false;
}

bool isExampleType(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return isNamed(Record, "torch::data::Example");
}

} // namespace

void DataLoaderBatchRule::registerMatchers(MatchFinder *Finder) {
  auto Loop = cxxForRangeStmt(isExpansionInFile(Ctx.file()), hasBody(compoundStmt().bind("body")));
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, Loop.bind("loop")), this);
  // `template <typename Loader> void train(Loader &loader)`: the batch's type
  // is known only in each instantiation, whose locations are the template's;
  // the first instantiation rewrites the loop once.
  Finder->addMatcher(
      traverse(TK_AsIs, cxxForRangeStmt(Loop, isInTemplateInstantiation()).bind("loop")), this);
}

void DataLoaderBatchRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<CXXForRangeStmt>("loop");
  const auto *Body = Result.Nodes.getNodeAs<CompoundStmt>("body");
  const VarDecl *Batch = Loop->getLoopVariable();
  if (!Batch || Body->body_empty() || Ctx.isPerSampleCode(*Loop))
    return;
  // Uninstantiated template: a dependent loop variable whose `.data` or
  // `.target` is used is taken for a batch (moving a tensor already on the
  // device costs nothing), and a note says so.
  const bool Assumed = Batch->getType()->isDependentType() && !isInstantiated(*Batch);
  if (!Assumed && !isExampleType(Batch->getType()))
    return;
  if (!RewrittenLoops.insert(Ctx.offsetOf(Loop->getBeginLoc())).second)
    return; // another instantiation of the same loop
  std::string Moves = moveFields(*Batch, *Body, Assumed);
  if (Moves.empty())
    return;
  rewrite(Body->getSourceRange(), insertion(Ctx.offsetAfterToken(Body->getLBracLoc()), Moves))
      << SourceRange(Loop->getBeginLoc());
  if (Assumed)
    diag(Batch->getLocation(),
         "'" + Batch->getName().str() +
             "' is taken for a data-loader batch (its type depends on a template "
             "parameter and the template is not instantiated in this file); its data "
             "and target are moved to the device",
         DiagnosticIDs::Note)
        << Body->getSourceRange();
}

std::string DataLoaderBatchRule::moveFields(const VarDecl &Batch, const CompoundStmt &Body,
                                            bool Assumed) {
  bool IsConst = Batch.getType().getNonReferenceType().isConstQualified();
  std::string Indent = Ctx.indentationOf(Body.body_front()->getBeginLoc());
  std::string Moves;
  for (StringRef Field : {"data", "target"}) {
    FieldUses Uses(Batch, Field);
    Uses.TraverseStmt(const_cast<CompoundStmt *>(&Body));
    if (Uses.Uses.empty() || Uses.AlreadyHandled ||
        (!Assumed && !isTensorType(Uses.Uses.front()->getType())))
      continue;
    std::string Source = Batch.getName().str() + "." + Field.str();
    std::string Device = Ctx.device().at(*Body.body_front());
    if (!IsConst) {
      Moves += "\n" + Indent + Source + " = " + Source + ".to(" + Device + ");";
      continue;
    }
    std::string Local = Ctx.device().freshName(Batch.getName().str() + "_" + Field.str(),
                                               Field.str() + "_on_device");
    Moves += "\n" + Indent + "auto " + Local + " = " + Source + ".to(" + Device + ");";
    for (const Expr *Use : Uses.Uses)
      rewrite(Use->getSourceRange(), replacement(Use->getSourceRange(), Local));
  }
  return Moves;
}

} // namespace to_device_migrate
