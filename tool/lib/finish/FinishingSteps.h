// The finishing steps: rules with nothing to match, whose onEndOfFile()
// completes what the rules did (emit the registry they filled, declare the
// device they use). They come last in the rule list and always run, whatever
// --rules says, since without them the rules' output would not compile.
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

/// registry (with --mode=registry): writes the todevice::Registry code for the
/// variables the rules registered instead of rewriting (RegistryEmission.cpp).
class RegistryStep : public Rule {
public:
  using Rule::Rule;
  void onEndOfFile() override;
};

/// device-declaration: declares the device the rules used, once, if no
/// declaration in scope provides it, and adds the includes they asked for
/// (DeviceDeclaration.cpp). Last: everything before it may use the device.
class DeviceDeclarationStep : public Rule {
public:
  using Rule::Rule;
  void onEndOfFile() override;

private:
  std::vector<unsigned> insertRequiredIncludes();
  void insertDeviceDeclaration(const std::string &Expression, llvm::ArrayRef<unsigned> IncludedAt);
};

} // namespace to_device_migrate
