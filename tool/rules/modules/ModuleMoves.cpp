#include "ModuleMoves.h"
#include "ModulePlacement.h"
#include "facts/PerSampleCode.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace to_device_migrate {

std::string ModuleAccess::spelling() const {
  std::string Text = Var ? Var->getName().str() : "";
  for (const FieldDecl *Field : Fields)
    Text += (Text.empty() ? "" : ".") + Field->getName().str();
  return Text;
}

ModuleAccess calledOn(const Expr *Object) {
  if (!Object)
    return {};
  Object = Object->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object);
      Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) && Op->getNumArgs())
    Object = Op->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Object)) // holder.get()/ptr()
    Object = Member->getImplicitObjectArgument()->IgnoreParenImpCasts();
  ModuleAccess Access;
  while (const auto *Member = dyn_cast<MemberExpr>(Object)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
    if (!Field || (Member->isArrow() && !isa<CXXThisExpr>(Base)))
      return {};
    Access.Fields.insert(Access.Fields.begin(), Field);
    Object = Base;
  }
  if (isa<CXXThisExpr>(Object))
    return Access.Fields.empty() ? ModuleAccess() : Access;
  const auto *Ref = dyn_cast<DeclRefExpr>(Object);
  Access.Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Access.Var ? Access : ModuleAccess();
}

namespace {

bool mentionsCPU(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (Ref->getDecl()->getName() == "kCPU")
      return true;
  for (const Stmt *Child : S->children())
    if (mentionsCPU(Child))
      return true;
  return false;
}

/// Finds `var->to(<a device, not the CPU>)` (or `h.member->to(...)`) anywhere below the
/// traversal root. In a template, `member->to(...)` is a dependent call: its
/// callee is a CXXDependentScopeMemberExpr named `to`.
class MoveFinder : public RecursiveASTVisitor<MoveFinder> {
public:
  explicit MoveFinder(const ModuleAccess &Module) : Module(Module) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() && Method->getName() == "to")
      check(Call->getImplicitObjectArgument(), Call);
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()))
      if (Dependent->getMember().getAsString() == "to" && !Dependent->isImplicitAccess())
        check(Dependent->getBase(), Call);
    return !Found;
  }
  bool Found = false;

private:
  /// `to(device)`, `to(device, dtype)`, `to(torch::kCUDA)`: a placement, unless
  /// it names the CPU. `to(torch::kF64)` only converts. In a template the
  /// argument's type may be unknown: counted as a placement.
  void check(const Expr *Object, const CallExpr *Call) {
    if (!(calledOn(Object) == Module) || !Call->getNumArgs() || mentionsCPU(Call->getArg(0)))
      return;
    const Expr *Where = ignoreConversions(Call->getArg(0));
    Found |= Where->isTypeDependent() || isDeviceExpression(*Where);
  }
  const ModuleAccess &Module;
};

} // namespace

bool isMovedWithin(const ModuleAccess &Module, llvm::ArrayRef<Decl *> Roots) {
  MoveFinder Finder(Module);
  for (Decl *Root : Roots)
    if (!Finder.TraverseDecl(Root) || Finder.Found)
      return true;
  return Finder.Found;
}

std::string moveStatements(MigrationContext &Ctx, llvm::ArrayRef<ModuleToMove> Modules,
                           llvm::StringRef Device, llvm::StringRef Indent) {
  std::string Text;
  for (const ModuleToMove &Module : Modules) {
    const bool Object = Module.Handle == ModuleHandle::Object;
    Text +=
        ("\n" + Indent + Module.Access.spelling() + (Object ? "." : "->") + "to(" + Device + ");")
            .str();
    if (Ctx.options().Distributed && !Module.IsLoss) {
      Ctx.device().requireInclude("todevice/distributed.h");
      Text += ("\n" + Indent + "todevice::distributed::broadcast_parameters(" +
               (Object ? "" : "*") + Module.Access.spelling() + ");")
                  .str();
    }
  }
  return Text;
}

bool isUserRecord(const CXXRecordDecl *Record) {
  return Record && Record->hasDefinition() && !Record->isLambda() && !isLibraryDecl(Record) &&
         !isPerSampleClass(Record) && !isOrDerivesFrom(Record, "torch::nn::Module");
}

