#include "facts/ModuleInventory.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace to_device_migrate {

const ValueDecl *ModuleAccess::object() const {
  if (!Fields.empty())
    return Fields.back();
  return Var;
}

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
  if (const auto *Deref = dyn_cast<UnaryOperator>(Object); Deref && Deref->getOpcode() == UO_Deref)
    Object = Deref->getSubExpr()->IgnoreParenImpCasts();
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

ModuleAccess storedInto(const Expr *Target) {
  if (const auto *Element = Target ? dyn_cast<CXXOperatorCallExpr>(Target->IgnoreParenImpCasts()) : nullptr;
      Element && Element->getOperator() == OO_Subscript)
    Target = Element->getArg(0);
  return calledOn(Target);
}

ModuleSlotType memberSlotType(const FieldDecl &Field) {
  const auto *Record = dyn_cast<CXXRecordDecl>(Field.getParent());
  const ClassTemplateDecl *Template = Record ? Record->getDescribedClassTemplate() : nullptr;
  if (!Template || !Field.getType()->isDependentType())
    return classifyModuleSlot(Field.getType());
  ModuleSlotType Agreed;
  for (const ClassTemplateSpecializationDecl *Instance : Template->specializations()) {
    if (!Instance->hasDefinition())
      continue;
    for (const FieldDecl *Member : Instance->fields()) {
      if (Member->getName() != Field.getName())
        continue;
      ModuleSlotType Type = classifyModuleSlot(Member->getType());
      if (!Type.holdsModules() ||
          (Agreed.holdsModules() && (Agreed.Element.Handle != Type.Element.Handle ||
                                     Agreed.Pointer != Type.Pointer ||
                                     Agreed.Container != Type.Container)))
        return {};
      if (!Agreed.holdsModules())
        Agreed = Type;
    }
  }
  return Agreed;
}

namespace {

/// Strips what does not change which object an expression is: implicit
/// nodes, parentheses, temporaries, functional casts.
const Expr *stripped(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Next))
      Next = Cleanups->getSubExpr();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = Temporary->getSubExpr();
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = Bind->getSubExpr();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Next);
        Cast && !isa<InitListExpr>(Cast->getSubExpr()))
      Next = Cast->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

bool isNullValue(const Expr *E) {
  E = stripped(E);
  return E && (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E) ||
               (!E->getType().isNull() && E->getType()->isNullPtrType()) ||
               (isa<IntegerLiteral>(E) && cast<IntegerLiteral>(E)->getValue() == 0));
}

/// A null value, or a module holder made from one (`Linear(nullptr)`).
static bool isNullHolder(const Expr *E) {
  if (isNullValue(E))
    return true;
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(stripped(E));
  return Construct && Construct->getNumArgs() == 1 && isNullValue(Construct->getArg(0));
}

bool isNamedFunction(const FunctionDecl *F, llvm::ArrayRef<llvm::StringRef> Names) {
  return F && F->getIdentifier() && llvm::is_contained(Names, F->getName());
}

/// Is `Call` a call of register_module() or replace_module(), resolved or,
/// in a class template, still dependent (`register_module("fc", fc)` on
/// the template's own `this`)?
bool isRegistrationCall(const CallExpr &Call) {
  if (isNamedFunction(Call.getDirectCallee(), {"register_module", "replace_module"}))
    return true;
  const Expr *Callee = Call.getCallee() ? Call.getCallee()->IgnoreImplicit() : nullptr;
  std::string Name;
  if (const auto *Dependent = dyn_cast_or_null<CXXDependentScopeMemberExpr>(Callee))
    Name = Dependent->getMember().getAsString();
  else if (const auto *Unresolved = dyn_cast_or_null<OverloadExpr>(Callee))
    Name = Unresolved->getName().getAsString();
  return Name == "register_module" || Name == "replace_module";
}

/// Does `E` call register_module() (or register_parameter, replace_module)?
bool callsRegisterModule(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isRegistrationCall(*Call))
    return true;
  if (const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(S))
    if (Dependent->getMember().getAsString() == "register_module")
      return true;
  if (const auto *Unresolved = dyn_cast<UnresolvedMemberExpr>(S))
    if (Unresolved->getMemberName().getAsString() == "register_module")
      return true;
  for (const Stmt *Child : S->children())
    if (callsRegisterModule(Child))
      return true;
  return false;
}

