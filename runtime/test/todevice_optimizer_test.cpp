// Optimizer state follows its parameters: moved, and keyed by the parameter's
// TensorImpl exactly as LibTorch's optimizers look it up.
#include "todevice/todevice.h"

#include "torch_compat.h"

#include <gtest/gtest.h>

namespace {

const torch::Device kMeta(torch::kMeta);
const torch::Device kCpu(torch::kCPU);

// How LibTorch keys optimizer state (text up to 2.1, the TensorImpl address after).
todevice::compat::OptimizerStateKey key(const torch::Tensor& t) {
  return todevice::compat::optimizer_state_key(t);
}

// One optimization step with a known gradient, so the optimizer creates its state.
void step(torch::optim::Optimizer& optimizer, torch::Tensor& w) {
  optimizer.zero_grad();
  (w * w).sum().backward();
  optimizer.step();
}

TEST(Optimizer, SgdMomentumMovesAndIsRekeyed) {
  torch::Tensor w = torch::randn({5}, torch::requires_grad());
  torch::optim::SGD sgd({w}, torch::optim::SGDOptions(0.1).momentum(0.9));
  step(sgd, w);
  ASSERT_EQ(sgd.state().size(), 1u);

  todevice::Registry registry;
  registry.add(w, todevice::named("sgd", sgd));
  const auto moved = registry.to(kMeta);

  EXPECT_TRUE(w.is_meta());
  EXPECT_TRUE(w.is_leaf());
  EXPECT_TRUE(w.requires_grad());
  auto& param = sgd.param_groups()[0].params()[0];
  EXPECT_TRUE(param.is_same(w)); // the optimizer updates the user's tensor
  ASSERT_EQ(sgd.state().size(), 1u);
  ASSERT_EQ(sgd.state().count(key(w)), 1u) << "state must be keyed by the moved parameter";
  auto& state = static_cast<torch::optim::SGDParamState&>(*sgd.state().at(key(w)));
  EXPECT_TRUE(state.momentum_buffer().is_meta());
  EXPECT_TRUE(w.grad().is_meta());
  EXPECT_EQ(moved.tensors, 3u); // w, w.grad, momentum
  EXPECT_TRUE(registry.audit(kMeta).ok()) << registry.audit(kMeta);

  // The optimizer finds its state again: a step must reuse it, not start afresh.
  w.mutable_grad() = torch::ones({5}, torch::TensorOptions().device(kMeta));
  sgd.step();
  EXPECT_EQ(sgd.state().size(), 1u);
}

TEST(Optimizer, AdamStateAfterAStepMoves) {
  torch::Tensor w = torch::randn({2, 3}, torch::requires_grad());
  torch::Tensor b = torch::zeros({3}, torch::requires_grad());
  torch::optim::Adam adam({w, b}, torch::optim::AdamOptions(1e-3).amsgrad(true));
  {
    adam.zero_grad();
    (w.sum() + b.sum()).backward();
    adam.step();
  }
  ASSERT_EQ(adam.state().size(), 2u);

  todevice::Registry registry;
  registry.add(w, b, adam);
  registry.to(kMeta);
  for (const auto* p : {&w, &b}) {
    ASSERT_EQ(adam.state().count(key(*p)), 1u);
    auto& s = static_cast<torch::optim::AdamParamState&>(*adam.state().at(key(*p)));
    EXPECT_TRUE(s.exp_avg().is_meta());
    EXPECT_TRUE(s.exp_avg_sq().is_meta());
    EXPECT_TRUE(s.max_exp_avg_sq().is_meta());
    EXPECT_EQ(s.step(), 1);
  }
  EXPECT_TRUE(adam.param_groups()[0].params()[1].is_same(b));
  const auto report = registry.audit(kCpu);
  // w, b and their grads, seen through the variables and the optimizer, plus 6 state tensors
  EXPECT_EQ(report.findings.size(), 2u * 4u + 2u * 3u) << report;
}

TEST(Optimizer, StateLoadedOnCpuFollowsModuleParameters) {
  // Module parameters move in place (set_data), so the keys stay valid: checked
  // here with a CPU round trip, which must not copy nor re-key anything.
  torch::nn::Linear model(3, 2);
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.5));
  model->zero_grad();
  model->forward(torch::ones({1, 3})).sum().backward();
  sgd.step();
  const auto weight_impl = model->weight.unsafeGetTensorImpl();

  todevice::Registry registry;
  registry.add(model, sgd);
  const auto moved = registry.to(kCpu);
  EXPECT_EQ(moved.tensors, 0u);
  EXPECT_EQ(model->weight.unsafeGetTensorImpl(), weight_impl);
  EXPECT_EQ(sgd.state().count(key(model->weight)), 1u);
  EXPECT_TRUE(sgd.param_groups()[0].params()[0].is_same(model->weight));
}

TEST(Optimizer, StateOfUnregisteredParameterMovesWithTheOptimizer) {
  // The optimizer's own parameter handles are rebound, and its state re-keyed,
  // even if the user's variable was not registered (documented pitfall).
  torch::Tensor w = torch::randn({3}, torch::requires_grad());
  torch::optim::Adagrad adagrad({w});
  step(adagrad, w);
  todevice::Registry registry;
  registry.add(adagrad);
  registry.to(kMeta);
  const auto& param = adagrad.param_groups()[0].params()[0];
  EXPECT_TRUE(param.is_meta());
  EXPECT_TRUE(w.device().is_cpu());
  EXPECT_EQ(adagrad.state().count(key(param)), 1u);
}

} // namespace
