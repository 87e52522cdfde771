#include "ParseFacts.h"
#include "HostWrites.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace to_device_migrate {
namespace {

class HostBuiltReturns : public RecursiveASTVisitor<HostBuiltReturns> {
public:
  HostBuiltReturns(ASTContext &Ast, llvm::DenseSet<const FunctionDecl *> &Found)
      : Ast(Ast), Found(Found) {}
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->doesThisDeclarationHaveABody() && to_device_migrate::returnsHostBuiltTensor(Ast, *F))
      Found.insert(F->getCanonicalDecl());
    return true;
  }

private:
  ASTContext &Ast;
  llvm::DenseSet<const FunctionDecl *> &Found;
};

} // namespace

ParseFacts::ParseFacts(ASTContext &Ast, llvm::ArrayRef<Decl *> Decls,
                       const llvm::DenseSet<FileID> &Files)
    : PerSample(Ast, Decls, Files) {
  HostBuiltReturns Visitor(Ast, ReturnsHostBuilt);
  for (Decl *D : Decls)
    Visitor.TraverseDecl(D);
}

} // namespace to_device_migrate
