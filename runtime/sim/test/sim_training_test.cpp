// Modules, autograd, optimizers, serialization and data loaders on the
// simulator give bit-identical results to the same program on the CPU.
#include "todevice/sim.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace {

using todevice::sim::device;

struct NetImpl : torch::nn::Module {
  NetImpl() {
    features = register_module(
        "features", torch::nn::Sequential(torch::nn::Linear(6, 16), torch::nn::BatchNorm1d(16),
                                          torch::nn::ReLU(), torch::nn::Dropout(0.2)));
    head = register_module("head", torch::nn::Linear(16, 3));
  }
  torch::Tensor forward(torch::Tensor x) { return head(features->forward(x)); }
  torch::nn::Sequential features{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Net);

std::vector<torch::Tensor> state_of(torch::nn::Module& m) {
  std::vector<torch::Tensor> out;
  for (const auto& p : m.parameters())
    out.push_back(p.detach().cpu());
  for (const auto& b : m.buffers())
    out.push_back(b.detach().cpu());
  return out;
}

// Trains a fresh, identically initialised Net on `dev`; returns its state and
// the losses seen.
std::pair<std::vector<torch::Tensor>, std::vector<float>> train_on(torch::Device dev) {
  torch::manual_seed(11);
  Net net;
  auto x = torch::randn({12, 6});
  auto y = torch::randint(0, 3, {12}, torch::kLong);
  torch::nn::CrossEntropyLoss loss_fn(
      torch::nn::CrossEntropyLossOptions().weight(torch::tensor({1.0f, 2.0f, 0.5f})));
  net->to(dev);
  loss_fn->to(dev);
  x = x.to(dev);
  y = y.to(dev);
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-2));
  std::vector<float> losses;
  for (int step = 0; step < 6; ++step) {
    torch::optim::Optimizer& opt = step < 3 ? static_cast<torch::optim::Optimizer&>(sgd) : adam;
    opt.zero_grad();
    auto loss = loss_fn(net->forward(x), y);
    loss.backward();
    opt.step();
    losses.push_back(loss.item<float>());
  }
  for (const auto& p : net->parameters())
    EXPECT_EQ(p.device(), dev);
  return {state_of(*net), losses};
}

TEST(SimTraining, SgdMomentumAndAdamMatchTheCpuBitForBit) {
  auto [cpu_state, cpu_losses] = train_on(torch::kCPU);
  auto [sim_state, sim_losses] = train_on(device());
  ASSERT_EQ(cpu_state.size(), sim_state.size());
  for (size_t i = 0; i < cpu_state.size(); ++i)
    EXPECT_TRUE(torch::equal(cpu_state[i], sim_state[i])) << "tensor " << i;
  EXPECT_EQ(cpu_losses, sim_losses);
  EXPECT_NE(cpu_losses.front(), cpu_losses.back()); // it did train
}

// The hand-written loop of examples/loose_tensors.cpp: leaves updated in place
// under NoGradGuard, gradients zeroed by hand.
torch::Tensor fit_line(torch::Device dev) {
  torch::manual_seed(7);
  auto features = torch::randn({50, 2}).to(dev);
  auto targets = torch::matmul(features, torch::tensor({2.0f, -3.4f}).to(dev)) + 4.2f;
  auto w = torch::zeros({2}, torch::TensorOptions().device(dev).requires_grad(true));
  auto b = torch::zeros({1}, torch::TensorOptions().device(dev).requires_grad(true));
  for (int step = 0; step < 20; ++step) {
    auto loss = (torch::matmul(features, w) + b - targets).pow(2).mean();
    loss.backward();
    torch::NoGradGuard no_grad;
    w -= 0.1 * w.grad();
    b -= 0.1 * b.grad();
    w.grad().zero_();
    b.grad().zero_();
  }
  return torch::cat({w.detach(), b.detach()}).cpu();
}

TEST(SimTraining, HandWrittenGradientDescentMatchesTheCpu) {
  auto cpu = fit_line(torch::kCPU);
  auto sim = fit_line(device());
  EXPECT_TRUE(torch::equal(cpu, sim)) << cpu << sim;
  EXPECT_GT(cpu[0].item<float>(), 1.0f); // it did fit
}

