#include "TensorFactoryRule.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/ParseFacts.h"
#include "facts/TorchOps.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

using DeviceNamed = TensorFactoryRule::DeviceNamed;

bool isDeviceSetter(StringRef Name) { return Name == "device" || Name == "device_index"; }

/// Whether options, as the program builds them, name a device. Options the
/// program keeps (a member, a global, what its own function returns) are
/// followed to the values it gives them; when none of those is in sight (set
/// in another file) they name none: the device is added where they are used,
/// as it is for a tensor received from another file. Only a parameter's
/// options are the caller's business (Unknown).
class OptionsDevice {
public:
  explicit OptionsDevice(const ParseFacts &Facts) : Facts(Facts) {}

  DeviceNamed of(const Expr *E, int Depth = 0) {
    if (!E || Depth > 8)
      return DeviceNamed::Unknown;
    E = E->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit();
    // `torch::TensorOptions(torch::kFloat)`: options built in place.
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      return of(Cast->getSubExpr(), Depth + 1);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
      return ofMethodCall(*Member, Depth);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      return ofConstruction(*Construct, Depth);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F || !F->getIdentifier())
        return DeviceNamed::Unknown;
      if (!isInNamespace(F, {"c10", "at", "torch"}))
        return ofKept(*F, Depth);
      if (isDeviceSetter(F->getName()))
        return DeviceNamed::Yes;
      return F->getName() == "pinned_memory" ? DeviceNamed::Unknown : DeviceNamed::No;
    }
    if (const auto *Choice = dyn_cast<AbstractConditionalOperator>(E)) {
      DeviceNamed True = of(Choice->getTrueExpr(), Depth + 1);
      return True == of(Choice->getFalseExpr(), Depth + 1) ? True : DeviceNamed::Unknown;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return ofKept(*Member->getMemberDecl(), Depth);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || isa<ParmVarDecl>(Var))
        return DeviceNamed::Unknown;
      if (Var->hasGlobalStorage())
        return ofKept(*Var, Depth);
      return Var->hasInit() ? of(Var->getInit(), Depth + 1) : DeviceNamed::Unknown;
    }
    return DeviceNamed::Unknown;
  }

private:
  DeviceNamed ofMethodCall(const CXXMemberCallExpr &Call, int Depth) {
    const CXXMethodDecl *Method = Call.getMethodDecl();
    if (!Method || !Method->getIdentifier())
      return DeviceNamed::Unknown;
    if (!isInNamespace(Method, {"c10", "at", "torch"}))
      return ofKept(*Method, Depth); // `config.options()`: the program's own
    if (isDeviceSetter(Method->getName()))
      return DeviceNamed::Yes;
    // `x.options()`: like another tensor, wherever the program put it.
    if (Method->getName() == "options" &&
        isTensorType(Call.getImplicitObjectArgument()->IgnoreParenImpCasts()->getType()))
      return DeviceNamed::Yes;
    if (Method->getName() == "pinned_memory") // pinned + device is an error on CUDA
      return DeviceNamed::Unknown;
    return of(Call.getImplicitObjectArgument(), Depth + 1);
  }

  DeviceNamed ofConstruction(const CXXConstructExpr &Construct, int Depth) {
    if (Construct.getNumArgs() == 0)
      return DeviceNamed::No;
    const Expr *Arg = Construct.getArg(0);
    QualType T = Arg->getType();
    if (isTensorOptionsType(T))
      return of(Arg, Depth + 1); // a copy
    // TensorOptions(device), TensorOptions(torch::kCUDA), TensorOptions("cuda:0")
    if (isDeviceType(T) || isDeviceTypeEnum(T) || T->isPointerType() || T->isArrayType())
      return DeviceNamed::Yes;
    // A dtype (ScalarType, caffe2::TypeMeta), layout or memory format.
    const CXXRecordDecl *Record = T->getAsCXXRecordDecl();
    if (T->isEnumeralType() || isNamed(Record, "caffe2::TypeMeta"))
      return DeviceNamed::No;
    return T->isRecordType() ? DeviceNamed::Yes : DeviceNamed::No; // std::string "cuda"
  }

  /// Options the program keeps in `D` (or returns from it): the values it gives them.
  DeviceNamed ofKept(const Decl &D, int Depth) {
    if (!InProgress.insert(D.getCanonicalDecl()).second)
      return DeviceNamed::No; // `opts = opts.dtype(k)`: the other values decide
    llvm::ArrayRef<const Expr *> Values = Facts.optionsValues(D);
    const auto *Var = dyn_cast<VarDecl>(&D);
    const Expr *Initializer = Var ? Var->getAnyInitializer() : nullptr;
    if (Values.empty() && Initializer) // defined outside the migrated files
      Values = Initializer;
    DeviceNamed Result = DeviceNamed::No;
    for (const Expr *Value : Values) {
      DeviceNamed Named = of(Value, Depth + 1);
      if (Named == DeviceNamed::Yes || (Named == DeviceNamed::Unknown && Result == DeviceNamed::No))
        Result = Named;
    }
    InProgress.erase(D.getCanonicalDecl());
    return Result;
  }

  const ParseFacts &Facts;
  llvm::SmallPtrSet<const Decl *, 4> InProgress;
};

