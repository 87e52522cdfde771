#include "HardcodedDeviceRule.h"
#include "facts/Matchers.h"
#include "facts/PlacementFlow.h"
#include "facts/TorchOps.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// `net->to(device)`: a module's transfer.
bool isModuleTransfer(const CallExpr &Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  return Method && Method->getIdentifier() && Method->getName() == "to" &&
         isOrDerivesFrom(Method->getParent(), "torch::nn::Module");
}

bool mentionsAvailabilityCheck(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = Call->getDirectCallee(); F && F->getIdentifier())
      if (F->getName() == "is_available" || F->getName() == "device_count" ||
          F->getName() == "hasCUDA")
        return true;
  for (const Stmt *Child : S->children())
    if (mentionsAvailabilityCheck(Child))
      return true;
  return false;
}

/// Is `Arg` an argument of the call `Parent`, one that is not a comparison
/// (`device.type() == torch::kCUDA` is an operator call too)?
bool isPlacementArgument(const DynTypedNode &Parent, const Expr &Arg) {
  const auto *Call = Parent.get<CallExpr>();
  if (!Call || isa<CXXOperatorCallExpr>(Call))
    return false;
  return llvm::is_contained(Call->arguments(), &Arg);
}

/// The call that the device `Place` (a DeviceType, a Device, TensorOptions
/// made of one) places: a factory given it as options, a transfer given it
/// as where to (`x.to(torch::kCPU)`), a module's `to()`. Null for anything
/// else.
const CallExpr *placedCall(ASTContext &Ast, const Expr &Place) {
  const Expr *Inner = &Place;
  for (int Level = 0; Level < 8; ++Level) {
    DynTypedNodeList Parents = Ast.getParents(*Inner);
    const auto *E = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!E)
      return nullptr;
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && (isTensorType(Call->getType()) || isModuleTransfer(*Call)))
      return llvm::is_contained(Call->arguments(), Inner) ? Call : nullptr;
    // Through what makes options of it: `torch::TensorOptions(kCPU)`,
    // `torch::device(kCPU)`, a copy of a device variable.
    if (!isDeviceType(E->getType()) && !isTensorOptionsType(E->getType()) &&
        !isDeviceTypeEnum(E->getType()))
      return nullptr;
    Inner = E;
  }
  return nullptr;
}

/// Does placing `Call` (placedCall()) at the CPU go against what the
/// analysis found: a module, or a tensor that device code takes, not made
/// over host memory?
bool placesForTheDevice(const PlacementFlow &Flow, const CallExpr &Call) {
  if (isModuleTransfer(Call))
    return true;
  return effectOf(Call) != TensorEffect::HostMemory && Flow.needsDevice(Call);
}

} // namespace

void HardcodedDeviceRule::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(traverse(TK_AsIs, declRefExpr(isExpansionInFile(Ctx.file()),
                                                   to(namedDecl(hasAnyName("kCUDA", "kCPU"))))
                                           .bind("type")),
                     this);
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               cxxMemberCallExpr(
                   isExpansionInFile(Ctx.file()),
                   callee(cxxMethodDecl(hasName("cuda"), ofClass(hasName("::at::Tensor")))))
                   .bind("cuda")),
      this);
}

void HardcodedDeviceRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("cuda")) {
    const auto *Member = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts());
    if (!Member)
      return;
    rewrite(Call->getSourceRange(),
            replacement(SourceRange(Member->getMemberLoc(), Call->getRParenLoc()),
                        "to(" + Ctx.device().at(*Call) + ")"));
    return;
  }
  // torch::kCUDA is a `constexpr DeviceType` variable (c10/core/DeviceType.h).
  if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("type"))
    if (isDeviceTypeEnum(Ref->getType()))
      rewriteDeviceType(*Ref);
}

/// The availability choice (`is_available() ? <kCUDA> : <kCPU>`) whose branch
/// `Ref` is written in, through the Device it may make (`torch::Device(torch::kCUDA)`).
static const AbstractConditionalOperator *enclosingDeviceChoice(ASTContext &Ast,
                                                                const DeclRefExpr &Ref) {
  const Stmt *Inner = &Ref;
  for (int Level = 0; Level < 6; ++Level) {
    DynTypedNodeList Parents = Ast.getParents(*Inner);
    if (Parents.empty() || !Parents[0].get<Expr>())
      return nullptr;
    const Expr *E = Parents[0].get<Expr>();
    if (const auto *Choice = dyn_cast<AbstractConditionalOperator>(E))
      return Inner != Choice->getCond() && mentionsAvailabilityCheck(Choice->getCond()) ? Choice
                                                                                        : nullptr;
    Inner = E;
  }
  return nullptr;
}

