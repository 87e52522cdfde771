// discarded-move: `x.to(device);` or `x.cuda();` as a statement does nothing
// for a tensor (the moved copy is thrown away); only `x = x.to(device);` moves
// it. The result is assigned back, and a note says so. On modules `->to()`
// works in place and is left alone.
//   x.to(device);   ->   x = x.to(device);
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class DiscardedMoveRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace to_device_migrate
