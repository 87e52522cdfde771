#include "facts/ModuleConstruction.h"
#include "facts/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Analysis/CallGraph.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace to_device_migrate {
namespace {

bool isModuleMethod(const FunctionDecl &F) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&F);
  return Method && isOrDerivesFrom(Method->getParent(), "torch::nn::Module");
}

} // namespace

llvm::DenseSet<const FunctionDecl *>
runDuringModuleConstruction(llvm::ArrayRef<const FunctionDecl *> Functions) {
  CallGraph Graph;
  for (const FunctionDecl *F : Functions)
    Graph.addToCallGraph(const_cast<FunctionDecl *>(F));
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const FunctionDecl *, 2>> Callers;
  for (const auto &[Decl, Node] : Graph) {
    const auto *Caller = dyn_cast_or_null<FunctionDecl>(Decl);
    if (!Caller)
      continue;
    for (const CallGraphNode::CallRecord &Call : *Node)
      if (const auto *Callee = dyn_cast_or_null<FunctionDecl>(Call.Callee->getDecl()))
        Callers[Callee->getCanonicalDecl()].push_back(Caller->getCanonicalDecl());
  }

  llvm::DenseSet<const FunctionDecl *> During;
  for (const FunctionDecl *F : Functions)
    if (isModuleMethod(*F) &&
        (isa<CXXConstructorDecl>(F) || Callers.count(F->getCanonicalDecl())))
      During.insert(F->getCanonicalDecl());
  // The greatest set closed under "every caller is in it": a method leaves
  // it when anything else calls it, until nothing more leaves.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const FunctionDecl *F : Functions) {
      const FunctionDecl *Canonical = F->getCanonicalDecl();
      if (isa<CXXConstructorDecl>(F) || !During.count(Canonical))
        continue;
      if (llvm::any_of(Callers[Canonical], [&](const FunctionDecl *Caller) { return !During.count(Caller); })) {
        During.erase(Canonical);
        Changed = true;
      }
    }
  }
  return During;
}

} // namespace to_device_migrate