/// A value that names a module some object already holds.
bool namesExistingModule(const Expr *E) {
  E = stripped(E);
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->getNumArgs() == 1)
    if (isNamedFunction(Call->getDirectCallee(), {"move", "ref", "cref"}))
      return namesExistingModule(Call->getArg(0));
  if (const auto *AddressOf = dyn_cast<UnaryOperator>(E);
      AddressOf && AddressOf->getOpcode() == UO_AddrOf)
    return true;
  if (isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr>(E))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star ||
           Op->getOperator() == OO_Arrow;
  return false;
}

/// Does `Call` derive its module from one the program holds (`net->clone()`,
/// `holder.ptr()`, `torch::jit::optimize_for_inference(module)`)? The result is
/// where that module is.
bool derivesFromHeldModule(const CallExpr &Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    if (classifyModuleSlot(Member->getImplicitObjectArgument()->getType()).holdsModules() ||
        classifyModuleType(Member->getImplicitObjectArgument()->getType()->getPointeeType())
                .Handle != ModuleHandle::None)
      return true;
  if (isa<CXXMemberCallExpr>(Call))
    return false;
  return llvm::any_of(Call.arguments(), [](const Expr *Arg) {
    return classifyModuleSlot(Arg->getType().getNonReferenceType()).holdsModules() &&
           namesExistingModule(Arg);
  });
}

} // namespace

bool namesParameter(const Expr *Value) {
  for (int Depth = 0; Value && Depth < 8; ++Depth) {
    Value = stripped(Value);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Value))
      return isa<ParmVarDecl>(Ref->getDecl());
    if (const auto *Call = dyn_cast<CallExpr>(Value);
        Call && Call->getNumArgs() == 1 && isNamedFunction(Call->getDirectCallee(), {"move"}))
      Value = Call->getArg(0);
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
             Construct && Construct->getNumArgs() == 1)
      Value = Construct->getArg(0);
    else if (const auto *List = dyn_cast<ParenListExpr>(Value); List && List->getNumExprs() == 1)
      Value = List->getExpr(0);
    else if (const auto *Unresolved = dyn_cast<CXXUnresolvedConstructExpr>(Value);
             Unresolved && Unresolved->getNumArgs() == 1)
      Value = Unresolved->getArg(0);
    else
      return false;
  }
  return false;
}

StoredModule classifyStoredModule(const Expr *Value, const ModuleSlotType &Type) {
  if (!Value) {
    if (Type.Pointer || Type.Container != ModuleContainer::None)
      return StoredModule::Empty;
    switch (Type.Element.Handle) {
    case ModuleHandle::Object:
    case ModuleHandle::Holder:
      return StoredModule::New;
    default:
      return StoredModule::Empty;
    }
  }
  if (callsRegisterModule(Value))
    return StoredModule::Registered;
  const Expr *E = stripped(Value);
  if (isNullValue(E))
    return StoredModule::Empty;
  if (const auto *Choice = dyn_cast<ConditionalOperator>(E)) {
    StoredModule True = classifyStoredModule(Choice->getTrueExpr(), Type);
    StoredModule False = classifyStoredModule(Choice->getFalseExpr(), Type);
    return True == StoredModule::New || False == StoredModule::New ? StoredModule::New : True;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Construct->getArg(0)))
      return classifyStoredModule(nullptr, Type);
    // `Linear fc{nullptr}`, `Net net(other)` (a handle copy), `Net(cfg)`.
    if (Construct->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(Construct)) {
      const Expr *Arg = Construct->getArg(0);
      if (isNullValue(Arg))
        return StoredModule::Empty;
      if (classifyModuleSlot(Arg->getType().getNonReferenceType()).holdsModules())
        return classifyStoredModule(Arg, Type);
    }
    if (Construct->getConstructor()->isCopyOrMoveConstructor())
      return classifyStoredModule(Construct->getArg(0), Type);
    // `std::vector<Linear> layers{n, nullptr}`: a count of empty holders.
    if (Type.Container != ModuleContainer::None && Construct->getNumArgs() == 2 &&
        isNullHolder(Construct->getArg(1)))
      return StoredModule::Empty;
    return StoredModule::New;
  }
  if (isa<InitListExpr, ParenListExpr>(E)) {
    llvm::ArrayRef<Expr *> Inits =
        isa<InitListExpr>(E)
            ? cast<InitListExpr>(E)->inits()
            : const_cast<ParenListExpr *>(cast<ParenListExpr>(E))->exprs();
    if (Inits.size() == 1 && isNullValue(Inits[0]))
      return StoredModule::Empty;
    return Inits.empty() ? classifyStoredModule(nullptr, Type) : StoredModule::New;
  }
  if (isa<CXXNewExpr>(E))
    return StoredModule::New;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (!Call->isPRValue()) // returns a reference: a module held elsewhere
      return StoredModule::Existing;
    return derivesFromHeldModule(*Call) ? StoredModule::Existing : StoredModule::New;
  }
  if (namesExistingModule(E))
    return StoredModule::Existing;
  // `dynamic_cast<LinearImpl *>(module.get())`: a pointer cast makes no
  // module; it points to one its owner holds and places.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E); Cast && Cast->getType()->isPointerType())
    return isa<CXXNewExpr>(stripped(Cast->getSubExpr())) ? StoredModule::New : StoredModule::Existing;
  // Anything else makes a module: dependent code in a template (`Module()`,
  // `std::make_shared<M>(...)`), a lambda's result, a cast.
  return StoredModule::New;
}

