// Training code handing tensors to a transform's or dataset's method directly:
// per-sample code stays on the CPU (its own tensors, e.g. Normalize's mean and
// stddev, are host tensors), so what it is given is brought to the host, and
// what it returns goes back to the device where it is used (a normalized image
// fed to the model; a copy too many when it is only shown, never a crash).
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

struct Scale : torch::data::transforms::TensorTransform<> {
  torch::Tensor operator()(torch::Tensor input) override { return input * factor; }
  torch::Tensor factor = torch::full({1}, 2.0);
  // CHECK: torch::Tensor factor = torch::full({1}, 2.0);
};

double run(torch::Tensor weights) {
  torch::data::transforms::Normalize<> denormalize({-1.0}, {2.0});
  Scale scale;
  auto image = torch::rand({1, 4, 4});
  // CHECK: auto image = torch::rand({1, 4, 4}, torch::device(device));
  auto shown = denormalize(image.clone().squeeze(0)).clamp_(0, 1);
  // CHECK: auto shown = denormalize(image.clone().squeeze(0).cpu()).to(device).clamp_(0, 1);
  // NOTE: into-per-sample-code.cpp:[[@LINE-2]]:16: note: 'Normalize' is per-sample code, which stays on the CPU: the tensors handed to it are brought to the host, and what it returns is moved back to the device [per-sample-call]
  auto scaled = scale(image + 1);
  // CHECK: auto scaled = scale((image + 1).cpu()).to(device);
  auto host = scale(image.cpu()) + scale(weights.to(torch::kCPU));
  // CHECK: auto host = scale(image.cpu()) + scale(weights.to(torch::kCPU));
  return shown.sum().item<double>() + scaled.sum().item<double>() + host.sum().item<double>();
}
