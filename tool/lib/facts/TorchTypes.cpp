#include "facts/TorchTypes.h"
#include "facts/TorchOps.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/CXXInheritance.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

const CXXRecordDecl *recordOf(QualType Type) {
  if (Type.isNull())
    return nullptr;
  Type = Type.getNonReferenceType().getCanonicalType();
  if (const auto *RT = Type->getAs<RecordType>())
    return dyn_cast<CXXRecordDecl>(RT->getDecl());
  return nullptr;
}

/// True if `Node` matches `Matcher` on its own: for questions about one
/// declaration, asked while the rules' matchers run over the file.
template <typename MatcherT, typename NodeT>
bool matchesNode(const MatcherT &Matcher, const NodeT &Node) {
  return !match(Matcher, Node, Node.getASTContext()).empty();
}

/// The record a type argument of `Bound` names.
const CXXRecordDecl *boundRecord(const SmallVectorImpl<BoundNodes> &Matches, StringRef Bound) {
  if (Matches.empty())
    return nullptr;
  const auto *Type = Matches.front().getNodeAs<QualType>(Bound);
  return Type ? recordOf(*Type) : nullptr;
}

/// For `std::shared_ptr<T>` (or `std::unique_ptr<T>` with `Template`
/// "::std::unique_ptr") returns T's record, otherwise null.
const CXXRecordDecl *smartPointee(const CXXRecordDecl *RD, StringRef Template) {
  if (!RD || !isa<ClassTemplateSpecializationDecl>(RD) || RD->getName() != Template.substr(7))
    return nullptr;
  const auto Pointer = classTemplateSpecializationDecl(
      hasName(Template), hasTemplateArgument(0, refersToType(qualType().bind("T"))));
  return boundRecord(match(Pointer, *RD, RD->getASTContext()), "T");
}

/// The type argument `Index` of a specialization of one of `Templates`.
QualType templateArgument(const CXXRecordDecl *RD, llvm::ArrayRef<StringRef> Templates,
                          unsigned Index) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() <= Index ||
      Spec->getTemplateArgs()[Index].getKind() != TemplateArgument::Type ||
      llvm::none_of(Templates, [&](StringRef Name) { return isNamed(Spec, Name); }))
    return QualType();
  return Spec->getTemplateArgs()[Index].getAsType();
}

/// For a class derived from `torch::nn::ModuleHolder<Impl>` returns Impl.
const CXXRecordDecl *holderImpl(const CXXRecordDecl *RD) {
  static const auto Holder = cxxRecordDecl(isSameOrDerivedFrom(classTemplateSpecializationDecl(
      hasName("::torch::nn::ModuleHolder"),
      hasTemplateArgument(0, refersToType(qualType().bind("Impl"))))));
  if (!RD || !RD->hasDefinition())
    return nullptr;
  return boundRecord(match(Holder, *RD->getDefinition(), RD->getASTContext()), "Impl");
}

} // namespace

bool isNamed(const NamedDecl *D, StringRef QualifiedName) {
  // The unqualified name first: most declarations asked about are not it, and
  // that answer needs no matcher.
  const size_t Colons = QualifiedName.rfind("::");
  const StringRef Unqualified =
      Colons == StringRef::npos ? QualifiedName : QualifiedName.drop_front(Colons + 2);
  if (!D || !D->getIdentifier() || D->getName() != Unqualified)
    return false;
  return matchesNode(namedDecl(hasName(("::" + QualifiedName).str())), *D);
}

bool isOrDerivesFrom(const CXXRecordDecl *Class, StringRef Base) {
  if (!Class || !Class->hasDefinition())
    return isNamed(Class, Base);
  return matchesNode(cxxRecordDecl(isSameOrDerivedFrom(hasName(("::" + Base).str()))),
                     *Class->getDefinition());
}

bool exposesModuleInterface(const CXXRecordDecl *Class) {
  if (!Class || !Class->hasDefinition())
    return true;
  CXXBasePaths Paths(/*FindAmbiguities=*/false, /*RecordPaths=*/true, /*DetectVirtual=*/false);
  const bool Derives = Class->getDefinition()->lookupInBases(
      [](const CXXBaseSpecifier *Base, CXXBasePath &) {
        return isNamed(Base->getType()->getAsCXXRecordDecl(), "torch::nn::Module");
      },
      Paths);
  return !Derives || llvm::any_of(Paths, [](const CXXBasePath &Path) { return Path.Access == AS_public; });
}