namespace {

/// True if `F` is a template's pattern that this translation unit
/// instantiates: its instantiations (which the parse hands over as top-level
/// declarations, with the pattern's locations) say precisely what its
/// dependent code does, so the pattern itself is not looked at.
bool isInstantiatedPattern(const FunctionDecl *F) {
  if (!F || !F->isDependentContext())
    return false;
  if (const FunctionTemplateDecl *Template = F->getDescribedFunctionTemplate())
    return llvm::any_of(Template->specializations(),
                        [](const FunctionDecl *Spec) { return Spec->hasBody(); });
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  const ClassTemplateDecl *Class =
      Method ? Method->getParent()->getDescribedClassTemplate() : nullptr;
  if (!Class)
    return isInstantiatedPattern(dyn_cast_or_null<FunctionDecl>(F->getParent()));
  for (const ClassTemplateSpecializationDecl *Spec : Class->specializations())
    for (const CXXMethodDecl *Instance : Spec->methods())
      if (Instance->getTemplateInstantiationPattern() == F && Instance->hasBody())
        return true;
  return false;
}

/// Finds every store into a module object (ModuleStore), in source order.
class StoreCollector : public RecursiveASTVisitor<StoreCollector> {
public:
  explicit StoreCollector(ASTContext &Ast) : Ast(Ast) {}

  /// An instantiated template's pattern is looked at through its instantiations.
  bool TraverseFunctionDecl(FunctionDecl *F) {
    return isInstantiatedPattern(F) || RecursiveASTVisitor::TraverseFunctionDecl(F);
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) {
    return isInstantiatedPattern(F) || RecursiveASTVisitor::TraverseCXXMethodDecl(F);
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *F) {
    return isInstantiatedPattern(F) || RecursiveASTVisitor::TraverseCXXConstructorDecl(F);
  }

