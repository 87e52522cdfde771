// data-loader-batch: every batch of training data goes to the device, once, at
// the top of the loop body that uses it, not at every use:
//   for (auto &batch : *loader) {          for (auto &batch : *loader) {
//     auto out = model(batch.data);   ->     batch.data = batch.data.to(device);
//                                            auto out = model(batch.data);
// Applies to range-for loops over torch::data::Example values (a loader with a
// Stack transform, or the std::vector<Example> batches of one without). A const
// loop variable cannot be assigned: its fields are copied into fresh variables
// (`auto batch_data = batch.data.to(device);`) and the uses renamed.
// In a function template the loop is rewritten once, from its instantiations.
// Tensors computed from the batch by the program's own code, without a model
// (`torch::Tensor x = collate(batch).at(0);`), are moved where they are made.
// A sample taken from a data set by hand (`auto s = dataset.get(i);`) gets the
// tensors that device code uses of it moved right after it (its label read
// with item() stays).
#pragma once

#include "engine/Rule.h"

#include <set>

namespace to_device_migrate {

class DataLoaderBatchRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// The statements moving the fields of `Batch` used in `Body` (renaming the
  /// uses of a const batch); empty when there is nothing to move.
  std::string moveFields(const clang::VarDecl &Batch, const clang::Stmt &Body,
                         llvm::ArrayRef<const clang::Stmt *> Statements, bool Assumed);
  /// Tensors the loop body computes from the batch without a module
  /// (`auto parts = collate(batch); torch::Tensor x = parts.at(0);`, a
  /// program's own stacking of a custom item type) are moved where they are
  /// made, when device code uses them.
  void moveDerivedTensors(const clang::VarDecl &Batch, const clang::Stmt &Body,
                          llvm::ArrayRef<const clang::Stmt *> Statements);
  /// `auto sample = dataset.get(i);`: the tensors of the sample that device
  /// code uses are moved right after it.
  void moveSample(const clang::VarDecl &Sample, const clang::CXXMethodDecl &Method);
  std::set<unsigned> RewrittenLoops; ///< offsets of loops already rewritten
};

} // namespace to_device_migrate