namespace {

/// An empty handle (`Linear proj{nullptr}`, a shared_ptr set later): it can only
/// be moved once something assigns it, which the tool does not follow.
bool mayStartEmpty(const FieldDecl &Field, ModuleHandle Handle) {
  const Expr *Init = Field.getInClassInitializer();
  if (Handle == ModuleHandle::SharedPtr && !Init)
    return true;
  if (!Init || Handle == ModuleHandle::Object)
    return false;
  const Expr *Inner = ignoreConversions(Init);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
      Construct && Construct->getNumArgs() == 1)
    Inner = ignoreConversions(Construct->getArg(0));
  return Inner->getType()->isNullPtrType();
}

/// The member's module type; in a class template, where it depends on the
/// template's arguments (`Module model;`), the one every instantiation of
/// this translation unit agrees on (none if they differ or there is none).
ModuleType memberModuleType(const FieldDecl &Field) {
  const auto *Record = dyn_cast<CXXRecordDecl>(Field.getParent());
  const ClassTemplateDecl *Template = Record ? Record->getDescribedClassTemplate() : nullptr;
  if (!Template || !Field.getType()->isDependentType())
    return classifyModuleType(Field.getType());
  ModuleType Agreed;
  for (const ClassTemplateSpecializationDecl *Instance : Template->specializations()) {
    if (!Instance->hasDefinition())
      continue;
    for (const FieldDecl *Member : Instance->fields()) {
      if (Member->getName() != Field.getName())
        continue;
      ModuleType Type = classifyModuleType(Member->getType());
      if (Type.Handle == ModuleHandle::None ||
          (Agreed.Handle != ModuleHandle::None && Agreed.Handle != Type.Handle))
        return {};
      if (Agreed.Handle == ModuleHandle::None)
        Agreed = Type;
    }
  }
  return Agreed;
}

} // namespace

void collectModuleMembers(MigrationContext &Ctx, const CXXRecordDecl &Record,
                          const ModuleAccess &Path, const ModuleVariableRule &Rule,
                          std::vector<ModuleToMove> &Out, const CXXRecordDecl *InConstructorOf) {
  if (Path.Fields.size() > 3)
    return;
  if (&Record != InConstructorOf && !buildingConstructors(Ctx, Record).empty())
    return; // its constructors move what they build
  for (const FieldDecl *Field : Record.fields()) {
    ModuleAccess Access = Path;
    Access.Fields.push_back(Field);
    ModuleType Type = memberModuleType(*Field);
    // Code creating the object cannot reach a private or protected member:
    // only its class's constructors can move it, and none this run migrates
    // builds it (`trainer.gen->to(device)` would not compile).
    if (!InConstructorOf && Field->getAccess() != AS_public) {
      if (Type.Handle != ModuleHandle::None && Type.Class && Rule.handles(*Type.Class))
        Rule.diag(Path.Var ? Path.Var->getLocation() : Field->getLocation(),
                  "module member '" + Field->getName().str() + "' of '" + Record.getNameAsString() +
                      "' is not public and no constructor of it in a file this run migrates "
                      "builds it: not moved (migrate the file defining its constructor too, "
                      "e.g. with --header-filter)");
      continue;
    }
    if (Type.Handle == ModuleHandle::None) {
      if (const CXXRecordDecl *Inner = Field->getType()->getAsCXXRecordDecl();
          Inner && isUserRecord(Inner) && !Field->getType()->isReferenceType())
        collectModuleMembers(Ctx, *Inner, Access, Rule, Out);
      continue;
    }
    if (!Type.Class || !Rule.handles(*Type.Class) || Field->getType().isConstQualified())
      continue;
    if (!InConstructorOf && mayStartEmpty(*Field, Type.Handle)) {
      Rule.diag(Field->getLocation(),
                "module member '" + Field->getName().str() +
                    "' may be empty when its object is created, and is not moved there; move "
                    "it with ->to(device) where it is assigned");
      continue;
    }
    Out.push_back({Access, Type.Handle, isLossModule(Type.Class)});
  }
}

} // namespace to_device_migrate