  bool VisitVarDecl(VarDecl *Var) {
    if (isa<ParmVarDecl>(Var) || Var->isImplicit())
      return true;
    ModuleSlotType Type = classifyModuleSlot(Var->getType());
    if (!Type.holdsModules())
      return true;
    ModuleStore Store;
    Store.StoreKind = ModuleStore::Kind::Declaration;
    Store.Type = Type;
    Store.Access.Var = Var;
    Store.Var = Var;
    Store.Value = Var->getInit();
    DynTypedNodeList Parents = Ast.getParents(*Var);
    Store.Site = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    Store.Stored = classifyStoredModule(Store.Value, Type);
    Stores.push_back(std::move(Store));
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() == BO_Assign)
      assignment(*Op, Op->getLHS(), Op->getRHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      assignment(*Op, Op->getArg(0), Op->getArg(1));
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    const Expr *Object = Call->getImplicitObjectArgument();
    if (!Method || !Method->getIdentifier() || !Object)
      return true;
    ModuleSlotType Type = classifyModuleSlot(Object->getType());
    if (Object->getType()->isPointerType()) // `layers->push_back(...)` on a pointer to a vector
      Type = classifyModuleSlot(Object->getType()->getPointeeType());
    llvm::StringRef Name = Method->getName();
    ModuleStore Store;
    Store.Type = Type;
    Store.Target = Object;
    Store.Access = calledOn(Object);
    Store.Site = Call;
    if (Type.Container != ModuleContainer::None &&
        llvm::is_contained({"push_back", "emplace_back", "push_front", "emplace_front", "insert",
                            "emplace", "try_emplace"},
                           Name) &&
        Call->getNumArgs() > 0) {
      Store.StoreKind = ModuleStore::Kind::Append;
      const Expr *Last = Call->getArg(Call->getNumArgs() - 1);
      const bool Emplaced = Name.contains("emplace");
      // emplace_back(args...) constructs the module in place from its arguments.
      if (!Emplaced ||
          classifyModuleSlot(Last->getType().getNonReferenceType()).Element.Handle ==
              Type.Element.Handle)
        Store.Value = Last;
      ModuleSlotType Element = Type;
      Element.Container = ModuleContainer::None;
      Store.Stored = Store.Value ? classifyStoredModule(Store.Value, Element)
                                 : (callsRegisterModule(Call) ? StoredModule::Registered
                                                              : StoredModule::New);
      Stores.push_back(std::move(Store));
      return true;
    }
    if (Type.Container == ModuleContainer::None && !Type.Pointer && Name == "reset" &&
        (Type.Element.Handle == ModuleHandle::SharedPtr ||
         Type.Element.Handle == ModuleHandle::UniquePtr) &&
        Call->getNumArgs() == 1) {
      Store.StoreKind = ModuleStore::Kind::Reset;
      Store.Value = Call->getArg(0);
      Store.Stored = classifyStoredModule(Store.Value, Type);
      Stores.push_back(std::move(Store));
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() < 2 || !isNamed(Callee, "torch::load"))
      return true;
    const Expr *Target = Call->getArg(0);
    ModuleSlotType Type = classifyModuleSlot(Target->getType().getNonReferenceType());
    if (!Type.holdsModules() || Type.Container != ModuleContainer::None)
      return true;
    ModuleStore Store;
    Store.StoreKind = ModuleStore::Kind::Load;
    Store.Type = Type;
    Store.Target = Target;
    Store.Access = calledOn(Target);
    Store.Site = Call;
    Store.Stored = StoredModule::New;
    Stores.push_back(std::move(Store));
    return true;
  }

  std::vector<ModuleStore> Stores;

private:
  void assignment(const Expr &Site, const Expr *Target, const Expr *Value) {
    ModuleSlotType Type = classifyModuleSlot(Target->getType());
    if (!Type.holdsModules() && Target->getType()->isDependentType())
      if (const auto *Member = dyn_cast<MemberExpr>(Target->IgnoreParenImpCasts()))
        if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
          Type = memberSlotType(*Field);
    if (!Type.holdsModules())
      return;
    ModuleStore Store;
    Store.StoreKind = ModuleStore::Kind::Assignment;
    Store.Type = Type;
    Store.Target = Target;
    Store.Access = calledOn(Target);
    Store.Value = Value;
    Store.Site = &Site;
    Store.Stored = classifyStoredModule(Value, Type);
    Stores.push_back(std::move(Store));
  }

  ASTContext &Ast;
};

/// The expression an occurrence of a module reaches it through, climbing
/// what does not change the object: implicit nodes, `->` and `*` of a
/// holder or pointer, `.get()` / `.ptr()`.
const Expr *outerReach(ASTContext &Ast, const Expr &E) {
  const Expr *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    const auto *Parent = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Parent)
      return Current;
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr>(Parent)) {
      Current = Parent;
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent);
        Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
        Op->getNumArgs() && Op->getArg(0)->IgnoreParenImpCasts() == Current->IgnoreParenImpCasts()) {
      Current = Parent;
      continue;
    }
    if (const auto *Deref = dyn_cast<UnaryOperator>(Parent); Deref && Deref->getOpcode() == UO_Deref) {
      Current = Parent;
      continue;
    }
    return Current;
  }
}

