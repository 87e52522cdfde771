// Operators on the simulated device compute exactly what the CPU computes, and
// views share storage like on a real device.
#include "todevice/sim.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using todevice::sim::device;

// Runs `f` on CPU inputs and on the same inputs moved to the simulator, and
// requires bit-identical results (torch::equal compares every element exactly).
void expect_same_on_both(const std::string& what, const std::vector<torch::Tensor>& inputs,
                         const std::function<torch::Tensor(const std::vector<torch::Tensor>&)>& f) {
  std::vector<torch::Tensor> on_sim;
  for (const auto& t : inputs)
    on_sim.push_back(t.to(device()));
  torch::Tensor expected = f(inputs);
  torch::Tensor actual = f(on_sim);
  ASSERT_EQ(actual.device(), device()) << what;
  torch::Tensor back = actual.cpu();
  EXPECT_EQ(back.sizes(), expected.sizes()) << what;
  EXPECT_EQ(back.strides(), expected.strides()) << what;
  EXPECT_EQ(back.scalar_type(), expected.scalar_type()) << what;
  EXPECT_TRUE(torch::equal(back, expected)) << what;
}

class SimOps : public ::testing::Test {
 protected:
  void SetUp() override { torch::manual_seed(7); }
  torch::Tensor a = torch::randn({8, 16});
  torch::Tensor b = torch::randn({8, 16});
  torch::Tensor m = torch::randn({16, 5});
};

TEST_F(SimOps, ElementwiseAndReductionsAreBitIdentical) {
  using V = std::vector<torch::Tensor>;
  expect_same_on_both("add", {a, b}, [](const V& v) { return v[0] + v[1] * 3; });
  expect_same_on_both("exp/log/tanh", {a}, [](const V& v) { return v[0].exp().log1p().tanh(); });
  expect_same_on_both("sum", {a}, [](const V& v) { return v[0].sum(); });
  expect_same_on_both("mean dim", {a}, [](const V& v) { return v[0].mean(1); });
  // A reduction over a non-contiguous view must run the same loop as on the CPU.
  expect_same_on_both("sum of transposed", {a}, [](const V& v) { return v[0].t().sum(1); });
  expect_same_on_both("std", {a}, [](const V& v) { return v[0].std(0); });
  expect_same_on_both("max values", {a}, [](const V& v) { return std::get<0>(v[0].max(1)); });
  expect_same_on_both("argmax", {a}, [](const V& v) { return v[0].argmax(1); });
  expect_same_on_both("where", {a, b}, [](const V& v) { return torch::where(v[0] > 0, v[0], v[1]); });
  expect_same_on_both("cast", {a}, [](const V& v) { return (v[0] * 100).to(torch::kInt); });
}

TEST_F(SimOps, LinearAlgebraAndNetworkOpsAreBitIdentical) {
  using V = std::vector<torch::Tensor>;
  expect_same_on_both("mm", {a, m}, [](const V& v) { return torch::mm(v[0], v[1]); });
  expect_same_on_both("matmul batched", {a.view({2, 4, 16}), m},
                      [](const V& v) { return torch::matmul(v[0], v[1]); });
  expect_same_on_both("softmax", {a}, [](const V& v) { return torch::softmax(v[0], 1); });
  expect_same_on_both("log_softmax", {a}, [](const V& v) { return torch::log_softmax(v[0], 0); });
  auto img = torch::randn({2, 3, 9, 9});
  auto kernel = torch::randn({4, 3, 3, 3});
  expect_same_on_both("conv2d", {img, kernel},
                      [](const V& v) { return torch::conv2d(v[0], v[1], {}, 2, 1); });
  expect_same_on_both("max_pool2d", {img}, [](const V& v) { return torch::max_pool2d(v[0], 2); });
  expect_same_on_both("layer_norm", {a}, [](const V& v) { return torch::layer_norm(v[0], {16}); });
  expect_same_on_both("group_norm", {img},
                      [](const V& v) { return torch::group_norm(v[0], 3); });
  expect_same_on_both("lstm", {a}, [](const V& v) {
    torch::manual_seed(3);
    torch::nn::LSTM lstm(torch::nn::LSTMOptions(16, 4));
    lstm->to(v[0].device());
    return std::get<0>(lstm->forward(v[0].view({8, 1, 16})));
  });
  expect_same_on_both("cat", {a, b}, [](const V& v) { return torch::cat({v[0], v[1]}, 1); });
  expect_same_on_both("sort", {a}, [](const V& v) { return std::get<1>(v[0].sort(1)); });
  auto idx = torch::tensor({3, 0, 7}, torch::kLong);
  expect_same_on_both("index_select", {a, idx},
                      [](const V& v) { return v[0].index_select(0, v[1]); });
  expect_same_on_both("advanced indexing", {a, idx},
                      [](const V& v) { return v[0].index({v[1]}); });
}

