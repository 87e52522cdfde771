// A program with a placement bug, for sim_source_line_test.cpp: its weight is
// made on the CPU and meets an input on the simulator. Built with and without
// debug info; the marker comment is the line the error must name.
#include <todevice/sim.h>
#include <torch/torch.h>

#include <iostream>

torch::Tensor project(const torch::Tensor& x) {
  torch::Tensor weight = torch::ones({3, 3}); // the bug: not on the device
  return x.mm(weight);                        // PLACEMENT-ERROR-HERE
}

int main() {
  torch::Tensor x = torch::ones({2, 3}, todevice::sim::device());
  std::cout << project(x).sum().item<float>() << "\n";
  return 0;
}
