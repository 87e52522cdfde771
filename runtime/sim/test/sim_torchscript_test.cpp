// TorchScript modules on the simulator: moved there, they run forward, eval,
// freeze and optimize_for_inference with the CPU's results; a module
// optimized on the CPU (its weights possibly in MKL-DNN's layout) meeting
// simulator inputs is the placement error it is.
#include "todevice/sim.h"

#include <gtest/gtest.h>
#include <torch/script.h>

namespace {

using todevice::sim::device;

torch::jit::Module small_network() {
  torch::manual_seed(0);
  torch::jit::Module m("SmallNetwork");
  m.register_parameter("conv_weight", torch::randn({4, 3, 3, 3}), false);
  m.register_parameter("conv_bias", torch::randn({4}), false);
  m.register_parameter("fc_weight", torch::randn({5, 4}), false);
  m.define(R"(
def forward(self, x):
    y = torch.relu(torch.conv2d(x, self.conv_weight, self.conv_bias))
    y = torch.adaptive_avg_pool2d(y, [1, 1]).flatten(1)
    return torch.matmul(y, self.fc_weight.t())
)");
  m.eval();
  return m;
}

torch::Tensor images() {
  torch::manual_seed(1);
  return torch::randn({2, 3, 8, 8});
}

enum class Prepared { AsLoaded, Frozen, OptimizedForInference };

torch::jit::Module prepared(torch::jit::Module m, Prepared how) {
  if (how == Prepared::Frozen)
    return torch::jit::freeze(m);
  if (how == Prepared::OptimizedForInference)
    return torch::jit::optimize_for_inference(m);
  return m;
}

void expect_cpu_results(Prepared how) {
  torch::jit::Module on_cpu = prepared(small_network(), how);
  torch::jit::Module moved = small_network();
  moved.to(device());
  torch::jit::Module on_sim = prepared(moved, how);
  torch::Tensor expected = on_cpu.forward({images()}).toTensor();
  torch::Tensor actual = on_sim.forward({images().to(device())}).toTensor();
  EXPECT_EQ(actual.device(), device());
  EXPECT_TRUE(torch::equal(expected, actual.cpu()));
}

TEST(SimTorchScript, ForwardMatchesTheCpu) { expect_cpu_results(Prepared::AsLoaded); }
TEST(SimTorchScript, FrozenMatchesTheCpu) { expect_cpu_results(Prepared::Frozen); }
TEST(SimTorchScript, OptimizedForInferenceMatchesTheCpu) {
  expect_cpu_results(Prepared::OptimizedForInference);
}

TEST(SimTorchScript, CpuOptimizedModuleWithSimInputIsAPlacementError) {
  torch::jit::Module on_cpu = prepared(small_network(), Prepared::OptimizedForInference);
  try {
    on_cpu.forward({images().to(device())});
    ADD_FAILURE() << "a CPU module ran on simulator inputs";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("Expected all tensors to be on the same device"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