/// A bare braced list that initialises the options (`{torch::kFloat32}`): it
/// has no type name for `.device(...)` to follow.
bool isBracedList(const Expr *E) {
  const auto *Construct = dyn_cast<CXXConstructExpr>(E->IgnoreImplicit());
  return isa<InitListExpr>(E->IgnoreImplicit()) ||
         (Construct && !isa<CXXTemporaryObjectExpr>(Construct) && Construct->isListInitialization());
}

/// Can `.device(...)` be appended to E's text without parentheses?
bool isPostfixExpression(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) // `a * b` is a call, but not postfix
    return Op->getOperator() == OO_Call || Op->getOperator() == OO_Subscript;
  return !isBracedList(E) && isa<CallExpr, DeclRefExpr, MemberExpr, ParenExpr, CXXTemporaryObjectExpr,
                                 CXXFunctionalCastExpr, CXXConstructExpr>(E);
}

/// Whether a factory's options argument (as passed) names a device.
DeviceNamed optionsDevice(const ParseFacts &Facts, const Expr *Options) {
  if (isa<CXXDefaultArgExpr>(Options))
    return DeviceNamed::No;
  const Expr *Written = ignoreConversions(Options);
  QualType Type = Written->getType();
  if (isDeviceType(Type) || isDeviceTypeEnum(Type))
    return DeviceNamed::Yes;
  if (isTensorOptionsType(Type))
    return OptionsDevice(Facts).of(Written);
  return DeviceNamed::No; // a dtype, layout or memory format converted implicitly
}

/// The outermost expression `Call` is part of that a macro use expands to
/// entirely (`MAKE_NOISE(3)` -> `torch::randn({3})`, or `torch::randn({3}) * 2`),
/// when it is a tensor value; null when the macro expands to more (a statement,
/// a declaration) or to an lvalue (`x = torch::randn(...)`).
const Expr *valueOfMacroUse(ASTContext &Ast, const CallExpr &Call) {
  const SourceManager &SM = Ast.getSourceManager();
  SourceRange Use = SM.getExpansionRange(Call.getSourceRange()).getAsRange();
  const Expr *Value = &Call;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Value);
    const auto *Parent = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Parent || !Parent->getBeginLoc().isMacroID() || !Parent->getEndLoc().isMacroID() ||
        SM.getExpansionRange(Parent->getSourceRange()).getAsRange() != Use)
      break;
    Value = Parent;
  }
  while (Value != &Call && isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                                ExprWithCleanups>(Value))
    Value = cast<Expr>(*Value->child_begin());
  // The macro's whole expansion, from its first token to its last.
  const LangOptions &Lang = Ast.getLangOpts();
  if (!Lexer::isAtStartOfMacroExpansion(Value->getBeginLoc(), SM, Lang) ||
      !Lexer::isAtEndOfMacroExpansion(Value->getEndLoc(), SM, Lang))
    return nullptr;
  return isTensorType(Value->getType()) && Value->isPRValue() ? Value : nullptr;
}

