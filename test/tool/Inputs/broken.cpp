#include <torch/torch.h>
int main() {
  auto x = torch::randn({2});
  return undeclared_thing + x.numel();
}
