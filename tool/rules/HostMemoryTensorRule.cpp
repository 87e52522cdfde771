#include "HostMemoryTensorRule.h"
#include "facts/HostWrites.h"
#include "facts/PlacementFlow.h"
#include "facts/SharedHostMemory.h"
#include "facts/TorchOps.h"
#include "facts/Matchers.h"
#include "facts/TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace to_device_migrate {

const char *HostMemoryTensorRule::hostReason(const CallExpr &Call) {
  ASTContext &Ast = Ctx.ast();
  if (isMovedToDevice(Ast, Call))
    return "moved already";
  if (Ctx.isPerSampleCode(Call))
    return "per-sample code";
  if (Ctx.facts().placement().staysOnHost(Call))
    return "the analysis: stays on the host";
  if (gatheredInto(Ast, Call))
    return "gathered host rows";
  if (feedsHostBuiltTensor(Ast, Call))
    return "written into a host-built tensor";
  if (isOnlyHandedAsHostData(Ast, Call, [this](const HandedTo &To) {
        return Ctx.facts().receivesHostData(*To.Callee, To.Index);
      }))
    return "handed as host data";
  return nullptr;
}

void HostMemoryTensorRule::explain(const CallExpr &Call, const char *HostReason) {
  const Placement Analysed = Ctx.facts().placement().of(Call);
  const char *Where = Analysed.Where == Placement::Device ? "device"
                      : Analysed.Where == Placement::Host ? "host"
                      : Analysed.Where == Placement::Parameter ? "a parameter's"
                                                               : "free";
  diag(Call.getBeginLoc(),
       std::string("placement: analysis ") + Where + (Ctx.facts().placement().staysOnHost(Call) ? " (stays)" : "") +
           ", rules " + (HostReason ? std::string("host (") + HostReason + ")" : "device"),
       DiagnosticIDs::Note);
}

void HostMemoryTensorRule::registerMatchers(MatchFinder *Finder) {
  // Already followed by `.to(<device>)`: nothing to do (this keeps the rule idempotent).
  auto MovedToDevice = hasParent(memberExpr(
      member(hasName("to")), hasParent(cxxMemberCallExpr(hasArgument(0, isDeviceExpr())))));
  auto IsFromBlob = callee(functionDecl(hasAnyName("::torch::from_blob", "::at::from_blob")));
  auto FromBlob = traverse(TK_IgnoreUnlessSpelledInSource,
                           callExpr(IsFromBlob, isExpansionInFile(Ctx.file()),
                                    unless(isInTemplateInstantiation()), unless(MovedToDevice))
                               .bind("call"));
  // In a template (`toTensor<T>(std::vector<T>)`) the call is resolved only in
  // each instantiation; their locations are the template's, so every
  // instantiation asks for the same edit and the consumer keeps it once.
  auto InstantiatedFromBlob =
      traverse(TK_AsIs, callExpr(IsFromBlob, isExpansionInFile(Ctx.file()), isInTemplateInstantiation())
                            .bind("call"));

  auto DeviceCopy = clang::transformer::run([this](const MatchFinder::MatchResult &Result)
                                                -> Expected<std::string> {
    const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
    const char *HostReason = hostReason(*Call);
    if (Ctx.options().ExplainPlacement)
      explain(*Call, HostReason);
    if (HostReason)
      return std::string(); // kept on the CPU for host code; moved later or already
    if (Ctx.registry().registerInstead(*Call))
      return std::string(); // the registry moves it
    if (const FieldDecl *Shared = sharedWrittenMember(Ctx.ast(), *Call);
        Shared && WarnedShared.insert(Call).second) // the stencil may be evaluated more than once
      diag(Call->getBeginLoc(),
           "'from_blob' views the memory of '" + Shared->getName().str() +
               "', a member its class writes elsewhere: on the CPU the tensor follows those "
               "writes, and the device copy made here does not; clone() it here if the sharing "
               "is not meant, or keep it on the host and move it where it is used")
          << Call->getSourceRange();
    return ".to(" + Ctx.device().at(*Call) + ")";
  });

  // Rows copied from host data one by one and joined: the joined batch is
  // moved, once (HostWrites.h, isGatheredHostRows).
  const std::vector<std::string> Joins = functionsWithEffect({TensorEffect::Join});
  // The rows as written, or through an explicit list type
  // (`torch::stack(torch::TensorList(rows))`).
  auto Rows = anyOf(ignoringImplicit(declRefExpr(to(varDecl().bind("rows")))),
                    hasDescendant(declRefExpr(to(varDecl().bind("rows")))));
  auto Join =
      traverse(TK_IgnoreUnlessSpelledInSource,
               callExpr(callee(functionDecl(
                            hasAnyName(std::vector<StringRef>(Joins.begin(), Joins.end())))),
                        isExpansionInFile(Ctx.file()), unless(isInTemplateInstantiation()),
                        unless(MovedToDevice),
                        hasArgument(0, Rows))
                   .bind("call"));
  auto JoinedCopy = clang::transformer::run(
      [this, DeviceCopy](const MatchFinder::MatchResult &Result) -> Expected<std::string> {
        if (!isGatheredHostRows(Ctx.ast(), *Result.Nodes.getNodeAs<VarDecl>("rows")))
          return std::string();
        return DeviceCopy->eval(Result);
      });

  // A tensor over host memory, copied to the device.
  compat::emplaceTransformer(Rewriter,
                             applyFirst({makeRule(FromBlob, insertAfter(node("call"), DeviceCopy)),
                                         makeRule(InstantiatedFromBlob, insertAfter(node("call"), DeviceCopy)),
                                         makeRule(Join, insertAfter(node("call"), JoinedCopy))}),
                   [this](Expected<tooling::AtomicChange> Change) {
                     if (!Change) {
                       diag(SourceLocation(), llvm::toString(Change.takeError()));
                       return;
                     }
                     for (const tooling::Replacement &R : Change->getReplacements())
                       if (R.getLength() || !R.getReplacementText().empty())
                         rewrite(SourceRange(),
                                 replacement(R.getOffset(), R.getOffset() + R.getLength(),
                                             R.getReplacementText()));
                   });
  Rewriter->registerMatchers(Finder);
}

} // namespace to_device_migrate