/// The dtype constant (`kLong`) a factory's options parameter defaults to, if
/// its default is one; empty for default-constructed options.
std::string defaultDType(const FunctionDecl &Factory, unsigned OptionsIndex) {
  const ParmVarDecl *Param = Factory.getParamDecl(OptionsIndex);
  const Expr *Default = Param->hasDefaultArg() ? Param->getDefaultArg() : nullptr;
  const auto *Ref = Default ? dyn_cast<DeclRefExpr>(ignoreConversions(Default)->IgnoreParenImpCasts())
                            : nullptr;
  if (!Ref || !Ref->getDecl()->getIdentifier() || !isLibraryDecl(Ref->getDecl()))
    return "";
  return Ref->getDecl()->getName().str();
}

/// The dtype an overload without options gives its tensor, read from its
/// body (`at::tensor(ArrayRef<int64_t> v)` is `at::tensor(v, at::dtype(kLong))`):
/// the overload with options would make the default float of options naming
/// only the device. "" if the body names none.
std::string dtypeOfOverloadWithout(ASTContext &Ast, const FunctionDecl &WithoutOptions,
                                   int Depth = 0) {
  const FunctionDecl *Definition = nullptr;
  if (!WithoutOptions.hasBody(Definition) || !WithoutOptions.getIdentifier())
    return "";
  for (const BoundNodes &Found :
       match(findAll(callExpr(callee(functionDecl(hasName("dtype"))),
                              hasArgument(0, ignoringImplicit(declRefExpr().bind("type"))))),
             *Definition->getBody(), Ast))
    if (const ValueDecl *Type = Found.getNodeAs<DeclRefExpr>("type")->getDecl();
        Type->getIdentifier() && isLibraryDecl(Type))
      return Type->getName().str();
  // `tensor(T value)` is `tensor(ArrayRef<T>(value))`, which names it.
  if (Depth < 2)
    for (const BoundNodes &Found :
         match(findAll(callExpr(callee(functionDecl(hasName(WithoutOptions.getName())).bind("next")))),
               *Definition->getBody(), Ast))
      if (const auto *Next = Found.getNodeAs<FunctionDecl>("next"); Next && Next != Definition)
        if (std::string Type = dtypeOfOverloadWithout(Ast, *Next, Depth + 1); !Type.empty())
          return Type;
  return "";
}

/// `at::tensor(int64_t)` takes no options, but the overload declared beside it,
/// `at::tensor(int64_t, const TensorOptions &)`, does: what the call becomes
/// when the options are appended. Null if there is none.
const FunctionDecl *overloadWithOptions(const FunctionDecl &F) {
  const unsigned Count = F.getNumParams();
  for (const NamedDecl *D : F.getDeclContext()->getRedeclContext()->lookup(F.getDeclName())) {
    const auto *G = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
    if (!G || G->getNumParams() != Count + 1 ||
        !isTensorOptionsType(G->getParamDecl(Count)->getType()))
      continue;
    bool Same = true;
    for (unsigned I = 0; I < Count && Same; ++I)
      Same = G->getParamDecl(I)->getType().getCanonicalType() ==
             F.getParamDecl(I)->getType().getCanonicalType();
    if (Same)
      return G;
  }
  return nullptr;
}

/// A parameter's default argument as code of the user's may write it, when it
/// is a named constant (`c10::nullopt`), a literal or `{}`; "" otherwise.
std::string spelledDefault(const ParmVarDecl &Param) {
  const Expr *Default = Param.hasDefaultArg() ? Param.getDefaultArg() : nullptr;
  if (!Default)
    return "";
  Default = ignoreConversions(Default)->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Default);
      Construct && Construct->getNumArgs() == 0)
    return "{}";
  if (const auto *List = dyn_cast<InitListExpr>(Default); List && List->getNumInits() == 0)
    return "{}";
  if (isa<CXXNullPtrLiteralExpr>(Default))
    return "nullptr";
  if (const auto *Bool = dyn_cast<CXXBoolLiteralExpr>(Default))
    return Bool->getValue() ? "true" : "false";
  if (const auto *Int = dyn_cast<IntegerLiteral>(Default))
    return std::to_string(Int->getValue().getSExtValue());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Default);
      Ref && Ref->getDecl()->getDeclContext()->isFileContext() && Ref->getDecl()->getIdentifier())
    return "::" + Ref->getDecl()->getQualifiedNameAsString();
  return "";
}

