#include "ReceivedTensorRule.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/PerSampleCode.h"
#include "facts/TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// Can a value of `Type` carry tensors into a call: a tensor, a module, a
/// batch, or a container or pointer of them?
bool carriesTensors(QualType Type, int Depth = 0) {
  if (Type.isNull() || Depth > 4)
    return false;
  Type = Type.getNonReferenceType();
  if (Type->isPointerType())
    return carriesTensors(Type->getPointeeType(), Depth + 1);
  if (isTensorType(Type) || classifyModuleType(Type).Handle != ModuleHandle::None)
    return true;
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (isOrDerivesFrom(Record, "torch::nn::Module") || isNamed(Record, "torch::data::Example"))
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && carriesTensors(Arg.getAsType(), Depth + 1))
        return true;
  return false;
}

/// Does the program place what `F` returns? Library functions follow their
/// arguments or their options (another rule's business); the functions of the
/// files this run migrates are placed there, unless they are per-sample code.
bool isPlacedSource(MigrationContext &Ctx, const FunctionDecl &F) {
  if (isLibraryDecl(&F))
    return true;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&F);
      Method && (isOrDerivesFrom(Method->getParent(), "torch::nn::Module") ||
                 classifyModuleType(compat::recordType(Ctx.ast(), Method->getParent())).Handle !=
                     ModuleHandle::None))
    return true; // a module's forward() and friends compute on its device
  return Ctx.facts().isDefinedInProgram(F) && !Ctx.perSample().isPerSampleFunction(&F) &&
         !Ctx.facts().returnsHostBuiltTensor(F);
}

/// `std::pair` or `std::tuple`, whose tensors a structured binding names.
bool isPairOrTuple(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record && (isNamed(Record, "std::pair") || isNamed(Record, "std::tuple"));
}

} // namespace

void ReceivedTensorRule::registerMatchers(MatchFinder *Finder) {
  // Tensors built on the host elsewhere that device code takes
  // (PlacementFlow.h): a local holding one (`torch::Tensor s =
  // std::get<0>(dataset.tensors());`), a getter's result handed on as is.
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              varDecl(isExpansionInFile(Ctx.file()), hasLocalStorage(),
                                      hasInitializer(expr()))
                                  .bind("host-local")),
                     this);
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              callExpr(isExpansionInFile(Ctx.file()),
                                       callee(functionDecl(returns(referenceType()))))
                                  .bind("host-use")),
                     this);
  Finder->addMatcher(
      traverse(
          TK_IgnoreUnlessSpelledInSource,
          callExpr(isExpansionInFile(Ctx.file()), unless(cxxOperatorCallExpr()),
                   callee(functionDecl(returns(qualType(unless(referenceType())))).bind("callee")),
                   unless(hasParent(compoundStmt())))
              .bind("call")),
      this);
}

void ReceivedTensorRule::check(const MatchFinder::MatchResult &Result) {
  const PlacementFlow &Flow = Ctx.facts().placement();
  if (const auto *Var = Result.Nodes.getNodeAs<VarDecl>("host-local")) {
    if (Flow.isMovedWhereDefined(*Var))
      moveHostTensor(*ignoreConversions(Var->getInit()),
                     "'" + Var->getName().str() + "' holds a tensor built on the host elsewhere");
    return;
  }
  if (const auto *Use = Result.Nodes.getNodeAs<CallExpr>("host-use")) {
    if (isTensorType(Use->getType().getNonReferenceType()) && Flow.isMovedWhereUsed(*Use))
      moveHostTensor(*Use, "'" + Use->getDirectCallee()->getNameAsString() +
                               "' gives a tensor built on the host");
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Callee = Result.Nodes.getNodeAs<FunctionDecl>("callee");
  if (isPairOrTuple(Call->getType()) && carriesTensors(Call->getType())) {
    // A pair or tuple of tensors the program's function built on the host
    // (`auto [x, y] = get_batch(data);`), taken by device code.
    if (!isLibraryDecl(Callee) && Flow.isMovedWhereUsed(*Call))
      moveHostBatch(*Call, "'" + Callee->getNameAsString() + "' gives tensors built on the host");
    return;
  }
  if (!isTensorType(Call->getType()))
    return;
  if (isPlacedSource(Ctx, *Callee)) {
    // Unless the analysis' summary says what it returns is on the host
    // (built there, or kept there by the program's choice: a buffer filled
    // through `.to(torch::kCPU)`), and device code takes it as it is.
    if (!isLibraryDecl(Callee) && Flow.isMovedWhereUsed(*Call))
      moveHostTensor(*Call, "'" + Callee->getNameAsString() + "' gives a tensor on the host");
    return;
  }
  // A function given tensors computes where they are, unless what it returns
  // is a tensor its body fills from host code: that is on the CPU whatever it
  // was given (`resize(image, w, h)` writing its output through data_ptr).
  const bool ReturnsHostBuilt = !isLibraryDecl(Callee) && Ctx.facts().returnsHostBuiltTensor(*Callee);
  if (!ReturnsHostBuilt &&
      llvm::any_of(Call->arguments(), [](const Expr *Arg) { return carriesTensors(Arg->getType()); }))
    return;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
      !ReturnsHostBuilt && Member && carriesTensors(Member->getImplicitObjectArgument()->getType()))
    return;
  // Rows gathered on the host are moved once joined (HostWrites.h).
  if (Ctx.isPerSampleCode(*Call) || isMovedToDevice(Ctx.ast(), *Call) ||
      isQueriedOnHost(Ctx.ast(), *Call) || rowsGathering(Ctx.ast(), *Call))
    return;
  rewrite(Call->getSourceRange(), insertion(Ctx.offsetAfterToken(Call->getEndLoc()),
                                            ".to(" + Ctx.device().at(*Call) + ")"));
  std::string Why = Ctx.perSample().isPerSampleFunction(Callee)
                        ? "is per-sample code, which stays on the CPU"
                    : Ctx.facts().returnsHostBuiltTensor(*Callee)
                        ? "fills it from host code, so it is built on the CPU"
                    : isa<CXXMethodDecl>(Callee) && cast<CXXMethodDecl>(Callee)->isVirtual() &&
                            !Ctx.facts().isDefinedInProgram(*Callee)
                        ? "is an override chosen when the program runs"
                        : "is not in a file this run migrates";
  diag(compat::beginOf(*Call),
       "'" + Callee->getNameAsString() + "' returns a tensor whose placement the tool " +
           "cannot see (its body " + Why + "): moved to the device where it is received " +
           "(no copy if it is there already)",
       DiagnosticIDs::Note)
      << Call->getSourceRange();
}

