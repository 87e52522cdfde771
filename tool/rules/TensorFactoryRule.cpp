#include "TensorFactoryRule.h"
#include "../lib/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace todevice {
namespace {

/// Does a TensorOptions expression name a device?
enum class DeviceNamed { Yes, No, Unknown };

bool isDeviceSetter(StringRef Name) { return Name == "device" || Name == "device_index"; }

DeviceNamed optionsNameDevice(const Expr *E, int Depth = 0) {
  if (!E || Depth > 8)
    return DeviceNamed::Unknown;
  E = E->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!Method || !Method->getIdentifier())
      return DeviceNamed::Unknown;
    if (isDeviceSetter(Method->getName()))
      return DeviceNamed::Yes;
    if (Method->getName() == "pinned_memory") // pinned + device is an error on CUDA
      return DeviceNamed::Unknown;
    return optionsNameDevice(Member->getImplicitObjectArgument(), Depth + 1);
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0)
      return DeviceNamed::No;
    const Expr *Arg = Construct->getArg(0);
    QualType T = Arg->getType();
    if (isTensorOptionsType(T))
      return optionsNameDevice(Arg, Depth + 1); // a copy
    // TensorOptions(device), TensorOptions(torch::kCUDA), TensorOptions("cuda:0")
    if (isDeviceType(T) || isDeviceTypeEnum(T) || T->isPointerType() || T->isArrayType() ||
        T->isRecordType())
      return DeviceNamed::Yes;
    return DeviceNamed::No;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || !F->getIdentifier())
      return DeviceNamed::Unknown;
    std::string NS = F->getEnclosingNamespaceContext()->isNamespace()
                         ? cast<NamespaceDecl>(F->getEnclosingNamespaceContext())
                               ->getQualifiedNameAsString()
                         : "";
    if (NS != "c10" && NS != "at" && NS != "torch")
      return DeviceNamed::Unknown; // a user function: we cannot see what it sets
    if (isDeviceSetter(F->getName()))
      return DeviceNamed::Yes;
    return F->getName() == "pinned_memory" ? DeviceNamed::Unknown : DeviceNamed::No;
  }
  if (const auto *Choice = dyn_cast<AbstractConditionalOperator>(E)) {
    DeviceNamed True = optionsNameDevice(Choice->getTrueExpr(), Depth + 1);
    return True == optionsNameDevice(Choice->getFalseExpr(), Depth + 1) ? True
                                                                        : DeviceNamed::Unknown;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || isa<ParmVarDecl>(Var) || !Var->hasInit())
      return DeviceNamed::Unknown;
    return optionsNameDevice(Var->getInit(), Depth + 1);
  }
  return DeviceNamed::Unknown;
}

/// A bare braced list that initialises the options (`{torch::kFloat32}`): it
/// has no type name for `.device(...)` to follow.
bool isBracedList(const Expr *E) {
  const auto *Construct = dyn_cast<CXXConstructExpr>(E->IgnoreImplicit());
  return isa<InitListExpr>(E->IgnoreImplicit()) ||
         (Construct && !isa<CXXTemporaryObjectExpr>(Construct) && Construct->isListInitialization());
}

/// Can `.device(...)` be appended to E's text without parentheses?
bool isPostfixExpression(const Expr *E) {
  return !isBracedList(E) && isa<CallExpr, DeclRefExpr, MemberExpr, ParenExpr, CXXTemporaryObjectExpr,
                                 CXXFunctionalCastExpr, CXXConstructExpr>(E->IgnoreImplicit());
}

int optionsParameterIndex(const FunctionDecl &F) {
  for (unsigned I = 0; I < F.getNumParams(); ++I)
    if (isTensorOptionsType(F.getParamDecl(I)->getType()))
      return static_cast<int>(I);
  return -1;
}

} // namespace

ArrayRef<StringRef> TensorFactoryRule::factoryNames() {
  static const StringRef Names[] = {
      "randn",        "rand",          "randint",        "randperm",       "zeros",
      "ones",         "empty",         "empty_strided",  "full",           "arange",
      "range",        "linspace",      "logspace",       "eye",            "tensor",
      "scalar_tensor", "tril_indices", "triu_indices",   "hann_window",    "hamming_window",
      "bartlett_window", "blackman_window", "kaiser_window", "normal"};
  return Names;
}

