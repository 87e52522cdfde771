// hardcoded-device: a hard-coded CUDA device crashes on machines without a GPU;
// it becomes the portable device.
//   x.cuda()                       ->  x.to(device)
//   x.to(torch::kCUDA)             ->  x.to(device)
//   torch::device(torch::kCUDA)    ->  torch::device(device)
//   torch::Device dev(torch::kCUDA) -> torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU)
// Code that already chooses (`is_available() ? kCUDA : kCPU`) is left alone,
// unless --device-expr names the device: then a choice that makes a
// torch::Device becomes that expression, so TODEVICE picks (a GPU program
// checked on the simulator: docs/simulator.md):
//   torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU)
//                                  ->  torch::Device dev(todevice::default_device())
// Explicit `torch::kCPU` placements are kept and reported as a note, unless
// what they place is needed on the device (the placement analysis): a tensor
// handed to a module, a local device variable that places only modules and
// such tensors. Those are the program's device, written as the CPU:
//   torch::Device device(torch::kCPU)   ->  torch::Device device(<device>)
//   x.to(torch::kCPU) (then net(x))     ->  x.to(device)
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class HardcodedDeviceRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void rewriteDeviceType(const clang::DeclRefExpr &Ref);
  /// True if the local device variable `Var` places something, and all it
  /// places is for the device (a module, a tensor device code takes).
  bool placesOnlyForTheDevice(const clang::VarDecl &Var) const;
  /// With --device-expr: the availability choice `Choice` (reached from its
  /// `torch::kCUDA`) becomes the device expression where it makes a Device.
  void rewriteDeviceChoice(const clang::AbstractConditionalOperator &Choice);
};

} // namespace to_device_migrate