ModuleType classifyModuleType(QualType Type) {
  if (Type.isNull() || Type->isReferenceType() || Type->isPointerType())
    return {};
  const CXXRecordDecl *RD = recordOf(Type);
  if (!RD)
    return {};
  for (auto [Template, Handle] : {std::pair{"::std::shared_ptr", ModuleHandle::SharedPtr},
                                  std::pair{"::std::unique_ptr", ModuleHandle::UniquePtr}})
    if (const CXXRecordDecl *Pointee = smartPointee(RD, Template)) {
      if (isOrDerivesFrom(Pointee, "torch::nn::Module"))
        return ModuleType{Handle, Pointee};
      if (isOrDerivesFrom(Pointee, "torch::jit::Module"))
        return ModuleType{Handle, nullptr, /*Script=*/true};
      return {};
    }
  if (const CXXRecordDecl *Impl = holderImpl(RD))
    return ModuleType{ModuleHandle::Holder, Impl};
  if (isOrDerivesFrom(RD, "torch::nn::Module"))
    return ModuleType{ModuleHandle::Object, RD};
  if (isNamed(RD, "torch::nn::AnyModule"))
    return ModuleType{ModuleHandle::AnyModule, nullptr};
  if (isOrDerivesFrom(RD, "torch::jit::Module"))
    return ModuleType{ModuleHandle::Script, nullptr, /*Script=*/true};
  return {};
}

ModuleSlotType classifyModuleSlot(QualType Type) {
  ModuleSlotType Slot;
  if (Type.isNull() || Type->isReferenceType())
    return Slot;
  if (Type->isPointerType()) {
    Slot.Element = classifyModuleType(Type->getPointeeType());
    Slot.Pointer = Slot.holdsModules();
    return Slot;
  }
  if ((Slot.Element = classifyModuleType(Type)).Handle != ModuleHandle::None)
    return Slot;
  const CXXRecordDecl *RD = recordOf(Type);
  if (QualType Element = templateArgument(
          RD, {"std::vector", "std::array", "std::deque", "std::list"}, 0);
      !Element.isNull()) {
    Slot.Element = classifyModuleType(Element);
    Slot.Container = ModuleContainer::Sequence;
  } else if (QualType Value = templateArgument(RD, {"std::map", "std::unordered_map"}, 1);
             !Value.isNull()) {
    Slot.Element = classifyModuleType(Value);
    Slot.Container = ModuleContainer::Map;
  }
  if (!Slot.holdsModules())
    Slot.Container = ModuleContainer::None;
  return Slot;
}

bool isLossModule(const CXXRecordDecl *Class) {
  if (!Class)
    return false;
  StringRef Name = Class->getName();
  if (compat::endsWith(Name, "LossImpl") || compat::endsWith(Name, "Loss"))
    return true;
  if (!Class->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &B : Class->getDefinition()->bases()) {
    const CXXRecordDecl *Base = recordOf(B.getType());
    // Skip the generic bases every module has (Cloneable<T>, Module).
    if (Base && !isNamed(Base, "torch::nn::Module") && isLossModule(Base))
      return true;
  }
  return false;
}

bool isInsideModuleMember(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *Method = dyn_cast<CXXMethodDecl>(DC))
      if (isOrDerivesFrom(Method->getParent(), "torch::nn::Module"))
        return true;
    if (const auto *Record = dyn_cast<CXXRecordDecl>(DC))
      if (!Record->isLambda() && isOrDerivesFrom(Record, "torch::nn::Module"))
        return true;
  }
  return false;
}

namespace {
/// Whether `S` names the CPU (kCPU, "cpu") and nothing that could pick another
/// device: no call, no conditional, no other variable but a device parameter
/// every call of the program hands the CPU (`IsCpu`).
bool namesOnlyCpu(const Stmt *S, bool &SawCpu, CpuDevices IsCpu = {}) {
  if (!S)
    return true;
  if (isa<CallExpr>(S) || isa<AbstractConditionalOperator>(S))
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    if (isNamed(Ref->getDecl(), "c10::kCPU") ||
        isNamed(Ref->getDecl(), "c10::DeviceType::CPU"))
      return SawCpu = true;
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()); Param && IsCpu && IsCpu(*Param))
      return SawCpu = true;
    return false;
  }
  // `torch::TensorOptions(device)` with a device member the program gives
  // only the CPU (asked of the program, not of the member's initialisers
  // here: those may name other members).
  if (const auto *Member = dyn_cast<MemberExpr>(S))
    if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
        Field && isDeviceType(Field->getType()))
      return IsCpu && IsCpu(*Field) && (SawCpu = true);
  if (const auto *Text = dyn_cast<StringLiteral>(S)) {
    SawCpu |= Text->getString() == "cpu";
    return Text->getString() == "cpu";
  }
  for (const Stmt *Child : S->children())
    if (!namesOnlyCpu(Child, SawCpu, IsCpu))
      return false;
  return true;
}
} // namespace

bool isPinnedToCpu(const VarDecl &Device) {
  bool SawCpu = false;
  return Device.hasInit() && namesOnlyCpu(Device.getInit(), SawCpu) && SawCpu;
}

