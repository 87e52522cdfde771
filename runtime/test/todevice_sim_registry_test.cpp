// The registry moving real modules and optimizers to another device: the
// simulated accelerator (todevice_sim), where Module::to works and every
// operator enforces a GPU's placement rules. (Meta cannot hold modules.)
#include "todevice/sim.h"
#include "todevice/todevice.h"

#include "torch_compat.h"

#include <gtest/gtest.h>

namespace {

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(4, 8));
    fc2 = register_module("fc2", torch::nn::Linear(8, 3));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

// How LibTorch keys optimizer state (text up to 2.1, the TensorImpl address after).
todevice::compat::OptimizerStateKey key(const torch::Tensor& t) {
  return todevice::compat::optimizer_state_key(t);
}

// Trains `steps` steps with Adam and returns the final parameters on the CPU.
std::vector<torch::Tensor> train(torch::Device device, int steps, bool move_midway) {
  torch::manual_seed(3);
  auto net = std::make_shared<Net>();
  torch::nn::CrossEntropyLoss loss_f(
      torch::nn::CrossEntropyLossOptions().weight(torch::tensor({1.0f, 2.0f, 0.5f})));
  auto x = torch::randn({16, 4});
  auto y = torch::randint(0, 3, {16}, torch::kLong);
  double lr = 0.01;
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(lr));

  todevice::Registry registry;
  registry.add(net, loss_f, x, y, todevice::named("adam", adam), todevice::named("lr", lr));
  if (!move_midway)
    registry.to(device);
  for (int i = 0; i < steps; ++i) {
    if (move_midway && i == steps / 2) // optimizer state exists by now and must follow
      registry.to(device);
    adam.zero_grad();
    loss_f(net->forward(x), y).backward();
    adam.step();
  }
  EXPECT_TRUE(registry.audit(device).ok()) << registry.audit(device);
  std::vector<torch::Tensor> params;
  for (const auto &p : net->parameters())
    params.push_back(p.detach().cpu());
  return params;
}

TEST(RegistryOnSimulator, ModulesLossesTensorsAndOptimizerMoveAndTrainIdentically) {
  const auto on_cpu = train(torch::kCPU, 6, false);
  const auto on_sim = train(todevice::sim::device(), 6, false);
  ASSERT_EQ(on_cpu.size(), on_sim.size());
  for (size_t i = 0; i < on_cpu.size(); ++i)
    EXPECT_TRUE(torch::equal(on_cpu[i], on_sim[i])) << "parameter " << i;
}

TEST(RegistryOnSimulator, OptimizerStateCreatedOnCpuFollowsItsParameters) {
  const auto on_cpu = train(torch::kCPU, 6, false);
  const auto moved_midway = train(todevice::sim::device(), 6, true);
  for (size_t i = 0; i < on_cpu.size(); ++i)
    EXPECT_TRUE(torch::equal(on_cpu[i], moved_midway[i])) << "parameter " << i;
}

TEST(RegistryOnSimulator, ModuleParametersKeepTheirIdentityAndState) {
  auto net = std::make_shared<Net>();
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  auto x = torch::randn({2, 4});
  sgd.zero_grad();
  net->forward(x).sum().backward();
  sgd.step();
  const auto before = key(net->fc1->weight);

  todevice::Registry registry;
  registry.add(net, sgd, x);
  const auto result = registry.to(todevice::sim::device());
  EXPECT_EQ(key(net->fc1->weight), before) << "Module::to keeps the TensorImpl";
  EXPECT_TRUE(net->fc1->weight.device().is_xpu());
  auto &state = static_cast<torch::optim::SGDParamState &>(*sgd.state().at(before));
  EXPECT_TRUE(state.momentum_buffer().device().is_xpu());
  EXPECT_GT(result.bytes, 0u);

  // A forgotten tensor is what the audit and the simulator both catch.
  auto forgotten = torch::ones({2, 4});
  EXPECT_THROW(net->forward(forgotten), c10::Error);
  EXPECT_NO_THROW(net->forward(x));
}

TEST(RegistryOnSimulator, MovingBackToTheCpuRestoresEverything) {
  auto net = std::make_shared<Net>();
  auto x = torch::randn({2, 4});
  todevice::Registry registry;
  registry.add(net, x);
  registry.to(todevice::sim::device());
  ASSERT_TRUE(x.device().is_xpu());
  registry.to(torch::kCPU);
  EXPECT_TRUE(x.device().is_cpu());
  EXPECT_TRUE(net->fc2->bias.device().is_cpu());
  EXPECT_TRUE(registry.audit(torch::kCPU).ok());
}

} // namespace