/// `x`, or `view.pose` for a parameter's member (Placement::Parameter).
std::string spelledParameter(const Placement &Analysed) {
  std::string Spelled = Analysed.Param->getName().str();
  if (Analysed.Field)
    Spelled += "." + Analysed.Field->getName().str();
  return Spelled;
}

/// `torch::normal(0, 1, {n}, generator)`: the program hands the factory a
/// generator of its own (`at::detail::createCPUGenerator(seed)`), which draws
/// on the CPU: a device tensor cannot take it (CUDA wants a CUDA generator),
/// so what it makes is made on the CPU and moved, with the same numbers.
bool drawsFromProgramGenerator(const CallExpr &Call) {
  return llvm::any_of(Call.arguments(), [](const Expr *Arg) {
    if (isa<CXXDefaultArgExpr>(Arg))
      return false;
    // The argument as written: a generator, not `c10::nullopt` made optional.
    QualType Type = ignoreConversions(Arg)->IgnoreParenImpCasts()->getType().getNonReferenceType();
    const auto *Record = Type->getAsCXXRecordDecl();
    if (const auto *Optional = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Record);
        Optional && Optional->getIdentifier() && Optional->getName() == "optional" &&
        Optional->getTemplateArgs().size() == 1 &&
        Optional->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      Record = Optional->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
    return Record && isNamed(Record, "at::Generator");
  });
}

int optionsParameterIndex(const FunctionDecl &F) {
  for (unsigned I = 0; I < F.getNumParams(); ++I)
    if (isTensorOptionsType(F.getParamDecl(I)->getType()))
      return static_cast<int>(I);
  return -1;
}

} // namespace

void TensorFactoryRule::registerMatchers(MatchFinder *Finder) {
  const std::vector<std::string> Qualified =
      functionsWithEffect({TensorEffect::Create, TensorEffect::CreateFromValues});
  const auto Factory =
      callee(functionDecl(hasAnyName(std::vector<StringRef>(Qualified.begin(), Qualified.end()))));
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, callExpr(Factory).bind("call")),
                     this);
  // In a template a call with dependent arguments is resolved only in each
  // instantiation; their locations are the template's, so every instantiation
  // asks for the same edit and the consumer keeps it once.
  Finder->addMatcher(
      traverse(TK_AsIs, callExpr(Factory, isInTemplateInstantiation()).bind("instantiated-call")),
      this);
}

void TensorFactoryRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const bool Instantiated = Call == nullptr;
  if (Instantiated)
    Call = Result.Nodes.getNodeAs<CallExpr>("instantiated-call");
  const FunctionDecl *Callee = Call->getDirectCallee();
  const SourceManager &SM = Ctx.sources();
  if (!Callee || !Ctx.isExpansionInFile(Call->getBeginLoc()))
    return;
  if (Ctx.options().ExplainPlacement && !Instantiated)
    explain(*Call);
  // Host code builds it (writes its memory or elements, fills it in a loop,
  // gathers it into rows), or per-sample code makes it: it stays on the CPU,
  // and is moved once where device code takes it (PlacementFlow.h). The
  // analysis' classes do not follow the order of statements yet: in a file
  // migrated already, a local written through its memory and then moved
  // (`t = t.div(255).to(device)`) is one class with the device, so the
  // local's own writes decide for it (the second pass changes nothing).
  // So do the program's own functions' host data (ParseFacts::receivesHostData),
  // which the analysis' summaries do not say yet.
  if (Ctx.facts().placement().of(*Call).Where == Placement::Host ||
      buildsHostBuiltTensor(Ctx.ast(), *Call) ||
      isOnlyHandedAsHostData(Ctx.ast(), *Call, [this](const HandedTo &To) {
        return Ctx.facts().receivesHostData(*To.Callee, To.Index);
      }))
    return;
  if (drawsFromProgramGenerator(*Call)) {
    moveWhatItMakes(*Call, Instantiated);
    return;
  }
  int OptionsIndex = optionsParameterIndex(*Callee);
  if (OptionsIndex < 0) {
    // `tensor(1)` under `using namespace torch;` is `at::tensor(int64_t)`.
    if (const FunctionDecl *WithOptions = overloadWithOptions(*Callee);
        WithOptions && !Ctx.isInMacroBody(Call->getSourceRange()))
      addOptions(*Call, *WithOptions, Callee->getNumParams(), Instantiated,
                 dtypeOfOverloadWithout(Ctx.ast(), *Callee));
    else if (!WithOptions && llvm::none_of(Call->arguments(), [](const Expr *Arg) {
               return isTensorType(Arg->getType().getNonReferenceType());
             }))
      moveWhatItMakes(*Call, Instantiated); // given tensors (`at::normal(mean, std)`), it is where they are
    return;
  }
  if (static_cast<unsigned>(OptionsIndex) >= Call->getNumArgs())
    return;
  const Expr *Options = Call->getArg(OptionsIndex);
  DeviceNamed Named = optionsDevice(Ctx.facts(), Options);
  if (Named == DeviceNamed::Yes)
    return; // already placed (hard-coded devices are another rule's business)
  if (Ctx.isInMacroBody(Call->getSourceRange())) {
    placeWhereMacroIsUsed(*Call, Named);
    return;
  }
  if (isa<CXXDefaultArgExpr>(Options))
    addOptions(*Call, *Callee, OptionsIndex, Instantiated);
  else
    addDeviceToOptions(*Call, *ignoreConversions(Options), Named, Instantiated);
}

