// Programs by others, #31: a project of several files whose models are kept
// in the ways real programs keep them, and whose data set calls helpers of
// other files:
// - the data set (vision_project/dataset.cpp) calls a renderer of geometry.cpp
//   and a transform of transforms.cpp: per-sample code, on the CPU, found only
//   by the whole-program analysis (each file's parse alone cannot see it);
// - a trainer class template whose model member starts empty and is assigned
//   in Initialize(), then loaded from a checkpoint and given a new output
//   layer (trainer.h): moved after those, where it is complete;
// - a model whose layer list and head its parent does not register
//   (models.cpp): Module::to() of the model would not move them;
// - a TorchScript module loaded by a server whose constructor starts a thread
//   serving it (server.cpp): moved before the thread starts;
// - a model made with std::make_unique (below).
#include <torch/torch.h>

#include "vision_project/dataset.h"
#include "vision_project/models.h"
#include "vision_project/server.h"
#include "vision_project/trainer.h"

#include <cstdio>
#include <iostream>

int main() {
  torch::manual_seed(5);
  const std::string checkpoint = "vision_project_checkpoint.pt";
  torch::save(torch::nn::Linear(36, 8), checkpoint); // pretrained stem weights

  auto loader = torch::data::make_data_loader(
      ShapesDataset(16).map(torch::data::transforms::Stack<>()), 4);
  Trainer<Classifier> trainer;
  trainer.Initialize(/*classes=*/3, checkpoint);
  for (int epoch = 0; epoch < 2; ++epoch) {
    float total = 0;
    for (auto &batch : *loader) {
      total += trainer.step(batch.data, batch.target);
    }
    std::cout << "epoch " << epoch << " loss " << total << "\n";
  }
  std::remove(checkpoint.c_str());

  const std::string scorer = "vision_project_scorer.pt";
  write_scorer(scorer);
  InferenceServer server(scorer);
  std::cout << "served " << server.result() << "\n";
  std::remove(scorer.c_str());

  auto probe = std::make_unique<Probe>();
  std::cout << "probe " << probe->forward(torch::ones({1, 2})).sum().item<float>() << "\n";
}