void ReceivedTensorRule::moveHostBatch(const CallExpr &Call, const std::string &What) {
  if (Ctx.isPerSampleCode(Call) || !Ctx.isWrittenInFile(Call.getSourceRange()))
    return;
  // `auto [x, y] = get_batch(data);`: each tensor binding is rebound to its
  // copy on the device right after (a binding of a pair held by value).
  const auto *Bound = dyn_cast_or_null<DecompositionDecl>(initializedVariable(Ctx.ast(), Call));
  MigrationContext::StatementPlace Place = Bound ? Ctx.placeOf(*Bound) : MigrationContext::StatementPlace();
  if (!Bound || !Place.Statement || Bound->getType()->isReferenceType() ||
      Bound->getType().isConstQualified()) {
    diag(Call.getBeginLoc(), What + " that device code takes, and the tool can rebind them only "
                                    "where a structured binding holds them by value: move them "
                                    "to the device where they are received")
        << Call.getSourceRange();
    return;
  }
  std::vector<const BindingDecl *> Moved;
  for (const BindingDecl *Binding : Bound->bindings())
    if (isTensorType(Binding->getType()) && !isRebound(*Binding))
      Moved.push_back(Binding);
  if (Moved.empty())
    return;
  const std::string Device = Ctx.device().at(Call);
  insertAfterStatement(Call.getSourceRange(), Place, [&](llvm::StringRef Indent) {
    std::string Text;
    for (const BindingDecl *Binding : Moved)
      Text += "\n" + Indent.str() + Binding->getName().str() + " = " + Binding->getName().str() +
              ".to(" + Device + ");";
    return Text;
  });
  diag(Call.getBeginLoc(),
       What + " and device code takes them: moved to the device once, where they are received",
       DiagnosticIDs::Note)
      << Call.getSourceRange();
}

bool ReceivedTensorRule::isRebound(const BindingDecl &Binding) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Binding.getDeclContext());
  if (!Function || !Function->getBody())
    return false;
  auto Moves = match(findAll(declRefExpr(to(bindingDecl(equalsNode(&Binding)))).bind("ref")),
                     *Function->getBody(), Ctx.ast());
  return llvm::any_of(Moves, [&](const BoundNodes &Nodes) {
    return isMovedToDevice(Ctx.ast(), *Nodes.getNodeAs<DeclRefExpr>("ref"));
  });
}

void ReceivedTensorRule::moveHostTensor(const Expr &Value, const std::string &What) {
  if (isMovedToDevice(Ctx.ast(), Value) || Ctx.isPerSampleCode(Value) ||
      !Ctx.isWrittenInFile(Value.getSourceRange()))
    return;
  const Expr *Bare = Value.IgnoreParens();
  const bool Postfix = isa<CallExpr, DeclRefExpr, MemberExpr, ArraySubscriptExpr>(Bare) &&
                       !isa<CXXOperatorCallExpr>(Bare);
  const std::string Move = ".to(" + Ctx.device().at(Value) + ")";
  if (!Postfix)
    rewrite(Value.getSourceRange(), insertion(Ctx.offsetOf(Value.getBeginLoc()), "("));
  rewrite(Value.getSourceRange(),
          insertion(Ctx.offsetAfterToken(Value.getEndLoc()), (Postfix ? "" : ")") + Move));
  diag(Value.getBeginLoc(),
       What + " and is taken by device code: moved to the device once, where it is received",
       DiagnosticIDs::Note)
      << Value.getSourceRange();
}

} // namespace to_device_migrate