TEST_F(SimOps, RandomOpsFollowTheCpuGenerator) {
  torch::manual_seed(3);
  auto cpu = torch::randn({5, 5});
  auto cpu_dropped = torch::dropout(torch::ones({100}), 0.5, true);
  torch::manual_seed(3);
  auto sim = torch::randn({5, 5}, device());
  auto sim_dropped = torch::dropout(torch::ones({100}, device()), 0.5, true);
  EXPECT_EQ(sim.device(), device());
  EXPECT_TRUE(torch::equal(sim.cpu(), cpu));
  EXPECT_TRUE(torch::equal(sim_dropped.cpu(), cpu_dropped));
}

TEST_F(SimOps, FactoriesWithTheDeviceOptionMatchTheCpu) {
  using Make = std::function<torch::Tensor(torch::TensorOptions)>;
  const std::vector<std::pair<std::string, Make>> factories = {
      {"randint", [](auto o) { return torch::randint(0, 3, {64}, o.dtype(torch::kLong)); }},
      {"normal", [](auto o) { return torch::normal(0.0, 0.01, {200}, c10::nullopt, o); }},
      {"rand", [](auto o) { return torch::rand({3, 4}, o); }},
      {"randperm", [](auto o) { return torch::randperm(10, o.dtype(torch::kLong)); }},
      {"eye", [](auto o) { return torch::eye(3, o); }},
      {"arange", [](auto o) { return torch::arange(0, 30, o); }},
      {"linspace", [](auto o) { return torch::linspace(0, 1, 7, o); }},
      {"full", [](auto o) { return torch::full({2, 2}, 4.2f, o); }},
      {"zeros/ones", [](auto o) { return torch::zeros({3}, o) + torch::ones({3}, o); }},
      {"tensor", [](auto o) { return torch::tensor({1.5f, 2.5f}, o); }},
  };
  for (const auto& [name, make] : factories) {
    torch::manual_seed(9);
    auto expected = make(torch::TensorOptions());
    torch::manual_seed(9);
    auto actual = make(torch::TensorOptions().device(device()));
    EXPECT_EQ(actual.device(), device()) << name;
    EXPECT_TRUE(torch::equal(actual.cpu(), expected)) << name;
  }
}

TEST_F(SimOps, InPlaceAndOutVariantsWriteDeviceMemory) {
  auto x = a.to(device());
  x.mul_(2).add_(1);
  EXPECT_TRUE(torch::equal(x.cpu(), a * 2 + 1));
  auto out = torch::empty({0}, device());
  torch::add_out(out, x, x);
  EXPECT_EQ(out.sizes(), a.sizes()); // resized by the CPU kernel, storage moved to the device
  EXPECT_EQ(out.device(), device());
  EXPECT_TRUE(torch::equal(out.cpu(), (a * 2 + 1) * 2));
  auto r = torch::zeros({2}, device());
  r.resize_({3, 4}).fill_(5);
  EXPECT_TRUE(torch::equal(r.cpu(), torch::full({3, 4}, 5.0f)));
}

TEST_F(SimOps, ViewsShareStorage) {
  auto x = torch::zeros({4, 6}, device());
  auto v = x.view({6, 4});
  auto t = x.t();
  auto row = x.select(0, 2);
  auto cols = x.narrow(1, 1, 2);
  auto strided = x.as_strided({2, 2}, {6, 1}, 3);
  for (const auto& view : {v, t, row, cols, strided}) {
    EXPECT_EQ(view.device(), device());
    EXPECT_TRUE(view.storage().is_alias_of(x.storage()));
    EXPECT_TRUE(view.is_view());
  }
  row.fill_(1);      // writes through a view reach the base...
  cols.mul_(0).add_(2);
  auto expected = torch::zeros({4, 6});
  expected.select(0, 2).fill_(1);
  expected.narrow(1, 1, 2).mul_(0).add_(2);
  EXPECT_TRUE(torch::equal(x.cpu(), expected));
  EXPECT_TRUE(torch::equal(t.cpu(), expected.t())); // ...and other views see them
  EXPECT_TRUE(torch::equal(strided.cpu(), expected.as_strided({2, 2}, {6, 1}, 3)));
  EXPECT_EQ(x.reshape({24}).data_ptr(), x.data_ptr());
}

TEST_F(SimOps, ItemAndPrinting) {
  auto x = torch::tensor({1.5f, -2.0f, 4.25f}).to(device());
  EXPECT_EQ(x.sum().item<float>(), 3.75f);
  EXPECT_EQ(x[2].item<double>(), 4.25);
  EXPECT_TRUE(x.max().item<float>() == 4.25f);
  std::ostringstream printed;
  printed << x;
  EXPECT_NE(printed.str().find("4.2500"), std::string::npos) << printed.str();
  EXPECT_NE(printed.str().find("XPUFloatType{3}"), std::string::npos) << printed.str();
}

TEST_F(SimOps, ComplexConjugateViews) {
  auto c = torch::randn({4}, torch::kComplexFloat);
  auto d = c.to(device());
  EXPECT_TRUE(torch::equal(d.conj().cpu(), c.conj()));
  EXPECT_TRUE(torch::equal((d.conj() * d).cpu(), c.conj() * c));
}

} // namespace
