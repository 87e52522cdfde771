// per-sample-call: tensors that training code hands to a dataset's or
// transform's method (per-sample code, which stays on the CPU) are brought to
// the host, and what the method returns goes back to the device:
//   denormalize(target.squeeze(0))  ->  denormalize(target.squeeze(0).cpu())
//   normalize(x)                    ->  normalize(x.cpu()).to(device)
// A tensor built on the host for that call (HostWrites.h) is handed as it is.
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class PerSampleCallRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void crossIntoPerSampleCode(const clang::CallExpr &Call, const clang::CXXMethodDecl &Method);
};

} // namespace to_device_migrate
