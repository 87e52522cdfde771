#include "facts/PerSampleCode.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace to_device_migrate {

struct PerSampleCode::EnclosingCode {
  const FunctionDecl *Function = nullptr; ///< whose body or member initialisers hold it
  const CXXRecordDecl *Record = nullptr;  ///< for a default member initialiser
  /// In a lambda handed to a per-sample class (`transforms::Lambda<...>([](...) {...})`).
  bool PerSampleLambda = false;
};

namespace {
using EnclosingCode = PerSampleCode::EnclosingCode;

/// One function for all its redeclarations and template instantiations.
const FunctionDecl *canonical(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  return F->getCanonicalDecl();
}

/// Climbs from `Node` through blocks and lambdas to the code holding it.
EnclosingCode enclosingCode(ASTContext &Ctx, DynTypedNode Node) {
  bool InLambda = false;
  for (int Depth = 0; Depth < 256; ++Depth) {
    if (const auto *F = Node.get<FunctionDecl>()) {
      const auto *Method = dyn_cast<CXXMethodDecl>(F);
      if (!Method || !Method->getParent()->isLambda())
        return {F, nullptr, false};
      // A lambda's body: where the lambda is written decides.
      InLambda = true;
      Node = DynTypedNode::create(*Method->getParent());
    }
    if (const auto *Field = Node.get<FieldDecl>())
      return {nullptr, dyn_cast<CXXRecordDecl>(Field->getParent()), false};
    InLambda |= Node.get<LambdaExpr>() != nullptr;
    if (const auto *Construct = Node.get<CXXConstructExpr>();
        InLambda && Construct && isPerSampleClass(Construct->getConstructor()->getParent()))
      return {nullptr, nullptr, true};
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      break;
    Node = Parents[0];
  }
  return {};
}

/// Every use of a function of the main file, with the code that uses it.
class UseCollector : public RecursiveASTVisitor<UseCollector> {
public:
  UseCollector(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    record(dyn_cast<FunctionDecl>(Ref->getDecl()), DynTypedNode::create(*Ref));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    record(dyn_cast<FunctionDecl>(Member->getMemberDecl()), DynTypedNode::create(*Member));
    return true;
  }
  /// The code using each function.
  llvm::DenseMap<const FunctionDecl *, std::vector<EnclosingCode>> Users;

private:
  void record(const FunctionDecl *Callee, DynTypedNode Use) {
    if (!(Callee = canonical(Callee)))
      return;
    Users[Callee].push_back(enclosingCode(Ctx, Use));
  }
  ASTContext &Ctx;
};

bool isMemberOfPerSampleClass(const FunctionDecl *F) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
  return Method && isPerSampleClass(Method->getParent());
}

} // namespace

bool isPerSampleClass(const CXXRecordDecl *Class) {
  return isOrDerivesFrom(Class, "torch::data::datasets::BatchDataset") ||
         isOrDerivesFrom(Class, "torch::data::transforms::BatchTransform");
}

PerSampleCode::PerSampleCode(ASTContext &Ctx, llvm::ArrayRef<Decl *> Decls,
                             const llvm::DenseSet<FileID> &Files)
    : Ctx(Ctx) {
  UseCollector Uses(Ctx);
  for (Decl *D : Decls)
    Uses.TraverseDecl(D);
  const SourceManager &SM = Ctx.getSourceManager();
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const auto &[Callee, Users] : Uses.Users) {
      const FunctionDecl *Definition = Callee->getDefinition();
      if (OnlyCalledPerSample.count(Callee) || isMemberOfPerSampleClass(Callee) || !Definition ||
          Callee->isMain() || !Files.count(SM.getFileID(SM.getExpansionLoc(Definition->getLocation()))))
        continue;
      if (llvm::all_of(Users, [&](const EnclosingCode &User) { return isPerSample(User); })) {
        OnlyCalledPerSample.insert(Callee);
        Changed = true;
      }
    }
  }
}

bool PerSampleCode::isPerSampleFunction(const FunctionDecl *F) const {
  F = canonical(F);
  return F && (isMemberOfPerSampleClass(F) || OnlyCalledPerSample.count(F));
}

bool PerSampleCode::contains(const DynTypedNode &Site) const {
  return isPerSample(enclosingCode(Ctx, Site));
}

bool PerSampleCode::isPerSample(const EnclosingCode &Code) const {
  return Code.PerSampleLambda || isPerSampleClass(Code.Record) ||
         isPerSampleFunction(Code.Function);
}

} // namespace to_device_migrate
