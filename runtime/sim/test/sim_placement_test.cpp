// Placement checks: mixing CPU and simulated tensors fails like on CUDA.
#include "todevice/sim.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using todevice::sim::device;

// The message of the c10::Error `f` throws ("" when it does not throw).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "";
}

TEST(SimPlacement, AddWithCpuTensorNamesArgumentAndOperator) {
  auto a = torch::ones({2, 3}).to(device());
  auto b = torch::ones({2, 3});
  std::string msg = error_of([&] { torch::add(a, b); });
  EXPECT_NE(msg.find("Expected all tensors to be on the same device, but found at least two "
                     "devices, sim:0 (todevice_sim, on the XPU dispatch key) and cpu!"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("(when checking argument 'other' of aten::add.Tensor)"), std::string::npos)
      << msg;
}

TEST(SimPlacement, MmNamesTheCpuArgument) {
  auto a = torch::ones({2, 3});
  auto b = torch::ones({3, 4}).to(device());
  std::string msg = error_of([&] { torch::mm(a, b); });
  EXPECT_NE(msg.find("when checking argument 'self' of aten::mm)"), std::string::npos) << msg;
  msg = error_of([&] { torch::mm(b.t(), a.t().contiguous()); });
  EXPECT_NE(msg.find("when checking argument 'mat2' of aten::mm)"), std::string::npos) << msg;
}

TEST(SimPlacement, ZeroDimCpuScalarIsAllowed) {
  auto a = torch::arange(6, torch::kFloat).to(device());
  auto s = torch::tensor(2.5f); // 0-dim CPU tensor
  ASSERT_EQ(s.dim(), 0);
  auto r = torch::mul(a, s);
  EXPECT_EQ(r.device(), device());
  EXPECT_TRUE(torch::equal(r.cpu(), torch::arange(6, torch::kFloat) * 2.5f));
}

TEST(SimPlacement, OneElementCpuTensorWithDimensionsIsNotAScalar) {
  auto a = torch::ones({3}).to(device());
  auto b = torch::ones({1}); // 1-dim: CUDA refuses it too
  EXPECT_NE(error_of([&] { torch::add(a, b); }).find("argument 'other'"), std::string::npos);
}

TEST(SimPlacement, TensorListArgumentIsChecked) {
  auto a = torch::ones({2}).to(device());
  auto b = torch::ones({2});
  std::string msg = error_of([&] { torch::cat({a, b}); });
  EXPECT_NE(msg.find("argument 'tensors' of aten::cat"), std::string::npos) << msg;
}

TEST(SimPlacement, LossWeightLeftOnCpuIsReported) {
  auto logits = torch::randn({4, 3}).to(device());
  auto target = torch::tensor({0, 1, 2, 1}, torch::kLong).to(device());
  auto weight = torch::tensor({1.0f, 2.0f, 0.5f}); // forgotten on the CPU
  std::string msg = error_of([&] {
    torch::nn::functional::cross_entropy(
        logits, target, torch::nn::functional::CrossEntropyFuncOptions().weight(weight));
  });
  EXPECT_NE(msg.find("argument 'weight'"), std::string::npos) << msg;
}

TEST(SimPlacement, CpuOutArgumentIsReported) {
  auto a = torch::ones({2, 2}).to(device());
  auto out = torch::empty({2, 2});
  std::string msg = error_of([&] { torch::add_out(out, a, a); });
  EXPECT_NE(msg.find("argument 'out' of aten::add.out"), std::string::npos) << msg;
}

TEST(SimPlacement, CpuIndicesAreAcceptedAsOnCuda) {
  auto a = torch::arange(10, torch::kFloat).to(device());
  auto idx = torch::tensor({7, 2}, torch::kLong); // CPU index tensor
  auto picked = a.index({idx});
  EXPECT_EQ(picked.device(), device());
  EXPECT_TRUE(torch::equal(picked.cpu(), torch::tensor({7.0f, 2.0f})));
}

TEST(SimPlacement, AllOnDeviceOrAllOnCpuIsFine) {
  auto a = torch::ones({2, 2});
  EXPECT_NO_THROW(torch::mm(a, a));
  auto d = a.to(device());
  EXPECT_NO_THROW(torch::mm(d, d));
}

} // namespace
