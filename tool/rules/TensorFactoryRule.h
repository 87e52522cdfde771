// tensor-factory: create tensors on the device instead of copying them there.
//   torch::randn({10, 10})             -> torch::randn({10, 10}, torch::device(device))
//   torch::zeros({3}, torch::kFloat)   -> torch::zeros({3}, torch::TensorOptions(torch::kFloat).device(device))
//   torch::ones({2}, torch::dtype(k))  -> torch::ones({2}, torch::dtype(k).device(device))
// Options the program keeps (a member, a global, a getter's result) are
// followed to the values it gives them, and completed where they are used when
// none names a device (none in sight: set in another file). Calls whose options
// already name a device, copy a tensor's (`x.options()`), or come from a
// function parameter (the caller's business) are left alone, and so is per-sample code (a
// dataset's get(): the batch is moved instead). A factory in a macro body is
// placed where the macro is used: MAKE_NOISE(3) -> MAKE_NOISE(3).to(device).
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class TensorFactoryRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  /// Does a factory's options argument name a device?
  enum class DeviceNamed { Yes, No, Unknown };

private:
  /// The device `Call` is made on: a parameter's (`x.device()`) where the
  /// placement analysis follows one, else the program's; "" when the
  /// registry moves it instead (--mode=registry).
  std::string deviceFor(const clang::CallExpr &Call, bool Instantiated);
  /// Notes where the placement analysis puts `Call` (--explain-placement).
  void explain(const clang::CallExpr &Call);
  /// `torch::ones({2})` -> `torch::ones({2}, torch::device(d))`.
  /// Appends `torch::device(d)` as the argument `OptionsIndex` of `Factory`
  /// (the callee, or the overload beside it that takes options).
  /// `DType`: the dtype the call's tensor has without options, when its
  /// factory's default options do not say it (an overload without options).
  void addOptions(const clang::CallExpr &Call, const clang::FunctionDecl &Factory,
                  unsigned OptionsIndex, bool Instantiated, llvm::StringRef DType = "");
  /// `torch::ones({2}, opts)` -> `torch::ones({2}, opts.device(d))`.
  void addDeviceToOptions(const clang::CallExpr &Call, const clang::Expr &Written,
                          DeviceNamed Named, bool Instantiated);
  /// The factory comes from a macro body: move the macro's value where it is used.
  /// `.to(device)` after a factory that takes no options.
  void moveWhatItMakes(const clang::CallExpr &Call, bool Instantiated);
  void placeWhereMacroIsUsed(const clang::CallExpr &Call, DeviceNamed Named);
};

} // namespace to_device_migrate
