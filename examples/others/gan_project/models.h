#pragma once

namespace models {

inline torch::nn::Sequential makeGenerator(int64_t channels) {
  torch::nn::Sequential network;
  network->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, channels, 3).padding(1)));
  network->push_back(torch::nn::ReLU());
  network->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, 1, 3).padding(1)));
  network->push_back(torch::nn::Tanh());
  return network;
}

inline torch::nn::Sequential makeDiscriminator(int64_t channels, int64_t side) {
  torch::nn::Sequential network;
  network->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, channels, 4).stride(2).padding(1)));
  network->push_back(torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(torch::nn::Flatten());
  network->push_back(torch::nn::Linear(channels * (side / 2) * (side / 2), 1));
  return network;
}

} // namespace models