/// The member call `E` is the object of (`E->load(...)`, `E.eval()`), if any.
const CXXMemberCallExpr *memberCallOn(ASTContext &Ast, const Expr &E, const MemberExpr *&Member) {
  DynTypedNodeList Parents = Ast.getParents(E);
  Member = Parents.empty() ? nullptr : Parents[0].get<MemberExpr>();
  if (!Member)
    return nullptr;
  DynTypedNodeList Calls = Ast.getParents(*Member);
  return Calls.empty() ? nullptr : Calls[0].get<CXXMemberCallExpr>();
}

/// Does `S` write a tensor in place (`p.copy_(w)`, `w.normal_()`,
/// `p.set_data(...)`, `torch::nn::init::xavier_uniform_(w)`)?
bool writesTensors(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *Method = Call->getMethodDecl();
        Method && Method->getIdentifier() && isTensorType(Call->getImplicitObjectArgument()->getType()) &&
        (compat::endsWith(Method->getName(), "_") || Method->getName() == "set_data"))
      return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = Call->getDirectCallee(); F && isInNamespace(F, {"torch::nn::init"}))
      return true;
  for (const Stmt *Child : S->children())
    if (writesTensors(Child))
      return true;
  return false;
}

/// Does `S` compute a tensor (a call that gives one)?
bool computesTensors(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isTensorType(Call->getType()))
    return true;
  return llvm::any_of(S->children(), computesTensors);
}

/// `net.hiddenSize()`: the program's member function answers a question about
/// the module with a number, from no argument, and computes no tensor to do
/// so. Asking it before the module is complete (to size a new head) is not a
/// use that needs the module on the device.
bool answersWithoutTensors(const CXXMethodDecl &Method) {
  const FunctionDecl *Definition = Method.getDefinition();
  return Definition && !isLibraryDecl(&Method) && Method.getNumParams() == 0 &&
         (Method.getReturnType()->isArithmeticType() || Method.getReturnType()->isEnumeralType()) &&
         !computesTensors(Definition->getBody());
}

enum class Mention { Initialisation, PinToCpu, Neutral, Use };

/// How the occurrence `E` of a module (an expression reaching it) is used in
/// the statement `S`.
Mention classifyMention(ASTContext &Ast, const Expr &E, const Stmt &S,
                        const ModuleCallFacts &ByCall) {
  const Expr *Reach = outerReach(Ast, E);
  DynTypedNodeList Parents = Ast.getParents(*Reach);
  if (Parents.empty())
    return Mention::Use;
  if (const auto *Call = Parents[0].get<CallExpr>(); Call && !isa<CXXMemberCallExpr>(Call)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      if (Call->getArg(I)->IgnoreParenImpCasts() != Reach->IgnoreParenImpCasts())
        continue;
      if (Callee && I == 0 && isNamed(Callee, "torch::load"))
        return Mention::Initialisation;
      if (Callee && ByCall.InitialisesParameter && ByCall.InitialisesParameter(*Callee, I))
        return Mention::Initialisation;
    }
    return Mention::Use;
  }
  const MemberExpr *Member = nullptr;
  if (const CXXMemberCallExpr *Call = memberCallOn(Ast, *Reach, Member)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    llvm::StringRef Name = Method && Method->getIdentifier() ? Method->getName() : "";
    if (llvm::is_contained({"load", "push_back", "emplace_back", "push_front", "emplace_front",
                            "insert", "emplace", "extend", "apply", "register_module",
                            "replace_module", "register_parameter", "register_buffer"},
                           Name))
      return Mention::Initialisation;
    if (Name == "to") {
      if (!Call->getNumArgs())
        return Mention::Neutral;
      const Expr *Where = ignoreConversions(Call->getArg(0));
      if (namesOnlyTheCpu(*Where))
        return Mention::PinToCpu;
      return isDeviceExpression(*Where) ? Mention::Use : Mention::Neutral;
    }
    if (llvm::is_contained({"eval", "train", "double", "float", "half", "reserve", "size"}, Name) ||
        (Method && answersWithoutTensors(*Method)) ||
        (Method && ByCall.OnlyAsks && Method->getNumParams() == 0 && !isLibraryDecl(Method) &&
         ByCall.OnlyAsks(*Method)))
      return Mention::Neutral;
    if (llvm::is_contained({"parameters", "named_parameters", "buffers", "named_buffers",
                            "children", "named_children", "modules", "named_modules"},
                           Name))
      return writesTensors(&S) ? Mention::Initialisation : Mention::Use;
    // `net.loadModel(path)`: a member function that loads into its object.
    if (Method && ByCall.InitialisesParameter && ByCall.InitialisesParameter(*Method, ObjectParameter))
      return Mention::Initialisation;
    return Mention::Use;
  }
  if (Member && isa<FieldDecl>(Member->getMemberDecl())) {
    // `net->fc = Linear(...)` (a head replaced), `net->fc->weight.copy_(w)`.
    const Expr *Chain = Member;
    while (true) {
      DynTypedNodeList Up = Ast.getParents(*Chain);
      const auto *Parent = Up.empty() ? nullptr : Up[0].get<Expr>();
      if (!Parent || !isa<MemberExpr, ImplicitCastExpr, ParenExpr, CXXOperatorCallExpr>(Parent))
        break;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent)) {
        if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
            Op->getArg(0)->IgnoreParenImpCasts() == Chain->IgnoreParenImpCasts())
          return Mention::Initialisation;
        if (Op->getOperator() != OO_Arrow)
          break;
      }
      Chain = Parent;
    }
    DynTypedNodeList ChainUsers = Ast.getParents(*Chain);
    if (const auto *Assign = ChainUsers.empty() ? nullptr : ChainUsers[0].get<BinaryOperator>();
        Assign && Assign->getOpcode() == BO_Assign &&
        Assign->getLHS()->IgnoreParenImpCasts() == Chain->IgnoreParenImpCasts())
      return Mention::Initialisation;
    // `torch::load(net->stem, path)`: a part of it restored.
    if (const auto *Load = ChainUsers.empty() ? nullptr : ChainUsers[0].get<CallExpr>();
        Load && Load->getNumArgs() && isNamed(Load->getDirectCallee(), "torch::load") &&
        Load->getArg(0)->IgnoreParenImpCasts() == Chain->IgnoreParenImpCasts())
      return Mention::Initialisation;
    return writesTensors(&S) ? Mention::Initialisation : Mention::Use;
  }
  return Mention::Use;
}

