// Save a trained model, its Adam optimizer and a tensor, load them into fresh
// objects and keep training: the loaded model, optimizer state and tensor are
// moved after torch::load (checkpoint-load, model-placement). The optimizer is
// built before the model is moved, which still works: Module::to keeps each
// parameter's identity, and the optimizer's state is keyed by it.
#include <torch/torch.h>

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

int main() {
  torch::manual_seed(4);
  const std::string stem = "checkpoint_example_" + std::to_string(getpid());
  const std::string model_path = stem + "_model.pt", tensor_path = stem + "_scale.pt",
                    optimizer_path = stem + "_adam.pt";
  {
    torch::nn::Linear trained(2, 1);
    torch::optim::Adam trained_optimizer(trained->parameters(), 0.05);
    auto loss = trained(torch::ones({4, 2})).pow(2).mean();
    loss.backward();
    trained_optimizer.step(); // Adam now has state to save
    auto scale = torch::full({1}, 0.5);
    torch::save(trained, model_path);
    torch::save(trained_optimizer, optimizer_path);
    torch::save(scale, tensor_path);
  }
  torch::nn::Linear model(2, 1);
  torch::optim::Adam optimizer(model->parameters(), 0.05);
  torch::load(model, model_path);
  torch::load(optimizer, optimizer_path);
  torch::Tensor scale;
  torch::load(scale, tensor_path);

  auto x = torch::randn({16, 2});
  auto y = x.select(1, 0).unsqueeze(1) * scale;
  for (int step = 0; step < 10; ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model(x), y);
    loss.backward();
    optimizer.step();
    std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  std::remove(model_path.c_str());
  std::remove(tensor_path.c_str());
  std::remove(optimizer_path.c_str());
  return 0;
}
