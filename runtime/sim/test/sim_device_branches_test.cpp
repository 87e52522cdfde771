// ATen composites that test the device type take the CPU's path on the
// simulator too (sim_cpu_path.cpp, sim_fallback.cpp): forward results and
// input gradients equal the CPU's bit for bit. Each of these differed before
// (in the last bits, or an error) on LibTorch 1.13 or 2.6; docs/simulator.md
// lists what remains different.
#include "todevice/sim.h"

#include <gtest/gtest.h>
#include <torch/version.h>

#include <functional>

namespace {

using todevice::sim::device;
using Op = std::function<torch::Tensor(const torch::Tensor&)>;

/// Runs `op` forward and backward on the CPU and on the simulator from the same input.
void expect_cpu_results(const torch::Tensor& input, const Op& op) {
  torch::Tensor cpu_in = input.clone(at::MemoryFormat::Preserve).requires_grad_();
  torch::Tensor sim_in = input.to(device()).detach().requires_grad_();
  torch::Tensor cpu_out = op(cpu_in);
  torch::Tensor sim_out = op(sim_in);
  ASSERT_EQ(sim_out.device(), device());
  EXPECT_TRUE(torch::equal(cpu_out, sim_out.cpu())) << "forward";
  torch::manual_seed(7);
  torch::Tensor grad = torch::randn_like(cpu_out);
  cpu_out.backward(grad);
  sim_out.backward(grad.to(device()));
  ASSERT_TRUE(sim_in.grad().defined());
  EXPECT_EQ(sim_in.grad().device(), device());
  EXPECT_TRUE(torch::equal(cpu_in.grad(), sim_in.grad().cpu())) << "backward";
}

torch::Tensor images(at::MemoryFormat format = at::MemoryFormat::Contiguous) {
  torch::manual_seed(3);
  return torch::randn({4, 6, 9, 7}).contiguous(format);
}

TEST(SimDeviceBranches, GlobalAveragePooling2d) {
  expect_cpu_results(images(), [](const torch::Tensor& x) {
    return torch::adaptive_avg_pool2d(x, {1, 1});
  });
}

TEST(SimDeviceBranches, GlobalAveragePooling2dChannelsLast) {
  expect_cpu_results(images(at::MemoryFormat::ChannelsLast), [](const torch::Tensor& x) {
    return torch::adaptive_avg_pool2d(x, {1, 1});
  });
}

TEST(SimDeviceBranches, GlobalAveragePooling1dAnd3d) {
  torch::manual_seed(4);
  expect_cpu_results(torch::randn({3, 5, 33}), [](const torch::Tensor& x) {
    return torch::adaptive_avg_pool1d(x, 1);
  });
  expect_cpu_results(torch::randn({2, 3, 5, 6, 7}), [](const torch::Tensor& x) {
    return torch::adaptive_avg_pool3d(x, {1, 1, 1});
  });
}

TEST(SimDeviceBranches, AveragePoolingToOtherSizes) {
  expect_cpu_results(images(), [](const torch::Tensor& x) {
    return torch::adaptive_avg_pool2d(x, {3, 2});
  });
}

TEST(SimDeviceBranches, GroupNormChannelsLast) {
  torch::manual_seed(5);
  const torch::Tensor weight = torch::rand({6}), bias = torch::rand({6});
  expect_cpu_results(images(at::MemoryFormat::ChannelsLast), [&](const torch::Tensor& x) {
    return torch::group_norm(x, 3, weight.to(x.device()), bias.to(x.device()), 1e-5);
  });
}

TEST(SimDeviceBranches, MishBackward) {
  expect_cpu_results(images(), [](const torch::Tensor& x) { return torch::mish(x); });
}

#if TORCH_VERSION_MAJOR >= 2
TEST(SimDeviceBranches, ScaledDotProductAttention) {
  torch::manual_seed(6);
  const torch::Tensor key = torch::randn({2, 4, 5, 8}), value = torch::randn({2, 4, 5, 8});
  expect_cpu_results(torch::randn({2, 4, 5, 8}), [&](const torch::Tensor& query) {
    return torch::scaled_dot_product_attention(query, key.to(query.device()),
                                               value.to(query.device()));
  });
}
#endif

} // namespace