/// Calls `Found` with every expression in `S` that reaches `Module` (the
/// outermost member access of its path, or the variable). A function_ref, not
/// a template parameter: one RecursiveASTVisitor instantiation for all callers
/// (each is thousands of functions to compile).
void forEachMention(const Stmt &S, const ModuleAccess &Module,
                    llvm::function_ref<void(const Expr &)> Found) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ModuleAccess &Module;
    llvm::function_ref<void(const Expr &)> Found;
    Finder(const ModuleAccess &Module, llvm::function_ref<void(const Expr &)> Found)
        : Module(Module), Found(Found) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Module.Fields.empty() && Ref->getDecl() == Module.Var)
        Found(*Ref);
      return true;
    }
    bool VisitMemberExpr(MemberExpr *Member) {
      if (!Module.Fields.empty() && Member->getMemberDecl()->getName() == Module.Fields.back()->getName() &&
          calledOn(Member) == Module)
        Found(*Member);
      return true;
    }
  } F(Module, Found);
  F.TraverseStmt(const_cast<Stmt *>(&S));
}

} // namespace

std::vector<ModuleStore> collectModuleStores(ASTContext &Ast, llvm::ArrayRef<Decl *> Decls) {
  StoreCollector Collector(Ast);
  for (Decl *D : Decls)
    Collector.TraverseDecl(D);
  return std::move(Collector.Stores);
}

bool initialisesModule(ASTContext &Ast, const Stmt &S, const ModuleAccess &Module,
                       const ModuleCallFacts &ByCall) {
  return roleOf(Ast, S, Module, ByCall) == StatementRole::Initialises;
}

StatementRole roleOf(ASTContext &Ast, const Stmt &S, const ModuleAccess &Module,
                     const ModuleCallFacts &ByCall) {
  bool Initialises = false, Pins = false, Used = false;
  forEachMention(S, Module, [&](const Expr &E) {
    switch (classifyMention(Ast, E, S, ByCall)) {
    case Mention::Initialisation:
      Initialises = true;
      break;
    case Mention::PinToCpu:
      Pins = true;
      break;
    case Mention::Neutral:
      break;
    case Mention::Use:
      Used = true;
      break;
    }
  });
  return Used           ? StatementRole::Uses
         : Initialises  ? StatementRole::Initialises
         : Pins         ? StatementRole::PinsToCpu
                        : StatementRole::Asks;
}

