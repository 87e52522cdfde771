#include "DeviceScope.h"
#include "TorchTypes.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace todevice {
namespace {

const VarDecl *deviceParameter(ArrayRef<ParmVarDecl *> Params) {
  for (const ParmVarDecl *P : Params)
    if (isDeviceType(P->getType()) && P->getIdentifier())
      return P;
  return nullptr;
}

/// The last device variable declared by the statements of `Block` that come
/// before the one containing `SiteLoc`.
const VarDecl *deviceDeclaredBefore(const CompoundStmt &Block, SourceLocation SiteLoc,
                                    const SourceManager &SM) {
  const VarDecl *Found = nullptr;
  for (const Stmt *S : Block.body()) {
    if (!SM.isBeforeInTranslationUnit(S->getEndLoc(), SiteLoc))
      break;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && isDeviceType(VD->getType()))
          Found = VD;
  }
  return Found;
}

/// Walks the main file's namespace-scope declarations.
class GlobalDeviceFinder : public RecursiveASTVisitor<GlobalDeviceFinder> {
public:
  GlobalDeviceFinder(const SourceManager &SM, SourceLocation SiteLoc) : SM(SM), SiteLoc(SiteLoc) {}
  bool TraverseFunctionDecl(FunctionDecl *) { return true; } // locals are not globals
  bool TraverseCXXMethodDecl(CXXMethodDecl *) { return true; }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage() && !VD->isStaticDataMember() && isDeviceType(VD->getType()) &&
        SM.isBeforeInTranslationUnit(VD->getEndLoc(), SiteLoc) &&
        VD->getDeclContext()->isFileContext())
      Found = VD;
    return true;
  }
  const VarDecl *Found = nullptr;

private:
  const SourceManager &SM;
  SourceLocation SiteLoc;
};

/// Every name the main file declares, plus the namespaces it pulls in.
class NameCollector : public RecursiveASTVisitor<NameCollector> {
public:
  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getIdentifier())
      Names.insert(D->getName());
    return true;
  }
  bool VisitUsingDirectiveDecl(UsingDirectiveDecl *D) {
    if (const NamespaceDecl *NS = D->getNominatedNamespace())
      Nominated.push_back(NS);
    return true;
  }
  llvm::StringSet<> Names;
  std::vector<const NamespaceDecl *> Nominated;
  const llvm::StringSet<> *Taken = nullptr; ///< names the tool already introduced
};

bool declaredIn(const DeclContext *DC, DeclarationName Name, int Depth = 0) {
  if (!DC || Depth > 4)
    return false;
  if (!DC->getPrimaryContext()->lookup(Name).empty())
    return true;
  for (const UsingDirectiveDecl *UD : DC->using_directives())
    if (declaredIn(UD->getNominatedNamespace(), Name, Depth + 1))
      return true;
  return false;
}

bool isFree(ASTContext &Ctx, const NameCollector &Main, llvm::StringRef Name) {
  if (Main.Names.count(Name) || Main.Taken->count(Name))
    return false;
  IdentifierInfo &Id = Ctx.Idents.get(Name);
  if (Id.hasMacroDefinition())
    return false;
  DeclarationName DN(&Id);
  if (!Ctx.getTranslationUnitDecl()->lookup(DN).empty())
    return false;
  for (const NamespaceDecl *NS : Main.Nominated)
    if (declaredIn(NS, DN))
      return false;
  return true;
}

} // namespace

const VarDecl *findDeviceVariable(ASTContext &Ctx, const DynTypedNode &Site,
                                  SourceLocation SiteLoc) {
  const SourceManager &SM = Ctx.getSourceManager();
  DynTypedNode Node = Site;
  bool LocalsVisible = true;
  while (LocalsVisible) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      break;
    Node = Parents[0];
    if (const auto *Block = Node.get<CompoundStmt>()) {
      if (const VarDecl *VD = deviceDeclaredBefore(*Block, SiteLoc, SM))
        return VD;
    } else if (const auto *Lambda = Node.get<LambdaExpr>()) {
      if (const VarDecl *VD = deviceParameter(Lambda->getCallOperator()->parameters()))
        return VD;
      // A lambda without a capture default cannot name the enclosing locals.
      LocalsVisible = Lambda->getCaptureDefault() != LCD_None;
    } else if (const auto *Function = Node.get<FunctionDecl>()) {
      if (const VarDecl *VD = deviceParameter(Function->parameters()))
        return VD;
      break;
    }
  }
  GlobalDeviceFinder Globals(SM, SiteLoc);
  for (Decl *D : Ctx.getTraversalScope())
    Globals.TraverseDecl(D);
  return Globals.Found;
}

std::string chooseFreshName(ASTContext &Ctx, llvm::StringRef Preferred, llvm::StringRef Fallback,
                            const llvm::StringSet<> &Taken) {
  NameCollector Main;
  Main.Taken = &Taken;
  for (Decl *D : Ctx.getTraversalScope())
    Main.TraverseDecl(D);
  if (isFree(Ctx, Main, Preferred))
    return Preferred.str();
  if (isFree(Ctx, Main, Fallback))
    return Fallback.str();
  for (int I = 1;; ++I) {
    std::string Name = Fallback.str() + "_" + std::to_string(I);
    if (isFree(Ctx, Main, Name))
      return Name;
  }
}

} // namespace todevice
