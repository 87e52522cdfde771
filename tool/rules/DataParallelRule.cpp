#include "DataParallelRule.h"
#include "facts/Matchers.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Core/Replacement.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {

void DataParallelRule::registerMatchers(MatchFinder *Finder) {
  if (!Ctx.options().DataParallel)
    return;
  const auto Model = ignoringImpCasts(declRefExpr(to(varDecl(holdsModule()).bind("model"))));
  const auto InLoop = hasAncestor(stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt())));
  const auto TensorArgument = ignoringImpCasts(expr(hasType(hasCanonicalType(hasDeclaration(
      cxxRecordDecl(hasName("::at::Tensor")))))).bind("input"));
  const auto ReturnsTensor = hasType(hasCanonicalType(hasDeclaration(cxxRecordDecl(hasName("::at::Tensor")))));
  // model->forward(x), for a shared_ptr or a module holder.
  Finder->addMatcher(cxxMemberCallExpr(isExpansionInFile(Ctx.file()), InLoop, ReturnsTensor,
                                       callee(cxxMethodDecl(hasName("forward"))),
                                       argumentCountIs(1), hasArgument(0, TensorArgument),
                                       on(cxxOperatorCallExpr(hasOverloadedOperatorName("->"),
                                                              hasArgument(0, Model))))
                         .bind("call"),
                     this);
  // model(x), a module holder's call operator.
  Finder->addMatcher(cxxOperatorCallExpr(isExpansionInFile(Ctx.file()), InLoop, ReturnsTensor,
                                         hasOverloadedOperatorName("()"), argumentCountIs(2),
                                         hasArgument(0, Model), hasArgument(1, TensorArgument))
                         .bind("call"),
                     this);
}

void DataParallelRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<Expr>("call");
  const auto *Model = Result.Nodes.getNodeAs<VarDecl>("model");
  const auto *Input = Result.Nodes.getNodeAs<Expr>("input");
  const ModuleType Type = classifyModuleType(Model->getType());
  if (Type.Handle != ModuleHandle::SharedPtr && Type.Handle != ModuleHandle::Holder)
    return;
  if (!isOrDerivesFrom(Type.Class, "torch::nn::Cloneable")) {
    const std::string Class = Type.Class ? Type.Class->getNameAsString() : "the module";
    diag(Call->getBeginLoc(),
         "'" + Model->getNameAsString() +
             "' is not run with data_parallel: it replicates a module "
             "with clone(), which '" +
             Class + "' does not implement; derive it from torch::nn::Cloneable<" + Class +
             "> and define reset() to use several GPUs",
         DiagnosticIDs::Note)
        << Call->getSourceRange();
    return;
  }
  if (Helper.empty())
    Helper = Ctx.device().freshTopLevelName("data_parallel_forward", "data_parallel_forward_");
  // `model(x)` -> `helper(model, x)` by replacing what precedes the input
  // (`model(`, `model->forward(`): the input and the call's `)` stay as
  // written, so a forward call nested in the input (`decode(embed(x))`) gets
  // its own edit there instead of conflicting with one over the whole call.
  const unsigned Begin = Ctx.offsetOf(compat::beginOf(*cast<CallExpr>(Call)));
  const unsigned InputBegin = Ctx.offsetOf(Input->getBeginLoc());
  rewrite(Call->getSourceRange(),
          replacement(Begin, InputBegin, Helper + "(" + Model->getNameAsString() + ", "));
  // The helper goes before the top-level declaration holding the first call.
  if (std::optional<unsigned> Start = Ctx.topLevelDeclarationLineStart(Begin))
    HelperOffset = std::min(HelperOffset, *Start);
}

void DataParallelRule::onEndOfFile() {
  if (!Helper.empty() && HelperOffset != ~0u)
    insertHelper();
}

void DataParallelRule::insertHelper() {
  const std::string NL = "\n"; // the consumer turns it into CRLF in a CRLF file
  // Guarded: the header and data_parallel's symbols exist only in CUDA builds of LibTorch.
  const std::string CudaBuild = "#if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>) // LibTorch built with CUDA";
  rewrite(
      SourceRange(),
      insertion(HelperOffset,
                CudaBuild + NL + "#include <torch/nn/parallel/data_parallel.h>" + NL + "#endif" +
                    NL + NL +
                    "// Runs module(input) on every CUDA device when there are several (added by" +
                    NL + "// to-device-migrate)." + NL + "template <typename Module>" + NL +
                    "torch::Tensor " + Helper + "(Module &module, const torch::Tensor &input) {" +
                    NL + CudaBuild + NL + "  if (torch::cuda::device_count() > 1)" + NL +
                    "    return torch::nn::parallel::data_parallel(module, input);" + NL +
                    "#endif" + NL + "  return module->forward(input);" + NL + "}" + NL + NL));
}

} // namespace to_device_migrate
