// Programs that run on a GPU run on the simulator too, and compute what the
// CPU computes: inference mode, and recurrent layers (whose composites take a
// CPU-only path, see sim_cpu_path.cpp).
#include "todevice/sim.h"

#include <gtest/gtest.h>

namespace {

using todevice::sim::device;

TEST(SimInferenceMode, ViewsOfTrainedParametersWork) {
  torch::manual_seed(3);
  torch::nn::Linear cpu_fc(4, 2);
  torch::nn::Linear sim_fc(4, 2);
  torch::manual_seed(3);
  sim_fc = torch::nn::Linear(4, 2);
  sim_fc->to(device());
  auto x = torch::randn({3, 4});
  torch::Tensor expected, actual;
  {
    torch::InferenceMode guard;
    // Linear transposes its (normal, non-inference) weight: a view that
    // autograd gives the version counter of its base.
    expected = cpu_fc(x).relu().sum(1).view({3, 1});
    actual = sim_fc(x.to(device())).relu().sum(1).view({3, 1});
  }
  EXPECT_TRUE(actual.is_inference());
  EXPECT_EQ(actual.device(), device());
  EXPECT_TRUE(torch::equal(expected, actual.cpu()));
}

TEST(SimInferenceMode, InferenceTensorsStayInference) {
  torch::InferenceMode guard;
  auto t = torch::ones({4}, torch::device(device()));
  auto v = t.view({2, 2});
  EXPECT_TRUE(t.is_inference());
  EXPECT_TRUE(v.is_inference());
  v.add_(1);
  EXPECT_TRUE(torch::equal(t.cpu(), torch::full({4}, 2.0f)));
}

struct LanguageModel : torch::nn::Module {
  LanguageModel()
      : embed(register_module("embed", torch::nn::Embedding(50, 16))),
        lstm(register_module(
            "lstm", torch::nn::LSTM(torch::nn::LSTMOptions(16, 128).batch_first(true)))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(128, 32)))),
        head(register_module("head", torch::nn::Linear(32, 50))) {}
  torch::Tensor forward(const torch::Tensor& ids) {
    auto out = std::get<0>(lstm(embed(ids)));
    out = std::get<0>(gru(out.transpose(0, 1))).transpose(0, 1);
    return head(out.reshape({-1, 32}));
  }
  torch::nn::Embedding embed;
  torch::nn::LSTM lstm;
  torch::nn::GRU gru;
  torch::nn::Linear head;
};

// Embedding + LSTM (hidden size 128) + GRU + Adam: the summed losses and every
// parameter agree with the CPU bit for bit, and the layers' own copies to the
// CPU are not counted as the program's transfers.
std::pair<double, std::vector<torch::Tensor>> train_language_model(torch::Device dev) {
  torch::manual_seed(5);
  auto model = std::make_shared<LanguageModel>();
  model->to(dev);
  torch::optim::Adam opt(model->parameters(), 0.002);
  auto data = torch::randint(0, 50, {8, 21}).to(dev);
  double total = 0;
  for (int step = 0; step < 8; ++step) {
    auto x = data.narrow(1, 0, 20), y = data.narrow(1, 1, 20).reshape(-1);
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  std::vector<torch::Tensor> params;
  for (const auto& p : model->parameters())
    params.push_back(p.detach().cpu());
  return {total, params};
}

TEST(SimRecurrentLayers, TrainingMatchesTheCpuBitForBit) {
  auto [cpu_total, cpu_params] = train_language_model(torch::kCPU);
  todevice::sim::reset_stats();
  auto [sim_total, sim_params] = train_language_model(device());
  auto stats = todevice::sim::stats();
  EXPECT_EQ(cpu_total, sim_total);
  ASSERT_EQ(cpu_params.size(), sim_params.size());
  for (size_t i = 0; i < cpu_params.size(); ++i)
    EXPECT_TRUE(torch::equal(cpu_params[i], sim_params[i])) << "parameter " << i;
  // The data once, and each parameter once (Module::to).
  EXPECT_EQ(stats.host_to_device_copies, 1 + cpu_params.size());
}

TEST(SimRecurrentLayers, NoGradForwardMatches) {
  torch::manual_seed(9);
  torch::nn::LSTM cpu_lstm(torch::nn::LSTMOptions(8, 128).num_layers(2));
  torch::nn::LSTM sim_lstm(torch::nn::LSTMOptions(8, 128).num_layers(2));
  for (size_t i = 0; i < cpu_lstm->parameters().size(); ++i)
    sim_lstm->parameters()[i].data().copy_(cpu_lstm->parameters()[i].data());
  sim_lstm->to(device());
  auto x = torch::randn({12, 3, 8});
  torch::NoGradGuard no_grad;
  auto expected = std::get<0>(cpu_lstm(x));
  auto actual = std::get<0>(sim_lstm(x.to(device())));
  EXPECT_EQ(actual.device(), device());
  EXPECT_TRUE(torch::equal(expected, actual.cpu()));
}

TEST(SimRecurrentLayers, CellsMatch) {
  torch::manual_seed(12);
  torch::nn::GRUCell gru(6, 10);
  torch::nn::LSTMCell lstm(6, 10);
  auto x = torch::randn({4, 6});
  auto expected_gru = gru(x);
  auto expected_lstm = std::get<0>(lstm(x));
  gru->to(device());
  lstm->to(device());
  auto actual_gru = gru(x.to(device()));
  auto actual_lstm = std::get<0>(lstm(x.to(device())));
  actual_gru.sum().backward();
  EXPECT_TRUE(torch::equal(expected_gru, actual_gru.cpu()));
  EXPECT_TRUE(torch::equal(expected_lstm, actual_lstm.cpu()));
  EXPECT_EQ(gru->weight_ih.grad().device(), device());
}

} // namespace
