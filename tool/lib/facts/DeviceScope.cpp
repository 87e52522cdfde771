#include "facts/DeviceScope.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace to_device_migrate {
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
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && isDeviceType(VD->getType()) && !isPinnedToCpu(*VD))
          Found = VD;
  }
  return Found;
}

/// Every name the main file declares, the namespaces it pulls in, and its
/// namespace-scope device variables.
class Collector : public RecursiveASTVisitor<Collector> {
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
  // Code of the file inside a namespace (even LibTorch's own: `namespace
  // torch { namespace nn { ... } }`) sees that namespace's names, and those
  // its using-directives bring (torch's `using namespace at;` brings
  // `at::device`).
  bool VisitNamespaceDecl(NamespaceDecl *NS) {
    Nominated.push_back(NS);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage() && !VD->isStaticDataMember() &&
        VD->getDeclContext()->isFileContext() && isDeviceType(VD->getType()) && !isPinnedToCpu(*VD))
      GlobalDevices.push_back(VD);
    return true;
  }
  llvm::StringSet<> Names;
  std::vector<const NamespaceDecl *> Nominated;
  std::vector<const VarDecl *> GlobalDevices;
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

} // namespace

FileScope::FileScope(ASTContext &Ctx) : Ctx(Ctx) {
  Collector Main;
  for (Decl *D : Ctx.getTraversalScope())
    Main.TraverseDecl(D);
  Names = std::move(Main.Names);
  Nominated = std::move(Main.Nominated);
  GlobalDevices = std::move(Main.GlobalDevices);
}

const VarDecl *FileScope::findDeviceVariable(const DynTypedNode &Site, SourceLocation SiteLoc) const {
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
  const VarDecl *Found = nullptr;
  for (const VarDecl *VD : GlobalDevices)
    if (SM.isBeforeInTranslationUnit(VD->getEndLoc(), SiteLoc))
      Found = VD;
  return Found;
}

bool FileScope::isFree(llvm::StringRef Name) const {
  if (Names.count(Name))
    return false;
  IdentifierInfo &Id = Ctx.Idents.get(Name);
  if (Id.hasMacroDefinition())
    return false;
  DeclarationName DN(&Id);
  // What the whole translation unit sees at namespace scope: its own names and
  // those of every namespace a using-directive there nominates, in whichever
  // file (`using namespace torch;` in an included header makes torch::device
  // collide with a global `device`).
  if (declaredIn(Ctx.getTranslationUnitDecl(), DN))
    return false;
  for (const NamespaceDecl *NS : Nominated)
    if (declaredIn(NS, DN))
      return false;
  return true;
}

std::string FileScope::freshName(llvm::StringRef Preferred, llvm::StringRef Fallback) {
  std::string Name = Preferred.str();
  for (int I = 0; !isFree(Name); ++I)
    Name = I == 0 ? Fallback.str() : Fallback.str() + "_" + std::to_string(I);
  Names.insert(Name);
  return Name;
}

} // namespace to_device_migrate