bool hasInitialisation(ASTContext &Ast, const Stmt &Body, const ModuleAccess &Module) {
  bool Found = false;
  // Each statement of the body is its own context for "writes tensors".
  std::function<void(const Stmt &)> Visit = [&](const Stmt &S) {
    if (Found)
      return;
    if (isa<CompoundStmt>(S)) {
      for (const Stmt *Child : S.children())
        if (Child)
          Visit(*Child);
      return;
    }
    forEachMention(S, Module, [&](const Expr &E) {
      Found |= classifyMention(Ast, E, S, ModuleCallFacts{}) == Mention::Initialisation;
    });
  };
  Visit(Body);
  return Found;
}

namespace {

/// The expression `E` is part of, past what does not change its value.
const Stmt *userOfValue(ASTContext &Ast, const Expr &E) {
  const Expr *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    if (Parents.empty())
      return nullptr;
    const auto *Parent = Parents[0].get<Expr>();
    if (!Parent || !isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                        ExprWithCleanups>(Parent)) {
      if (const auto *Var = Parents[0].get<VarDecl>())
        return Ast.getParents(*Var).empty() ? nullptr : Ast.getParents(*Var)[0].get<Stmt>();
      return Parents[0].get<Stmt>();
    }
    Current = Parent;
  }
}

/// Is the value `E` (a module's parameters) handed to a function or a
/// constructor (an optimizer), directly or through the local variable it
/// initialises?
bool isHandedToCall(ASTContext &Ast, const Expr &E, const Stmt &Body) {
  const Stmt *User = userOfValue(Ast, E);
  if (User && (isa<CXXConstructExpr>(User) ||
               (isa<CallExpr>(User) && !isa<CXXOperatorCallExpr, CXXMemberCallExpr>(User))))
    return true;
  const auto *Declaration = dyn_cast_or_null<DeclStmt>(User);
  if (!Declaration || !Declaration->isSingleDecl())
    return false;
  const auto *Var = dyn_cast<VarDecl>(Declaration->getSingleDecl());
  bool Handed = false;
  ModuleAccess Local;
  Local.Var = Var;
  forEachMention(Body, Local, [&](const Expr &Ref) {
    const Stmt *RefUser = userOfValue(Ast, Ref);
    Handed |= RefUser && (isa<CXXConstructExpr>(RefUser) ||
                          (isa<CallExpr>(RefUser) &&
                           !isa<CXXOperatorCallExpr, CXXMemberCallExpr>(RefUser)));
  });
  return Handed;
}

} // namespace

bool isOnlyReadOnHost(ASTContext &Ast, const VarDecl &Var, const Stmt &Body) {
  bool Read = false, Other = false;
  ModuleAccess Module;
  Module.Var = &Var;
  forEachMention(Body, Module, [&](const Expr &E) {
    const Expr *Reach = outerReach(Ast, E);
    DynTypedNodeList Parents = Ast.getParents(*Reach);
    if (const auto *Call = Parents.empty() ? nullptr : Parents[0].get<CallExpr>();
        Call && !isa<CXXMemberCallExpr>(Call) && Call->getNumArgs() &&
        isNamed(Call->getDirectCallee(), "torch::load") &&
        Call->getArg(0)->IgnoreParenImpCasts() == Reach->IgnoreParenImpCasts())
      return;
    const MemberExpr *Member = nullptr;
    const CXXMemberCallExpr *Call = memberCallOn(Ast, *Reach, Member);
    const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
    llvm::StringRef Name = Method && Method->getIdentifier() ? Method->getName() : "";
    if (llvm::is_contained({"parameters", "named_parameters", "buffers", "named_buffers"}, Name))
      (isHandedToCall(Ast, *Call, Body) ? Other : Read) = true;
    else if (!llvm::is_contained({"eval", "train", "load"}, Name))
      Other = true;
  });
  // Its weights read, and copied somewhere: pretrained weights for another model.
  return Read && !Other && writesTensors(&Body);
}

bool mentionsModule(const Stmt &S, const ModuleAccess &Module) {
  bool Found = false;
  forEachMention(S, Module, [&](const Expr &) { Found = true; });
  return Found;
}