namespace {
/// True for a device member every constructor and its default initialiser
/// set to the CPU alone, which no method of its class assigns: a buffer the
/// program keeps on the host by choice (`device_(torch::kCPU)`).
bool isFieldPinnedToCpu(const FieldDecl &Field) {
  if (!isDeviceType(Field.getType()))
    return false;
  bool SawCpu = false;
  if (Field.hasInClassInitializer() && !namesOnlyCpu(Field.getInClassInitializer(), SawCpu))
    return false;
  const auto *Class = dyn_cast<CXXRecordDecl>(Field.getParent());
  if (!Class || !Class->hasDefinition())
    return false;
  ASTContext &Ast = Field.getASTContext();
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Definition = nullptr;
    if (!Method->hasBody(Definition))
      continue;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() == &Field && Init->isWritten() && !namesOnlyCpu(Init->getInit(), SawCpu))
          return false;
    const auto Member = memberExpr(member(equalsNode(&Field)));
    if (!match(findAll(cxxOperatorCallExpr(hasOverloadedOperatorName("="),
                                           hasArgument(0, ignoringParenImpCasts(Member)))),
               *Definition->getBody(), Ast)
             .empty())
      return false;
  }
  return SawCpu;
}
} // namespace

bool namesOnlyTheCpu(const Expr &E, CpuDevices IsCpu) {
  const Expr *Bare = E.IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && !isa<ParmVarDecl>(Var) && isDeviceType(Var->getType()))
      return isPinnedToCpu(*Var);
  if (const auto *Member = dyn_cast<MemberExpr>(Bare))
    if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
      return isFieldPinnedToCpu(*Field) || (IsCpu && IsCpu(*Field));
  bool SawCpu = false;
  return namesOnlyCpu(Bare, SawCpu, IsCpu) && SawCpu;
}

bool isDeviceType(QualType Type) { return isNamed(recordOf(Type), "c10::Device"); }

bool isDeviceTypeEnum(QualType Type) {
  if (Type.isNull())
    return false;
  const auto *ET = Type.getNonReferenceType().getCanonicalType()->getAs<EnumType>();
  return ET && isNamed(ET->getDecl(), "c10::DeviceType");
}

bool isTensorOptionsType(QualType Type) {
  return isNamed(recordOf(Type), "c10::TensorOptions");
}

bool isTensorType(QualType Type) { return isNamed(recordOf(Type), "at::Tensor"); }

const Expr *ignoreConversions(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next);
        Construct && !isa<CXXTemporaryObjectExpr>(Construct) && Construct->getNumArgs() >= 1 &&
        !Construct->isListInitialization() &&
        (Construct->getConstructor()->isConvertingConstructor(false) ||
         Construct->getConstructor()->isCopyOrMoveConstructor()))
      Next = Construct->getArg(0)->IgnoreImplicit();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

bool isLibraryDecl(const Decl *D) {
  const auto *NS = D ? dyn_cast<NamespaceDecl>(D->getDeclContext()->getEnclosingNamespaceContext())
                     : nullptr;
  while (NS && isa<NamespaceDecl>(NS->getParent()))
    NS = cast<NamespaceDecl>(NS->getParent());
  if (!NS || !NS->getIdentifier())
    return false;
  StringRef Top = NS->getName();
  return Top == "torch" || Top == "at" || Top == "c10" || Top == "caffe2" || Top == "std" ||
         Top == "__gnu_cxx";
}

bool isBroughtToHost(const Expr &E, CpuDevices IsCpu) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E.IgnoreParenImpCasts());
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier())
    return false;
  if (Method->getName() == "cpu")
    return true;
  return Method->getName() == "to" && Call->getNumArgs() &&
         namesOnlyTheCpu(*ignoreConversions(Call->getArg(0)), IsCpu);
}

bool isHostMemoryAccess(const CXXMethodDecl *Method) {
  return effectOf(Method) == TensorEffect::HostAccess;
}

bool isTorchFunction(const FunctionDecl *F, StringRef Name) {
  if (!F || !F->getIdentifier() || F->getName() != Name)
    return false;
  return isInNamespace(F, {"torch", "at"});
}

bool isInNamespace(const Decl *D, llvm::ArrayRef<StringRef> Namespaces) {
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext()->getEnclosingNamespaceContext());
  return NS && llvm::any_of(Namespaces, [&](StringRef Name) { return isNamed(NS, Name); });
}

bool isInStandardLibrary(const Decl &D) {
  for (const DeclContext *Context = D.getDeclContext(); Context; Context = Context->getParent())
    if (Context->isStdNamespace())
      return true;
  return false;
}

bool isMovedToDevice(ASTContext &Ast, const Expr &E) {
  const Expr *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    const auto *Parent = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Parent)
      return false;
    if (const auto *Member = dyn_cast<MemberExpr>(Parent)) {
      DynTypedNodeList Calls = Ast.getParents(*Member);
      const auto *Move = Calls.empty() ? nullptr : Calls[0].get<CXXMemberCallExpr>();
      const NamedDecl *Method = Member->getMemberDecl();
      return Method->getIdentifier() && Method->getName() == "to" && Move && Move->getNumArgs() &&
             isDeviceExpression(*ignoreConversions(Move->getArg(0)));
    }
    if (!isa<ParenExpr, ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr>(Parent))
      return false;
    Current = Parent;
  }
}

} // namespace to_device_migrate
