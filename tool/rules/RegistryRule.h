// registry (only with --mode=registry): instead of rewriting each site, the
// variables that other rules would place are registered with one
// todevice::Registry per function and moved together:
//   auto net = std::make_shared<Net>();        todevice::Registry registry;   (top of the function)
//   auto x = torch::randn({2, 3});       ->    auto net = std::make_shared<Net>();
//   net->forward(x);                           registry.add(net);
//                                              auto x = torch::randn({2, 3});
//                                              registry.add(x);
//                                              registry.to(device);
// `registry.to(device)` follows each run of consecutive registered
// declarations, so it comes before any of their uses; moving what is already
// on the device is free. The rules decide what to place
// (MigrationContext::registerInstead); this one writes the registry code.
#pragma once

#include "../lib/Rule.h"

namespace to_device_migrate {

class RegistryRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &) override {}
  void finishFile() override;
};

} // namespace to_device_migrate