bool startsThread(const Stmt &S) {
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(&S))
    if (const CXXRecordDecl *Class = Construct->getConstructor()->getParent();
        isNamed(Class, "std::thread") || isNamed(Class, "std::jthread"))
      return true;
  if (const auto *Call = dyn_cast<CallExpr>(&S))
    if (const FunctionDecl *F = Call->getDirectCallee();
        F && (isNamed(F, "std::async") || isNamed(F, "pthread_create")))
      return true;
  for (const Stmt *Child : S.children())
    if (Child && startsThread(*Child))
      return true;
  return false;
}

namespace {

/// Does `S` ask its own object for its tensors (`named_parameters()`,
/// `this->buffers()`)?
bool readsOwnTensors(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *Callee = Call->getMethodDecl();
        Callee && Callee->getIdentifier() &&
        llvm::is_contained({"parameters", "named_parameters", "buffers", "named_buffers"},
                           Callee->getName()) &&
        isa<CXXThisExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      return true;
  return llvm::any_of(S->children(), readsOwnTensors);
}

} // namespace

namespace {

/// `p` and `*p`'s type alike, for `p->set_data(w)` and `t.set_data(w)`.
QualType pointeeOrSelf(QualType Type) {
  return Type->isPointerType() ? Type->getPointeeType() : Type;
}

} // namespace

bool initialisesItsObject(const CXXMethodDecl &Method) {
  if (!Method.hasBody() || !isOrDerivesFrom(Method.getParent(), "torch::nn::Module"))
    return false;
  std::function<bool(const Stmt *)> Loads = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    // `for (auto &p : named_parameters()) p.value().copy_(w)`: pretrained
    // weights copied into its own parameters, one statement of a block.
    if (const auto *Block = dyn_cast<CompoundStmt>(S))
      for (const Stmt *Statement : Block->body())
        if (readsOwnTensors(Statement) && writesTensors(Statement))
          return true;
    // `this->load(archive)`; a submodule replaced (`replace_module(name,
    // head)`, a new head for transfer learning).
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
      if (const CXXMethodDecl *Callee = Call->getMethodDecl();
          Callee && Callee->getIdentifier() &&
          llvm::is_contained({"load", "replace_module"}, Callee->getName()) &&
          isa<CXXThisExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts()))
        return true;
    // `conv->weight.set_data(w)`, `p->set_data(w)`: a module's own method
    // giving tensors new data gives it to its parameters (weights read from
    // a file), however it reaches them (`dynamic_cast` over its module list,
    // pointers to each parameter). (A `copy_` into them is also a target
    // network's update in a training loop: not counted.)
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
      if (const CXXMethodDecl *Callee = Call->getMethodDecl();
          Callee && Callee->getIdentifier() && Callee->getName() == "set_data" &&
          isTensorType(pointeeOrSelf(
              Call->getImplicitObjectArgument()->IgnoreParenImpCasts()->getType())))
        return true;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && Call->getNumArgs() && isNamed(Call->getDirectCallee(), "torch::load"))
      if (const auto *Deref = dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts());
          Deref && Deref->getOpcode() == UO_Deref &&
          isa<CXXThisExpr>(Deref->getSubExpr()->IgnoreParenImpCasts()))
        return true;
    for (const Stmt *Child : S->children())
      if (Loads(Child))
        return true;
    return false;
  };
  return Loads(Method.getBody());
}

bool isRegisteredSubmodule(const FieldDecl &Field) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Field.getParent());
  if (!Class)
    return false;
  bool Found = false;
  std::function<void(const Stmt *, bool)> Visit = [&](const Stmt *S, bool InRegistration) {
    if (!S || Found)
      return;
    if (InRegistration)
      if (const auto *Member = dyn_cast<MemberExpr>(S);
          Member && Member->getMemberDecl()->getName() == Field.getName())
        Found = true;
    bool Registers = false;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Registers = isRegistrationCall(*Call);
    for (const Stmt *Child : S->children())
      Visit(Child, InRegistration || Registers);
  };
  for (const Decl *Member : Class->decls()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Member);
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member))
      Method = dyn_cast<CXXMethodDecl>(Template->getTemplatedDecl());
    const FunctionDecl *Definition = nullptr;
    if (!Method || !Method->hasBody(Definition))
      continue;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        Visit(Init->getInit(), false);
    Visit(Definition->getBody(), false);
  }
  return Found;
}

} // namespace to_device_migrate
