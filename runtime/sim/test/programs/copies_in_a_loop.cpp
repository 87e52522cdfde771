// Host->device copies at two lines, one in a loop, for sim_source_line_test.cpp
// (TODEVICE_SIM_REPORT=lines). The marker comments are the lines the report
// must name.
#include <todevice/sim.h>
#include <torch/torch.h>

#include <iostream>

int main() {
  const torch::Device device = todevice::sim::device();
  torch::Tensor total = torch::zeros({4}).to(device); // COPIED-ONCE
  for (int i = 0; i < 5; ++i) {
    torch::Tensor row = torch::full({4}, static_cast<float>(i));
    total += row.to(device); // COPIED-IN-A-LOOP
  }
  std::cout << total.sum().item<float>() << "\n";
  return 0;
}
