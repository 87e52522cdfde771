// Module members of a plain class whose constructors build them are moved at
// the end of each such constructor, after the members exist:
//   Trainer(int n) : gen(make_gen(n)) { ... }
//   -> Trainer(int n) : gen(make_gen(n)) { ... gen->to(device); }
// The class's own constructor may touch private members, which code creating
// the object cannot (`trainer.gen->to(device)` in main() would not compile),
// and it moves every object however it is created (on the stack, through
// make_unique, as a member, as a class template's instantiation).
#include "ModuleMoves.h"
#include "ModulePlacement.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace to_device_migrate {
namespace {

bool isNullInitializer(const Expr *Init) {
  if (!Init)
    return false;
  Init = ignoreConversions(Init);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
      Construct && Construct->getNumArgs() == 1)
    Init = ignoreConversions(Construct->getArg(0));
  // In a template the list may stay as written: `model()`, `model(nullptr)`.
  if (const auto *List = dyn_cast<ParenListExpr>(Init))
    Init = List->getNumExprs() == 1 ? List->getExpr(0)->IgnoreParenImpCasts() : nullptr;
  return Init && (isa<CXXNullPtrLiteralExpr>(Init) ||
                  (!Init->getType().isNull() && Init->getType()->isNullPtrType()));
}

/// Finds `member = ...` in a constructor's body.
class AssignmentFinder : public RecursiveASTVisitor<AssignmentFinder> {
public:
  explicit AssignmentFinder(const FieldDecl &Field) : Field(Field) {}
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() == BO_Assign)
      check(Op->getLHS());
    return !Found;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      check(Op->getArg(0));
    return !Found;
  }
  bool Found = false;

private:
  void check(const Expr *Target) {
    ModuleAccess Access = calledOn(Target);
    Found |= !Access.Var && Access.Fields.size() == 1 &&
             Access.Fields.front()->getName() == Field.getName();
  }
  const FieldDecl &Field;
};

/// True if `Ctor` leaves `Member` holding a module: a member by value is
/// constructed; a holder or shared_ptr must be initialised (in the class or in
/// the constructor's list, not with nullptr) or assigned in the body.
bool isBuiltBy(const CXXConstructorDecl &Ctor, const ModuleToMove &Member) {
  if (Member.Access.Fields.size() > 1 || Member.Handle == ModuleHandle::Object)
    return true; // a plain member's own in-class initialisers were checked
  const FieldDecl &Field = *Member.Access.Fields.front();
  for (const CXXCtorInitializer *Init : Ctor.inits())
    if (Init->isWritten() && Init->getMember() && Init->getMember()->getName() == Field.getName())
      return !isNullInitializer(Init->getInit());
  AssignmentFinder Assigned(Field);
  Assigned.TraverseStmt(Ctor.getBody());
  if (Assigned.Found)
    return true;
  return Field.hasInClassInitializer() && !isNullInitializer(Field.getInClassInitializer());
}

bool hasReturn(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (hasReturn(Child))
      return true;
  return false;
}

} // namespace

std::vector<const CXXConstructorDecl *> buildingConstructors(MigrationContext &Ctx,
                                                             const CXXRecordDecl &Record) {
  const CXXRecordDecl *Class = &Record;
  if (const CXXRecordDecl *Pattern = Record.getTemplateInstantiationPattern())
    Class = Pattern;
  std::vector<const CXXConstructorDecl *> Found;
  if (!isUserRecord(Class))
    return Found;
  for (const CXXConstructorDecl *Ctor : Class->ctors()) {
    const FunctionDecl *Definition = nullptr;
    if (Ctor->isImplicit() || Ctor->isCopyOrMoveConstructor() || !Ctor->hasBody(Definition))
      continue;
    const auto *Built = cast<CXXConstructorDecl>(Definition);
    if (!Built->isDelegatingConstructor() && !Built->isDefaulted() && !Built->isDeleted() &&
        Ctx.isMigratedInThisRun(Built->getLocation()))
      Found.push_back(Built);
  }
  return Found;
}

void placeMembersInConstructor(MigrationContext &Ctx, const CXXConstructorDecl &Ctor,
                               const ModuleVariableRule &Rule) {
  const CXXRecordDecl *Class = Ctor.getParent();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Ctor.getBody());
  if (!Body || !isUserRecord(Class) || isInsideModuleMember(&Ctor) ||
      !llvm::is_contained(buildingConstructors(Ctx, *Class), &Ctor))
    return;
  std::vector<ModuleToMove> Modules;
  collectModuleMembers(Ctx, *Class, ModuleAccess(), Rule, Modules, Class);
  llvm::erase_if(Modules, [&](const ModuleToMove &M) {
    return !isBuiltBy(Ctor, M) ||
           isMovedWithin(M.Access, {const_cast<CXXConstructorDecl *>(&Ctor)});
  });
  if (Modules.empty())
    return;
  if (hasReturn(Body)) {
    Rule.diag(Ctor.getLocation(),
              "this constructor returns early: its module members are not moved here; move them "
              "with ->to(device) before each return")
        << Body->getSourceRange();
    return;
  }
  const std::string Device = Ctx.device().at(*Body);
  if (!Body->body_empty()) {
    const Stmt &Last = *Body->body_back();
    Rule.rewrite(Body->getSourceRange(),
                 Rule.insertion(
                     Ctx.offsetAfterStatement(Last),
                     moveStatements(Ctx, Modules, Device, Ctx.indentationOf(Last.getBeginLoc()))));
    return;
  }
  // `Trainer() : ... {}`: the statements go between the braces, each on a line.
  const std::string Indent = Ctx.indentationOf(Ctor.getBeginLoc());
  std::string Text = moveStatements(Ctx, Modules, Device, Indent + "  ");
  const SourceManager &SM = Ctx.sources();
  if (SM.getSpellingLineNumber(Body->getLBracLoc()) ==
      SM.getSpellingLineNumber(Body->getRBracLoc()))
    Text += "\n" + Indent;
  Rule.rewrite(Body->getSourceRange(),
               Rule.insertion(Ctx.offsetAfterToken(Body->getLBracLoc()), Text));
}

} // namespace to_device_migrate
