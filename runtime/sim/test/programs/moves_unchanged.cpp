// Host->device copies of one unchanged host tensor at every step, for
// sim_source_line_test.cpp and sim_stats_test.cpp: the report must list that
// line as moved again unchanged (three times: every step after the first),
// and neither a new tensor's copy nor a copy after the tensor changed.
#include <todevice/sim.h>
#include <torch/torch.h>

#include <iostream>

int main() {
  const torch::Device device = todevice::sim::device();
  torch::Tensor table = torch::arange(8, torch::kFloat);
  torch::Tensor total = torch::zeros({8}, device);
  for (int step = 0; step < 4; ++step) {
    torch::Tensor row = torch::full({8}, static_cast<float>(step));
    total += row.to(device);   // COPIED-NEW-EACH-STEP
    total += table.to(device); // MOVED-AGAIN-UNCHANGED
  }
  table.mul_(2);
  total += table.to(device); // COPIED-AFTER-A-CHANGE
  float* host = table.data_ptr<float>();
  host[0] = 100; // a host write: the version counter does not see it
  total += table.to(device); // COPIED-AFTER-A-HOST-WRITE
  std::cout << total.sum().item<float>() << "\n";
  return 0;
}
