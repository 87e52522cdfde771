// Host code of another file reads device memory through a pointer an object
// keeps, for sim_source_line_test.cpp: the simulator must name the line that
// reads (pixel_view.cpp) and the line that made the memory (this file).
#include "pixel_view.h"

#include <todevice/sim.h>
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Tensor image = torch::ones({4, 4}, todevice::sim::device()); // ALLOCATED-HERE
  PixelView view(4, 4, image.data_ptr<float>());
  std::cout << view.sum() << "\n";
  return 0;
}
