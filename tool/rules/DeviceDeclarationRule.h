// device-declaration: where a file uses a device no declaration provides,
// declare one, once, after the file's includes:
//   const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
// It also adds `#include <todevice/todevice.h>`, once, when the device
// expression or the registry mode uses the runtime.
#pragma once

#include "../lib/Rule.h"

namespace to_device_migrate {

class DeviceDeclarationRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &) override {}
  void finishFile() override;

private:
  void insertDeviceDeclaration(const std::string &Expression);
  void insertRequiredIncludes();
};

} // namespace to_device_migrate
