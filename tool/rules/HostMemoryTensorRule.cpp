#include "HostMemoryTensorRule.h"
#include "../lib/HostWrites.h"
#include "../lib/Matchers.h"
#include "../lib/TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/RewriteRule.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace to_device_migrate {

void HostMemoryTensorRule::registerMatchers(MatchFinder &Finder) {
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
  // instantiation asks for the same edit and the edit set keeps it once.
  auto InstantiatedFromBlob =
      traverse(TK_AsIs, callExpr(IsFromBlob, isExpansionInFile(Ctx.file()), isInTemplateInstantiation())
                            .bind("call"));

  auto DeviceCopy = clang::transformer::run([this](const MatchFinder::MatchResult &Result)
                                                -> Expected<std::string> {
    const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
    if (Ctx.isKeptOnCpu(Call->getBeginLoc()) || Ctx.isPerSampleCode(*Call) ||
        isMovedToDevice(Ctx.ast(), *Call) || gatheredInto(Ctx.ast(), *Call) ||
        waitsForPerSampleCode(Ctx.ast(), *Call))
      return std::string(); // kept on the CPU by the user or for host code; moved later or already
    if (Ctx.registerInstead(*Call))
      return std::string(); // the registry moves it
    return ".to(" + Ctx.deviceAt(*Call) + ")";
  });

  // Rows copied from host data one by one and joined: the joined batch is
  // moved, once (HostWrites.h, isGatheredHostRows).
  auto Join =
      traverse(TK_IgnoreUnlessSpelledInSource,
               callExpr(callee(functionDecl(hasAnyName(
                            "::torch::stack", "::at::stack", "::torch::cat", "::at::cat",
                            "::torch::vstack", "::at::vstack", "::torch::hstack", "::at::hstack"))),
                        isExpansionInFile(Ctx.file()), unless(isInTemplateInstantiation()),
                        unless(MovedToDevice),
                        hasArgument(0, ignoringImplicit(declRefExpr(to(varDecl().bind("rows"))))))
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
                       Ctx.report(SourceLocation(), Finding::Level::Warning,
                                  llvm::toString(Change.takeError()), name());
                       return;
                     }
                     for (const tooling::Replacement &R : Change->getReplacements())
                       if (R.getLength() || !R.getReplacementText().empty())
                         Ctx.addReplacement(R, name());
                   });
  Rewriter->registerMatchers(&Finder);
}

static RuleRegistry::Add<RuleFactoryFor<HostMemoryTensorRule, 20>>
    Registration("host-memory-tensor",
                 "move tensors built over host memory (from_blob) with .to(device), and rows copied from host data once they are joined");

} // namespace to_device_migrate