TEST(SimTraining, DropoutForwardAndBackwardMatchTheCpu) {
  torch::manual_seed(1);
  auto x = torch::randn({4096});
  auto run = [&](torch::Device dev) {
    torch::manual_seed(8);
    auto xd = x.to(dev).detach().requires_grad_();
    // With this p, LibTorch's fused path (native_dropout, taken for XPU tensors
    // without the simulator's override) rounds differently from the CPU's.
    auto y = torch::dropout(xd, 0.123, /*train=*/true);
    (y * y).sum().backward();
    return std::make_pair(y.detach().cpu(), xd.grad().cpu());
  };
  auto cpu = run(torch::kCPU);
  auto sim = run(device());
  EXPECT_TRUE(torch::equal(cpu.first, sim.first));
  EXPECT_TRUE(torch::equal(cpu.second, sim.second));
  EXPECT_GT((cpu.first == 0).sum().item<int64_t>(), 0); // some were dropped
}

TEST(SimTraining, GradientsLiveOnTheDevice) {
  auto w = torch::randn({3, 3}).to(device()).requires_grad_();
  auto loss = (w.mm(w) * 2).sum();
  loss.backward();
  ASSERT_TRUE(w.grad().defined());
  EXPECT_EQ(w.grad().device(), device());
  auto wc = w.detach().cpu().requires_grad_();
  (wc.mm(wc) * 2).sum().backward();
  EXPECT_TRUE(torch::equal(w.grad().cpu(), wc.grad()));
}

TEST(SimTraining, ConvolutionGradientsMatchTheCpu) {
  torch::manual_seed(4);
  auto x = torch::randn({2, 3, 8, 8});
  auto w = torch::randn({5, 3, 3, 3});
  auto grads_on = [&](torch::Device dev) {
    auto xd = x.to(dev).detach().requires_grad_(); // a leaf on both devices
    auto wd = w.to(dev).detach().requires_grad_();
    torch::conv2d(xd, wd, {}, 1, 1).relu().pow(2).mean().backward();
    EXPECT_EQ(wd.grad().device(), dev);
    return std::make_pair(xd.grad().cpu(), wd.grad().cpu());
  };
  auto cpu = grads_on(torch::kCPU);
  auto sim = grads_on(device());
  EXPECT_TRUE(torch::equal(cpu.first, sim.first));
  EXPECT_TRUE(torch::equal(cpu.second, sim.second));
}

TEST(SimSerialization, ModuleRoundTripThroughSaveAndLoad) {
  torch::manual_seed(5);
  Net saved;
  saved->to(device());
  std::stringstream buffer;
  torch::save(saved, buffer);
  Net loaded;
  loaded->to(device());
  torch::load(loaded, buffer);
  auto a = state_of(*saved);
  auto b = state_of(*loaded);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(torch::equal(a[i], b[i])) << "tensor " << i;
  for (const auto& p : loaded->parameters())
    EXPECT_EQ(p.device(), device());
}

TEST(SimSerialization, TensorRoundTripKeepsTheDevice) {
  auto t = torch::randn({4, 5}).to(device());
  std::stringstream buffer;
  torch::save(t, buffer);
  torch::Tensor back;
  torch::load(back, buffer);
  EXPECT_EQ(back.device(), device());
  EXPECT_TRUE(torch::equal(back.cpu(), t.cpu()));
}

TEST(SimData, DataLoaderBatchesMovedToTheDevice) {
  torch::manual_seed(2);
  auto inputs = torch::randn({10, 6});
  auto targets = torch::randint(0, 3, {10}, torch::kLong);
  auto dataset = torch::data::datasets::TensorDataset({inputs})
                     .map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(4));
  torch::nn::Linear layer(6, 3);
  torch::Tensor cpu_sum = torch::zeros({});
  torch::Tensor sim_sum = torch::zeros({}, device());
  auto sim_layer = std::dynamic_pointer_cast<torch::nn::LinearImpl>(layer->clone());
  sim_layer->to(device());
  int batches = 0;
  for (auto& batch : *loader) {
    cpu_sum += layer(batch.data).sum();
    sim_sum += sim_layer->forward(batch.data.to(device())).sum();
    ++batches;
  }
  EXPECT_EQ(batches, 3);
  EXPECT_EQ(sim_sum.device(), device());
  EXPECT_TRUE(torch::equal(sim_sum.cpu(), cpu_sum));
}

} // namespace
