#include "engine/DevicePlan.h"
#include "engine/MigrationContext.h"

#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace to_device_migrate {

namespace {

/// Whether `torch::Device`, `torch::device()`, `torch::kCUDA` name ATen's: in
/// <torch/types.h> (brought by <torch/torch.h>, <torch/script.h>...), namespace
/// torch has `using namespace at;`. A file that only includes ATen may still
/// see a `torch` namespace (ATen declares torch::jit pieces) without it, and
/// must be spelled with `at::` (found by the corpus run in tensor_cuda.cpp).
bool torchSpellsAten(ASTContext &Context) {
  IdentifierInfo &Torch = Context.Idents.get("torch");
  for (NamedDecl *D : Context.getTranslationUnitDecl()->lookup(DeclarationName(&Torch)))
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(D))
      for (const UsingDirectiveDecl *Using : Namespace->using_directives())
        if (const NamespaceDecl *Nominated = Using->getNominatedNamespace();
            Nominated && Nominated->getName() == "at")
          return true;
  return false;
}

} // namespace

void DevicePlan::reset(ASTContext &Context) {
  RequiredIncludes.clear();
  Scope.reset();
  InsertedDeviceName.clear();
  FirstInsertedDeviceUse = ~0u;
  TorchNamespace = torchSpellsAten(Context) ? "torch" : "at";
}

void DevicePlan::requireInclude(llvm::StringRef Header) {
  if (!llvm::is_contained(RequiredIncludes, Header))
    RequiredIncludes.push_back(Header.str());
}

FileScope &DevicePlan::scope() {
  if (!Scope)
    Scope.emplace(Ctx.ast());
  return *Scope;
}

std::string DevicePlan::at(const Stmt &Site) {
  return at(DynTypedNode::create(Site), Site.getBeginLoc());
}

std::string DevicePlan::at(const Decl &Site) {
  return at(DynTypedNode::create(Site), Site.getBeginLoc());
}

std::string DevicePlan::at(const DynTypedNode &Site, SourceLocation SiteLoc) {
  if (const VarDecl *VD = scope().findDeviceVariable(Site, SiteLoc))
    return VD->getName().str();
  return forInsertedDeclaration(SiteLoc);
}

std::string DevicePlan::forInsertedDeclaration(SourceLocation Site) {
  if (InsertedDeviceName.empty())
    InsertedDeviceName = freshTopLevelName("device", "target_device");
  unsigned Offset = Ctx.offsetOf(Ctx.sources().getExpansionLoc(Site));
  FirstInsertedDeviceUse = std::min(FirstInsertedDeviceUse, Offset);
  return InsertedDeviceName;
}

namespace {

/// Whether `torch::cuda::is_available` is declared: <torch/torch.h> declares
/// it, but a file may include only parts of LibTorch (<torch/script.h>,
/// <torch/types.h>), where `torch::cuda` is ATen's namespace without it.
bool declaresCudaAvailability(ASTContext &Ast) {
  const DeclContext *Context = Ast.getTranslationUnitDecl();
  for (StringRef Name : {"torch", "cuda"}) {
    const NamespaceDecl *Namespace = nullptr;
    for (NamedDecl *D : Context->lookup(DeclarationName(&Ast.Idents.get(Name))))
      if ((Namespace = dyn_cast<NamespaceDecl>(D)))
        break;
    if (!Namespace)
      return false;
    Context = Namespace;
  }
  return !Context->lookup(DeclarationName(&Ast.Idents.get("is_available"))).empty();
}

} // namespace

std::string DevicePlan::expression() {
  if (Ctx.options().DeviceExpr.empty() && TorchNamespace == "torch") {
    if (!declaresCudaAvailability(Ctx.ast()))
      requireInclude("torch/cuda.h");
    return "torch::cuda::is_available() ? torch::kCUDA : torch::kCPU";
  }
  if (Ctx.options().DeviceExpr.empty())
    return "at::hasCUDA() ? at::kCUDA : at::kCPU";
  if (StringRef(Ctx.options().DeviceExpr).contains("todevice::distributed::"))
    requireInclude("todevice/distributed.h");
  else if (StringRef(Ctx.options().DeviceExpr).contains("todevice::"))
    requireRuntimeInclude();
  return Ctx.options().DeviceExpr;
}

std::string DevicePlan::freshName(StringRef Preferred, StringRef Fallback) {
  return scope().freshName(Preferred, Fallback);
}

std::string DevicePlan::freshTopLevelName(StringRef Preferred, StringRef Fallback) {
  const std::string &Prefix = Ctx.options().HeaderPrefix;
  if (Prefix.empty())
    return freshName(Preferred, Fallback);
  return freshName(Prefix + "_" + Preferred.str(), Prefix + "_" + Fallback.str());
}

std::optional<std::pair<std::string, unsigned>> DevicePlan::insertedDeviceUse() const {
  if (InsertedDeviceName.empty())
    return std::nullopt;
  return std::make_pair(InsertedDeviceName, FirstInsertedDeviceUse);
}

} // namespace to_device_migrate