std::string TensorFactoryRule::deviceFor(const CallExpr &Call, bool Instantiated) {
  // In a function given tensors, where they are (PlacementFlow.h): a helper
  // that a dataset and a model both call makes its tensors on each one's side.
  const Placement Analysed = Ctx.facts().placement().of(Call);
  if (Analysed.Where == Placement::Parameter)
    return spelledParameter(Analysed) + ".device()";
  if (!Instantiated && Ctx.registry().registerInstead(Call))
    return "";
  return Ctx.device().at(Call);
}

void TensorFactoryRule::explain(const CallExpr &Call) {
  const Placement Analysed = Ctx.facts().placement().of(Call);
  std::string Where = Analysed.Where == Placement::Device ? "device"
                      : Analysed.Where == Placement::Host ? "host"
                      : Analysed.Where == Placement::Parameter
                          ? "where parameter '" + spelledParameter(Analysed) + "' is"
                          : "free";
  diag(Call.getBeginLoc(), "placement: " + Where, DiagnosticIDs::Note);
}

void TensorFactoryRule::addOptions(const CallExpr &Call, const FunctionDecl &Factory,
                                   unsigned OptionsIndex, bool Instantiated,
                                   llvm::StringRef DType) {
  unsigned Explicit = 0;
  while (Explicit < Call.getNumArgs() && !isa<CXXDefaultArgExpr>(Call.getArg(Explicit)))
    ++Explicit;
  // The arguments between the last written one and the options are written
  // out with their defaults (`torch::normal(0, 1, {n}, ::c10::nullopt, ...)`).
  if (OptionsIndex < Explicit || Explicit == 0)
    return;
  std::string Defaults;
  for (unsigned I = Explicit; I < OptionsIndex; ++I) {
    std::string Default = spelledDefault(*Factory.getParamDecl(I));
    if (Default.empty())
      return;
    Defaults += ", " + Default;
  }
  const std::string Device = deviceFor(Call, Instantiated);
  if (Device.empty())
    return; // the registry moves it
  const std::string NS = Ctx.device().torchNamespace().str();
  // `torch::randint(0, 10, {4})` defaults its options to `at::kLong`: options
  // naming only the device would make a float tensor.
  std::string Options = NS + "::device(" + Device + ")";
  const std::string Type = DType.empty() ? defaultDType(Factory, OptionsIndex) : DType.str();
  if (!Type.empty())
    Options = NS + "::dtype(" + NS + "::" + Type + ")." + Options.substr(NS.size() + 2);
  unsigned Offset = Ctx.offsetAfterToken(Call.getArg(Explicit - 1)->getEndLoc());
  rewrite(Call.getSourceRange(), insertion(Offset, Defaults + ", " + Options));
}

