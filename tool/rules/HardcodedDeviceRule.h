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
// Explicit `torch::kCPU` placements are kept and reported as a note.
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
  /// With --device-expr: the availability choice `Choice` (reached from its
  /// `torch::kCUDA`) becomes the device expression where it makes a Device.
  void rewriteDeviceChoice(const clang::AbstractConditionalOperator &Choice);
};

} // namespace to_device_migrate