void HardcodedDeviceRule::rewriteDeviceType(const DeclRefExpr &Ref) {
  bool IsCuda = Ref.getDecl()->getName() == "kCUDA";
  if (const AbstractConditionalOperator *Choice = enclosingDeviceChoice(Ctx.ast(), Ref)) {
    if (IsCuda && !Ctx.options().DeviceExpr.empty())
      rewriteDeviceChoice(*Choice);
    return; // already portable
  }
  // Climb through the implicit conversions to the expression as used.
  const Expr *Used = &Ref;
  const Expr *ConvertedTo = nullptr; // the Device / TensorOptions it became
  DynTypedNode Parent;
  while (true) {
    DynTypedNodeList Parents = Ctx.ast().getParents(*Used);
    if (Parents.empty())
      return;
    Parent = Parents[0];
    const auto *E = Parent.get<Expr>();
    if (!E || ignoreConversions(E) != &Ref)
      break;
    if (!ConvertedTo && (isDeviceType(E->getType()) || isTensorOptionsType(E->getType())))
      ConvertedTo = E;
    Used = E;
  }

  if (!IsCuda) {
    // A CPU placement of a tensor that device code takes (`x.to(torch::kCPU)`
    // handed to a module, `torch::ones(n, torch::kCPU)` added to its output):
    // the program's way of saying "where the model is", in a CPU program.
    // Kept, it would meet the device's tensors; it is placed there instead.
    // A tensor made over host memory (`from_blob`) stays where it is made.
    // A device variable (`torch::Device device(torch::kCPU)`) likewise, when
    // every placement it makes is one of these.
    // (A module pinned directly, `net->to(torch::kCPU)`, keeps its pin: it is
    // moved back after it where it runs, modules/PinPlacement.cpp.)
    const auto *Var = Parent.get<VarDecl>();
    const CallExpr *Placed = Var ? nullptr : placedCall(Ctx.ast(), *Used);
    if (Var ? !placesOnlyForTheDevice(*Var)
            : !Placed || isModuleTransfer(*Placed) ||
                  !placesForTheDevice(Ctx.facts().placement(), *Placed)) {
      if (ConvertedTo)
        diag(Ref.getBeginLoc(), "explicit CPU placement kept (remove it if the device was meant)",
             DiagnosticIDs::Note)
            << Ref.getSourceRange();
      return;
    }
    diag(Ref.getBeginLoc(),
         Var ? "CPU device variable whose every placement device code takes: the device"
             : "explicit CPU placement of a tensor device code takes: placed on the device",
         DiagnosticIDs::Note)
        << Ref.getSourceRange();
    if (Var) {
      rewrite(Ref.getSourceRange(), replacement(Ref.getSourceRange(), Ctx.device().expression()));
      return;
    }
  }

  // `torch::Device dev(torch::kCUDA)`: the program's own device variable
  // becomes portable, and every site using it follows.
  const auto *DeviceConstruct = dyn_cast_or_null<CXXConstructExpr>(ConvertedTo);
  if (IsCuda && DeviceConstruct && isDeviceType(DeviceConstruct->getType())) {
    if (DeviceConstruct->getNumArgs() > 1 && !isa<CXXDefaultArgExpr>(DeviceConstruct->getArg(1))) {
      diag(Ref.getBeginLoc(), "hard-coded CUDA device with an index; not rewritten (choose it with "
                              "torch::cuda::device_count())")
          << Ref.getSourceRange();
      return;
    }
    if (Parent.get<VarDecl>()) {
      rewrite(Ref.getSourceRange(), replacement(Ref.getSourceRange(), Ctx.device().expression()));
      return;
    }
  }
  // `TensorOptions().device(torch::kCUDA)`: the device type is forwarded to a
  // template (no conversion to Device at the call), but it places all the same.
  if (!ConvertedTo && isPlacementArgument(Parent, *Used)) {
    if (IsCuda && Parent.get<CallExpr>()->getNumArgs() > 1) { // `.device(torch::kCUDA, 2)`
      diag(Ref.getBeginLoc(), "hard-coded CUDA device with an index; not rewritten (choose it with "
                              "torch::cuda::device_count())")
          << Ref.getSourceRange();
      return;
    }
    rewrite(Ref.getSourceRange(), replacement(Ref.getSourceRange(), Ctx.device().at(Ref)));
    return;
  }
  if (!ConvertedTo) {
    if (IsCuda)
      diag(Ref.getBeginLoc(),
           "hard-coded CUDA device type; not rewritten (compare with the device variable "
           "instead)")
          << Ref.getSourceRange();
    return;
  }
  // A temporary `torch::Device(torch::kCUDA)` is replaced whole; in
  // `TensorOptions(torch::kCUDA)` only the device type is, since more options
  // may follow (`.dtype(...)`), which a Device does not have.
  const Expr *Replaced = &Ref;
  if (const auto *Cast = Parent.get<CXXFunctionalCastExpr>(); Cast && isDeviceType(Cast->getType()))
    Replaced = Cast;
  else if (DeviceConstruct && isa<CXXTemporaryObjectExpr>(DeviceConstruct))
    Replaced = DeviceConstruct;
  rewrite(Replaced->getSourceRange(),
          replacement(Replaced->getSourceRange(), Ctx.device().at(Ref)));
}

void HardcodedDeviceRule::rewriteDeviceChoice(const AbstractConditionalOperator &Choice) {
  // Only where the choice becomes a torch::Device (a variable's initialiser, an
  // argument): a DeviceType variable cannot hold the device expression.
  const Expr *Used = &Choice;
  while (!isDeviceType(Used->getType())) {
    DynTypedNodeList Parents = Ctx.ast().getParents(*Used);
    const Expr *E = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!E || (!isa<ParenExpr>(E) && ignoreConversions(E)->IgnoreParens() != &Choice))
      return;
    Used = E;
  }
  rewrite(Choice.getSourceRange(),
          replacement(Choice.getSourceRange(), Ctx.device().expression()));
}

bool HardcodedDeviceRule::placesOnlyForTheDevice(const VarDecl &Var) const {
  const auto *Scope = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  const Stmt *Body = Scope ? Scope->getBody() : nullptr;
  if (!Body || !isDeviceType(Var.getType()))
    return false; // a global's uses are in every file: not decided here
  unsigned Placements = 0;
  for (const BoundNodes &Use :
       match(findAll(declRefExpr(to(varDecl(equalsNode(&Var)))).bind("use")), *Body, Ctx.ast())) {
    const CallExpr *Placed = placedCall(Ctx.ast(), *Use.getNodeAs<DeclRefExpr>("use"));
    if (!Placed)
      continue; // printed, compared, handed on: no placement of its own
    if (!placesForTheDevice(Ctx.facts().placement(), *Placed))
      return false;
    ++Placements;
  }
  return Placements > 0;
}

} // namespace to_device_migrate