void TensorFactoryRule::addDeviceToOptions(const CallExpr &Call, const Expr &Written,
                                           DeviceNamed Named, bool Instantiated) {
  if (Ctx.isInMacroBody(Written.getSourceRange()))
    return; // options a macro writes are the macro's (its other uses may want the CPU)
  // Options from elsewhere (a member, a parameter) may name a device or not;
  // a tensor the analysis finds meeting a module needs the device whatever
  // they say (a solver's options kept in members, given to each factory).
  if (Named == DeviceNamed::Unknown &&
      Ctx.facts().placement().of(Call).Where != Placement::Device) {
    diag(Written.getBeginLoc(),
         "tensor options come from elsewhere; not rewritten (make sure they name the "
         "device)",
         DiagnosticIDs::Note)
        << Call.getSourceRange() << Written.getSourceRange();
    return;
  }
  const std::string Device = deviceFor(Call, Instantiated);
  if (Device.empty())
    return; // the registry moves it
  const std::string NS = Ctx.device().torchNamespace().str();
  std::string Text = Ctx.text(Written.getSourceRange()).str();
  if (!isTensorOptionsType(Written.getType())) // a dtype, layout or memory format
    rewrite(Call.getSourceRange(),
            replacement(Written.getSourceRange(),
                        NS + "::TensorOptions(" + Text + ").device(" + Device + ")"));
  else if (isPostfixExpression(&Written))
    rewrite(Call.getSourceRange(),
            insertion(Ctx.offsetAfterToken(Written.getEndLoc()), ".device(" + Device + ")"));
  else if (isBracedList(&Written)) // {kFloat32} -> TensorOptions{kFloat32}.device(d)
    rewrite(Call.getSourceRange(),
            replacement(Written.getSourceRange(),
                        NS + "::TensorOptions" + Text + ".device(" + Device + ")"));
  else
    rewrite(Call.getSourceRange(),
            replacement(Written.getSourceRange(), "(" + Text + ").device(" + Device + ")"));
}

void TensorFactoryRule::moveWhatItMakes(const CallExpr &Call, bool Instantiated) {
  // No options to give it (`TransformerImpl::generate_square_subsequent_mask(n)`
  // makes its mask on the CPU), or a generator of the program's that draws on
  // the CPU: what it makes is moved where it is made.
  if (Ctx.isInMacroBody(Call.getSourceRange()) || isMovedToDevice(Ctx.ast(), Call) ||
      !Ctx.isWrittenInFile(Call.getSourceRange()))
    return;
  const std::string Device = deviceFor(Call, Instantiated);
  if (Device.empty())
    return; // the registry moves it
  std::string Move = ".to(" + Device + ")";
  if (!isPostfixExpression(&Call)) {
    rewrite(Call.getSourceRange(), insertion(Ctx.offsetOf(Call.getBeginLoc()), "("));
    Move = ")" + Move;
  }
  rewrite(Call.getSourceRange(), insertion(Ctx.offsetAfterToken(Call.getEndLoc()), Move));
}

void TensorFactoryRule::placeWhereMacroIsUsed(const CallExpr &Call, DeviceNamed Named) {
  const SourceManager &SM = Ctx.sources();
  SourceLocation Use = SM.getExpansionLoc(Call.getBeginLoc());
  const Expr *Value = valueOfMacroUse(Ctx.ast(), Call);
  if (Named == DeviceNamed::Unknown || !Value ||
      !Ctx.isWrittenInFile(SM.getExpansionRange(Value->getSourceRange()).getAsRange())) {
    diag(Use, "tensor created on the CPU inside a macro expansion whose value is not a "
              "tensor expression; not rewritten (add the device to the macro's options by hand)");
    return;
  }
  if (isMovedToDevice(Ctx.ast(), *Value))
    return;
  // The macro stays as written (its other uses may want the CPU): the value
  // it expands to is moved where it is used, `MAKE_NOISE(3).to(device)`.
  CharSourceRange Range = SM.getExpansionRange(Value->getSourceRange());
  std::string Move = ".to(" + Ctx.device().at(*Value) + ")";
  if (!isPostfixExpression(Value)) {
    rewrite(Range.getAsRange(), insertion(Ctx.offsetOf(Range.getBegin()), "("));
    Move = ")" + Move;
  }
  rewrite(Range.getAsRange(), insertion(Ctx.offsetAfterToken(Range.getEnd()), Move));
  diag(Use,
       "tensor created on the CPU by a macro; the macro is kept as written and its value "
       "is moved to the device here",
       DiagnosticIDs::Note);
}

} // namespace to_device_migrate
