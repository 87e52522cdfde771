// The engine's fixed end-of-file steps: they complete what the rules did
// (emit the registry they filled, declare the device they use) and always run,
// whatever --rules says, since without them the rules' output would not compile.
#pragma once

#include "MigrationContext.h"

#include "llvm/ADT/ArrayRef.h"

namespace to_device_migrate {

struct FinishingStep {
  /// Edits and findings are recorded under this name, as a rule's are.
  const char *Name;
  const char *Summary;
  void (*Run)(MigrationContext &Ctx, llvm::StringRef Name);
};

/// The steps, in the order they run after the rules: the registry first, then
/// the device declaration, last, since everything before it may use the device.
llvm::ArrayRef<FinishingStep> finishingSteps();

/// registry (with --mode=registry): writes the todevice::Registry code for the
/// variables the rules registered instead of rewriting (RegistryEmission.cpp).
void emitRegistries(MigrationContext &Ctx, llvm::StringRef Name);

/// device-declaration: declares the device the rules used, once, if no
/// declaration in scope provides it, and adds the includes they asked for
/// (DeviceDeclaration.cpp).
void declareDevice(MigrationContext &Ctx, llvm::StringRef Name);

} // namespace to_device_migrate