void TensorFactoryRule::registerMatchers(MatchFinder &Finder) {
  std::vector<std::string> Qualified;
  for (StringRef Name : factoryNames()) {
    Qualified.push_back(("::torch::" + Name).str());
    Qualified.push_back(("::at::" + Name).str());
  }
  const auto Factory =
      callee(functionDecl(hasAnyName(std::vector<StringRef>(Qualified.begin(), Qualified.end()))));
  Finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, callExpr(Factory).bind("call")), this);
  // In a template a call with dependent arguments is resolved only in each
  // instantiation; their locations are the template's, so every instantiation
  // asks for the same edit and the edit set keeps it once.
  Finder.addMatcher(
      traverse(TK_AsIs, callExpr(Factory, isInTemplateInstantiation()).bind("instantiated-call")),
      this);
}

void TensorFactoryRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const bool Instantiated = Call == nullptr;
  if (Instantiated)
    Call = Result.Nodes.getNodeAs<CallExpr>("instantiated-call");
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Ctx.sources().isInMainFile(Ctx.sources().getExpansionLoc(Call->getBeginLoc())))
    return;
  if (Ctx.isKeptOnCpu(Call->getBeginLoc()))
    return;
  if (!Ctx.isRewritable(Call->getSourceRange())) {
    Ctx.report(Call->getBeginLoc(), Finding::Level::Warning,
               "tensor created on the CPU inside a macro expansion; not rewritten "
               "(add the device to the macro's options by hand)",
               name());
    return;
  }
  int OptionsIndex = optionsParameterIndex(*Callee);
  if (OptionsIndex < 0 || static_cast<unsigned>(OptionsIndex) >= Call->getNumArgs())
    return;
  unsigned Explicit = 0;
  while (Explicit < Call->getNumArgs() && !isa<CXXDefaultArgExpr>(Call->getArg(Explicit)))
    ++Explicit;

  const std::string NS = Ctx.torchNamespace().str();
  const Expr *Options = Call->getArg(OptionsIndex);
  if (isa<CXXDefaultArgExpr>(Options)) {
    // Only the position right after the last written argument can be filled.
    if (static_cast<unsigned>(OptionsIndex) != Explicit || Explicit == 0)
      return;
    if (!Instantiated && Ctx.registerInstead(*Call))
      return;
    unsigned Offset = Ctx.offsetAfterToken(Call->getArg(Explicit - 1)->getEndLoc());
    Ctx.insert(Offset, ", " + NS + "::device(" + Ctx.deviceAt(*Call) + ")", name());
    return;
  }

  const Expr *Written = ignoreConversions(Options);
  QualType WrittenType = Written->getType();
  if (isDeviceType(WrittenType) || isDeviceTypeEnum(WrittenType))
    return; // already placed (hard-coded devices are another rule's business)
  if (!Ctx.isRewritable(Written->getSourceRange()))
    return;
  if (isTensorOptionsType(WrittenType)) {
    switch (optionsNameDevice(Written)) {
    case DeviceNamed::Yes:
      return;
    case DeviceNamed::Unknown:
      Ctx.report(Written->getBeginLoc(), Finding::Level::Note,
                 "tensor options come from elsewhere; not rewritten (make sure they name the "
                 "device)",
                 name());
      return;
    case DeviceNamed::No:
      break;
    }
    if (!Instantiated && Ctx.registerInstead(*Call))
      return;
    std::string Device = Ctx.deviceAt(*Call);
    if (isPostfixExpression(Written)) {
      Ctx.insert(Ctx.offsetAfterToken(Written->getEndLoc()), ".device(" + Device + ")", name());
    } else if (isBracedList(Written)) { // {kFloat32} -> TensorOptions{kFloat32}.device(d)
      Ctx.replace(Written->getSourceRange(),
                  NS + "::TensorOptions" + Ctx.text(Written->getSourceRange()).str() + ".device(" +
                      Device + ")",
                  name());
    } else {
      Ctx.replace(Written->getSourceRange(),
                  "(" + Ctx.text(Written->getSourceRange()).str() + ").device(" + Device + ")",
                  name());
    }
    return;
  }
  // A dtype, layout or memory format converted to TensorOptions implicitly.
  if (!Instantiated && Ctx.registerInstead(*Call))
    return;
  Ctx.replace(Written->getSourceRange(),
              NS + "::TensorOptions(" + Ctx.text(Written->getSourceRange()).str() + ").device(" +
                  Ctx.deviceAt(*Call) + ")",
              name());
}

} // namespace todevice
