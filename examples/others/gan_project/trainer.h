#pragma once

#include <cstdio>

#include "dataset.h"
#include "models.h"

// A trainer that owns its models and optimizers in its private part, as
// CycleGAN-style programs do: only its own members can reach them.
class Trainer {
public:
  Trainer(int64_t channels, int64_t side)
      : genA(models::makeGenerator(channels)), genB(models::makeGenerator(channels)),
        optimizerG(concat(genA->parameters(), genB->parameters()), torch::optim::AdamOptions(2e-3)),
        side(side) {
    disA = models::makeDiscriminator(channels, side);
    optimizerD = std::make_unique<torch::optim::Adam>(disA->parameters(), torch::optim::AdamOptions(2e-3));
  }

  void train(int64_t epochs) {
    auto loader = torch::data::make_data_loader(
        PairedDomains(16, side).map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions().batch_size(4));
    for (int64_t epoch = 0; epoch < epochs; ++epoch) {
      double lossG = 0, lossD = 0;
      for (torch::data::Example<> &batch : *loader) {
        torch::Tensor realA = batch.data;
        torch::Tensor realB = batch.target;
        torch::Tensor fakeB = genA->forward(realA);
        torch::Tensor cycled = genB->forward(fakeB);
        torch::Tensor scoreFake = disA->forward(fakeB);
        torch::Tensor generatorLoss =
            torch::mse_loss(scoreFake, torch::ones_like(scoreFake)) + torch::l1_loss(cycled, realA);
        optimizerG.zero_grad();
        generatorLoss.backward();
        optimizerG.step();

        torch::Tensor scoreReal = disA->forward(realB);
        torch::Tensor discriminatorLoss =
            torch::mse_loss(scoreReal, torch::ones({scoreReal.size(0), 1})) +
            torch::mse_loss(disA->forward(fakeB.detach()), torch::zeros({scoreReal.size(0), 1}));
        optimizerD->zero_grad();
        discriminatorLoss.backward();
        optimizerD->step();
        lossG += generatorLoss.item<double>();
        lossD += discriminatorLoss.item<double>();
      }
      std::printf("epoch %lld generator %.6f discriminator %.6f\n", static_cast<long long>(epoch), lossG, lossD);
    }
  }

private:
  static std::vector<torch::Tensor> concat(std::vector<torch::Tensor> a, const std::vector<torch::Tensor> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  torch::nn::Sequential genA, genB, disA;
  torch::optim::Adam optimizerG;
  std::unique_ptr<torch::optim::Adam> optimizerD;
  int64_t side;
};
