// device-declaration: where a file uses a device no declaration provides,
// declare one, once, after the file's includes:
//   const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
#pragma once

#include "../lib/Rule.h"

namespace todevice {

class DeviceDeclarationRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &) override {}
  void finishFile() override { insertDeviceDeclaration(); }

private:
  void insertDeviceDeclaration();
};

} // namespace todevice
