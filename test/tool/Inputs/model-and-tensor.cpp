#include <torch/torch.h>
int main() {
  torch::nn::Linear fc(2, 2);
  auto x = torch::randn({2});
  return static_cast<int>(fc(x).numel()) - 2;
}
