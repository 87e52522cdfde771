// Module members a constructor builds (in its initialiser list, by their
// in-class initialisers, or by value) are moved at the start of its body,
// after the host-side initialisation that follows, before anything uses them
// or a thread starts:
//   Trainer(int n) : gen(make_gen(n)) { torch::load(gen, path); worker = std::thread(...); }
//   -> Trainer(int n) : gen(make_gen(n)) { torch::load(gen, path); gen->to(device); worker = ...; }
// The class's own constructor may touch private members, which code creating
// the object cannot (`trainer.gen->to(device)` in main() would not compile),
// and it moves every object however it is created (on the stack, through
// make_unique, as a member, as a class template's instantiation). Members the
// body assigns are moved where they are assigned (StorePlacement.cpp). In a
// module, only the members its constructor does not register are moved:
// Module::to() of the module reaches the others.
#include "ModuleMoves.h"
#include "ModulePlacement.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>

using namespace clang;

namespace to_device_migrate {
namespace {

/// Finds `member = ...` (or `member[i] = ...`, `member.reset(...)`) in a
/// constructor's body.
class StoreFinder : public RecursiveASTVisitor<StoreFinder> {
public:
  explicit StoreFinder(const FieldDecl &Field) : Field(Field) {}
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
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    if (const CXXMethodDecl *Method = Call->getMethodDecl();
        Method && Method->getIdentifier() && Method->getName() == "reset")
      check(Call->getImplicitObjectArgument());
    return !Found;
  }
  bool Found = false;

private:
  void check(const Expr *Target) {
    ModuleAccess Access = storedInto(Target); // `layers[i] = ...` stores into `layers`
    Found |= !Access.Var && Access.Fields.size() == 1 &&
             Access.Fields.front()->getName() == Field.getName();
  }
  const FieldDecl &Field;
};

/// True if `Ctor` itself leaves `Field` holding a module it built: by its
/// initialiser list, else by the member's in-class initialiser, else by
/// constructing it by value — not by assigning it in its body.
bool buildsMember(const CXXConstructorDecl &Ctor, const FieldDecl &Field,
                  const ModuleSlotType &Type) {
  StoreFinder Assigned(Field);
  Assigned.TraverseStmt(Ctor.getBody());
  if (Assigned.Found)
    return false;
  // A module the constructor is handed (`Task(Net net) : net(net) {}`) is the
  // object's from then on: moving one already on the device costs nothing.
  for (const CXXCtorInitializer *Init : Ctor.inits())
    if (Init->isWritten() && Init->getMember() && Init->getMember()->getName() == Field.getName())
      return classifyStoredModule(Init->getInit(), Type) == StoredModule::New ||
             namesParameter(Init->getInit());
  return classifyStoredModule(Field.getInClassInitializer(), Type) == StoredModule::New;
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

/// How the constructor's body names the member `Access`: `this->actor` when
/// a parameter of the same name hides it (`A2C(shared_ptr<Model> actor) :
/// actor(actor)`). The move then reaches the member, as a second run sees.
std::string spellingInBody(const CXXConstructorDecl &Ctor, const ModuleAccess &Access) {
  const std::string Spelling = Access.spelling();
  const bool Hidden = !Access.Var && !Access.Fields.empty() &&
                      llvm::any_of(Ctor.parameters(), [&](const ParmVarDecl *Param) {
                        return Param->getName() == Access.Fields.front()->getName();
                      });
  return Hidden ? "this->" + Spelling : Spelling;
}

} // namespace

void placeMembersInConstructor(MigrationContext &Ctx, const CXXConstructorDecl &Ctor,
                               const ModuleVariableRule &Rule) {
  const CXXRecordDecl *Class = Ctor.getParent();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Ctor.getBody());
  const bool IsModule = isOrDerivesFrom(Class, "torch::nn::Module");
  if (!Body || (!IsModule && !isUserRecord(Class)) || Ctx.isPerSampleCode(Ctor) ||
      !llvm::is_contained(buildingConstructors(Ctx, *Class), &Ctor))
    return;
  std::vector<ModuleMember> Members;
  if (IsModule) {
    for (const FieldDecl *Field : Class->fields()) {
      ModuleSlotType Type = memberSlotType(*Field);
      if (Type.holdsModules() && Rule.moves(Type.Element.Class) &&
          !Field->getType().isConstQualified() && !isRegisteredSubmodule(*Field))
        Members.push_back({ModuleAccess{nullptr, {Field}}, Type});
    }
  } else {
    collectModuleMembers(Ctx, *Class, ModuleAccess(), Rule, Members, Class);
  }
  llvm::erase_if(Members, [&](const ModuleMember &M) {
    return (M.Access.Fields.size() == 1 && !buildsMember(Ctor, *M.Access.Fields.front(), M.Type)) ||
           isMovedIn(Ctx, Body, M.Access, "");
  });
  if (Members.empty())
    return;
  if (hasReturn(Body)) {
    Rule.diag(Ctor.getLocation(),
              "this constructor returns early: its module members are not moved here; move them "
              "with ->to(device) before each return")
        << Body->getSourceRange();
    return;
  }
  // Each member after its own initialisation: members sharing the point are
  // moved together, in the order the class declares them.
  std::map<const Stmt *, std::vector<ModuleToMove>> ByPoint;
  std::vector<const Stmt *> Points;
  for (const ModuleMember &Member : Members) {
    const Stmt *Last = endOfInitialisation(Ctx, *Body, nullptr, Member.Access);
    if (!ByPoint.count(Last))
      Points.push_back(Last);
    ByPoint[Last].push_back({spellingInBody(Ctor, Member.Access), Member.Type,
                             isLossModule(Member.Type.Element.Class), ""});
    if (IsModule)
      Rule.diag(Member.Access.Fields.front()->getLocation(),
                "module member '" + Member.Access.spelling() + "' of '" +
                    Class->getNameAsString() +
                    "' is not registered with register_module(): Module::to() of its parent does "
                    "not move it, so its constructor moves it",
                DiagnosticIDs::Note);
  }
  const std::string Device = Ctx.device().at(*Body);
  for (const Stmt *Point : Points) {
    llvm::ArrayRef<ModuleToMove> Modules = ByPoint[Point];
    if (Point) {
      MigrationContext::StatementPlace Place{Point, Body, nullptr};
      Rule.insertAfterStatement(Body->getSourceRange(), Place, [&](llvm::StringRef Indent) {
        return moveStatements(Ctx, Modules, Device, Indent);
      });
      continue;
    }
    // At the start of the body: `Trainer() : ... {}` gets the statements between
    // the braces, each on a line.
    const std::string Indent = Body->body_empty()
                                   ? Ctx.indentationOf(Ctor.getBeginLoc()) + "  "
                                   : Ctx.indentationOf(Body->body_front()->getBeginLoc());
    std::string Text = moveStatements(Ctx, Modules, Device, Indent);
    const SourceManager &SM = Ctx.sources();
    if (Body->body_empty() && SM.getSpellingLineNumber(Body->getLBracLoc()) ==
                                  SM.getSpellingLineNumber(Body->getRBracLoc()))
      Text += "\n" + Ctx.indentationOf(Ctor.getBeginLoc());
    Rule.rewrite(Body->getSourceRange(),
                 Rule.insertion(Ctx.offsetAfterToken(Body->getLBracLoc()), Text));
  }
}

} // namespace to_device_migrate
