#include "facts/PerSampleCode.h"
#include "facts/HostWrites.h"
#include "facts/ProgramSummary.h"
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

bool isMemberOfPerSampleClass(const FunctionDecl *F) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
  return Method && isPerSampleClass(Method->getParent());
}

/// Every use of a function, with the code that uses it.
class UseCollector : public RecursiveASTVisitor<UseCollector> {
public:
  explicit UseCollector(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    record(dyn_cast<FunctionDecl>(Ref->getDecl()), DynTypedNode::create(*Ref));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    record(dyn_cast<FunctionDecl>(Member->getMemberDecl()), DynTypedNode::create(*Member));
    return true;
  }
  std::vector<FunctionUse> Uses;

private:
  void record(const FunctionDecl *Callee, DynTypedNode Use) {
    // The program's own functions only: a library's are never per-sample code.
    if (!Callee || isLibraryDecl(Callee))
      return;
    std::string CalleeUsr = usrOf(Callee);
    if (CalleeUsr.empty())
      return;
    EnclosingCode Code = enclosingCode(Ctx, Use);
    FunctionUse Found{std::move(CalleeUsr), FunctionUse::UserKind::Other, ""};
    if (Code.PerSampleLambda || isPerSampleClass(Code.Record) ||
        isMemberOfPerSampleClass(Code.Function) || isGatheredRow(*Callee, Use))
      Found.Kind = FunctionUse::UserKind::PerSample;
    else if (Code.Function) {
      Found.Kind = FunctionUse::UserKind::Function;
      Found.User = usrOf(Code.Function);
    }
    Uses.push_back(std::move(Found));
  }
  /// A call of a host row builder whose tensor the caller gathers into host
  /// rows (`rows.push_back(encode(b))`, HostWrites.h): its code works on the
  /// host, as a data set's does.
  bool isGatheredRow(const FunctionDecl &Callee, DynTypedNode Use) {
    for (int Depth = 0; Depth < 4; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(Use);
      if (Parents.empty())
        return false;
      if (const auto *Call = Parents[0].get<CallExpr>())
        return Call->getCallee()->IgnoreImplicit() == Use.get<Expr>()->IgnoreImplicit() &&
               isHostRowBuilder(Callee) && rowsGathering(Ctx, *Call);
      if (!Parents[0].get<ImplicitCastExpr>() && !Parents[0].get<ParenExpr>())
        return false;
      Use = Parents[0];
    }
    return false;
  }
  ASTContext &Ctx;
};

} // namespace

bool isPerSampleClass(const CXXRecordDecl *Class) {
  return isOrDerivesFrom(Class, "torch::data::datasets::BatchDataset") ||
         isOrDerivesFrom(Class, "torch::data::transforms::BatchTransform");
}

std::vector<FunctionUse> collectFunctionUses(ASTContext &Ctx, llvm::ArrayRef<Decl *> Decls) {
  UseCollector Collector(Ctx);
  for (Decl *D : Decls)
    Collector.TraverseDecl(D);
  return std::move(Collector.Uses);
}

bool PerSampleCode::isPerSampleFunction(const FunctionDecl *F) const {
  return F && (isMemberOfPerSampleClass(F) || Program.isOnlyCalledPerSample(Usr(F)));
}

bool PerSampleCode::contains(const DynTypedNode &Site) const {
  return isPerSample(enclosingCode(Ctx, Site));
}

bool PerSampleCode::isPerSample(const EnclosingCode &Code) const {
  return Code.PerSampleLambda || isPerSampleClass(Code.Record) ||
         isPerSampleFunction(Code.Function);
}

} // namespace to_device_migrate
