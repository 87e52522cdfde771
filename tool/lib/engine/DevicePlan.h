// The device plan of one file: which device variable each site uses (one in
// scope, or the one the tool declares), the names the tool introduces, the
// expression that chooses the device and the includes it needs. The
// device-declaration step (finish/) writes what the plan holds at the end.
#pragma once

#include "facts/DeviceScope.h"

#include "clang/AST/ASTTypeTraits.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace to_device_migrate {

class MigrationContext;

class DevicePlan {
public:
  explicit DevicePlan(MigrationContext &Ctx) : Ctx(Ctx) {}
  /// Forgets the last file's plan (MigrationContext::startTranslationUnit()).
  void reset(clang::ASTContext &Ast);

  /// The device variable to use at `Site`: a `torch::Device` declared in scope
  /// before it (local, parameter or global) or the one the tool will insert.
  std::string at(const clang::Stmt &Site);
  /// Same, for a site that is a declaration (e.g. a model variable).
  std::string at(const clang::Decl &Site);
  /// A name for a new variable that collides with nothing in the file nor
  /// with any name the tool introduced before (see FileScope::freshName()).
  std::string freshName(llvm::StringRef Preferred, llvm::StringRef Fallback);
  /// freshName() for a declaration at namespace scope: prefixed in a header
  /// (see MigrationOptions::HeaderPrefix).
  std::string freshTopLevelName(llvm::StringRef Preferred, llvm::StringRef Fallback);

  /// The expression that chooses the device: --device-expr, or CUDA when
  /// available else the CPU. One that uses the runtime asks for its include.
  std::string expression();
  /// The namespace spelling for inserted code: "torch", or "at" in ATen-only files.
  llvm::StringRef torchNamespace() const { return TorchNamespace; }
  /// The inserted declaration's name and the earliest offset that uses it, if
  /// any site needs it (for the device-declaration step).
  std::optional<std::pair<std::string, unsigned>> insertedDeviceUse() const;

  /// Asks for `#include <Header>` (inserted once, by device-declaration).
  void requireInclude(llvm::StringRef Header);
  /// Asks for `#include <todevice/todevice.h>`.
  void requireRuntimeInclude() { requireInclude("todevice/todevice.h"); }
  const std::vector<std::string> &requiredIncludes() const { return RequiredIncludes; }

private:
  std::string at(const clang::DynTypedNode &Site, clang::SourceLocation SiteLoc);
  std::string forInsertedDeclaration(clang::SourceLocation Site);
  /// The file's declarations, collected on first use.
  FileScope &scope();

  MigrationContext &Ctx;
  std::string TorchNamespace = "torch";
  std::vector<std::string> RequiredIncludes;
  std::optional<FileScope> Scope;
  std::string InsertedDeviceName; ///< chosen on first need
  unsigned FirstInsertedDeviceUse = ~0u;
};

} // namespace to_device_migrate
