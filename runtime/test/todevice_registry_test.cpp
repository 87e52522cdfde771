// Registry::to() on tensors, lists, scalars and modules. The meta device proves
// tensors really change device (Module::to(kMeta) is refused by LibTorch, so modules
// are checked with CPU round trips; see docs/runtime.md).
#include "todevice/todevice.h"

#include <gtest/gtest.h>

namespace {

const torch::Device kMeta(torch::kMeta);
const torch::Device kCpu(torch::kCPU);

TEST(Registry, RebindsTheTensorVariable) {
  torch::Tensor a = torch::ones({2, 3});
  torch::Tensor untouched = torch::ones({2});
  todevice::Registry registry;
  registry.add(a);
  const auto moved = registry.to(kMeta);
  EXPECT_TRUE(a.is_meta());
  EXPECT_EQ(a.sizes(), torch::IntArrayRef({2, 3}));
  EXPECT_EQ(a.scalar_type(), torch::kFloat);
  EXPECT_TRUE(untouched.device().is_cpu());
  EXPECT_EQ(moved.objects, 1u);
  EXPECT_EQ(moved.tensors, 1u);
  EXPECT_EQ(moved.bytes, 6 * sizeof(float));
  EXPECT_EQ(moved.transfers, 1u);
  EXPECT_EQ(registry.device(), kMeta);
}

TEST(Registry, NothingIsCopiedWhenAlreadyOnTarget) {
  torch::Tensor a = torch::ones({4});
  std::vector<torch::Tensor> list{torch::ones({2}), torch::zeros({3})};
  double lr = 0.1;
  const auto* impl = a.unsafeGetTensorImpl();
  todevice::Registry registry;
  registry.add(a, list, lr);
  const auto on_cpu = registry.to(kCpu);
  EXPECT_EQ(on_cpu.tensors, 0u);
  EXPECT_EQ(on_cpu.bytes, 0u);
  EXPECT_EQ(on_cpu.transfers, 0u);
  EXPECT_EQ(on_cpu.objects, 0u);
  EXPECT_EQ(on_cpu.already_there, 4u);
  EXPECT_EQ(a.unsafeGetTensorImpl(), impl);

  const auto first = registry.to(kMeta);
  EXPECT_EQ(first.tensors, 4u);
  const auto second = registry.to(kMeta);
  EXPECT_EQ(second.tensors, 0u);
  EXPECT_EQ(second.bytes, 0u);
  EXPECT_EQ(second.transfers, 0u);
  EXPECT_EQ(second.already_there, 4u);
}

TEST(Registry, LeafStatusRequiresGradAndGradientAreKept) {
  torch::Tensor w = torch::randn({3}, torch::requires_grad());
  torch::Tensor frozen = torch::randn({3});
  w.mutable_grad() = torch::ones({3});
  todevice::Registry registry;
  registry.add(w, frozen);
  const auto moved = registry.to(kMeta);
  EXPECT_TRUE(w.is_meta());
  EXPECT_TRUE(w.is_leaf());
  EXPECT_TRUE(w.requires_grad());
  EXPECT_EQ(w.grad_fn(), nullptr);
  ASSERT_TRUE(w.grad().defined());
  EXPECT_TRUE(w.grad().is_meta());
  EXPECT_TRUE(frozen.is_meta());
  EXPECT_FALSE(frozen.requires_grad());
  EXPECT_EQ(moved.tensors, 3u); // w, its gradient, frozen
}

TEST(Registry, NonLeafStaysInItsGraph) {
  torch::Tensor w = torch::randn({3}, torch::requires_grad());
  torch::Tensor y = w * 2;
  todevice::Registry registry;
  registry.add(y);
  registry.to(kMeta);
  EXPECT_TRUE(y.is_meta());
  EXPECT_NE(y.grad_fn(), nullptr);
}

TEST(Registry, VectorIsReadAtMoveTime) {
  std::vector<torch::Tensor> list{torch::ones({2})};
  todevice::Registry registry;
  registry.add(todevice::named("batch", list));
  list.push_back(torch::zeros({5}, torch::kInt64)); // registered by reference
  const auto moved = registry.to(kMeta);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_TRUE(list[0].is_meta());
  EXPECT_TRUE(list[1].is_meta());
  EXPECT_EQ(list[1].scalar_type(), torch::kInt64);
  EXPECT_EQ(moved.tensors, 2u);
  EXPECT_EQ(moved.objects, 1u);
}

TEST(Registry, ViewsAndAliasesStayShared) {
  torch::Tensor base = torch::arange(12, torch::kFloat);
  torch::Tensor view = base.narrow(0, 2, 4);
  torch::Tensor strided = base.view({3, 4}).t();
  torch::Tensor same = base; // a second handle to the same TensorImpl
  // A non-view tensor on the same storage (like weights tied through set_()).
  torch::Tensor tied = torch::empty({0}).set_(base.storage(), 6, {6}, {1});
  todevice::Registry registry;
  registry.add(base, view, strided, same, tied);
  const auto moved = registry.to(kMeta);

  for (const auto* t : {&view, &strided, &same, &tied}) {
    EXPECT_TRUE(t->is_meta());
    EXPECT_TRUE(t->storage().is_alias_of(base.storage()));
  }
  EXPECT_TRUE(same.is_same(base));
  EXPECT_EQ(view.storage_offset(), 2);
  EXPECT_EQ(strided.sizes(), torch::IntArrayRef({4, 3}));
  EXPECT_EQ(strided.strides(), torch::IntArrayRef({1, 4}));
  EXPECT_EQ(tied.storage_offset(), 6);
  EXPECT_EQ(moved.transfers, 1u);             // the storage, once
  EXPECT_EQ(moved.bytes, 12 * sizeof(float)); // not once per tensor
  EXPECT_EQ(moved.tensors, 4u);               // base(=same), view, strided, tied
}

TEST(Registry, ViewOfRegisteredLeafStaysAnAutogradView) {
  torch::Tensor w = torch::randn({4, 4}, torch::requires_grad());
  torch::Tensor row = w.select(0, 1);
  todevice::Registry registry;
  registry.add(w, row);
  registry.to(kMeta);
  EXPECT_TRUE(w.is_leaf());
  EXPECT_TRUE(w.requires_grad());
  EXPECT_TRUE(row.is_meta());
  ASSERT_TRUE(row.is_view());
  EXPECT_TRUE(row._base().is_same(w));
  EXPECT_NE(row.grad_fn(), nullptr);
  EXPECT_EQ(row.storage_offset(), 4);
}

TEST(Registry, ScalarsAreZeroDimTensorsOnTheDevice) {
  double lr = 0.1;
  float scale = 2.5f;
  std::int64_t steps = 7;
  todevice::Registry registry;
  registry.add(todevice::named("lr", lr), scale, steps);

  torch::Tensor t = registry.scalar(lr);
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.scalar_type(), torch::kDouble);
  EXPECT_TRUE(t.device().is_cpu());
  EXPECT_DOUBLE_EQ(t.item<double>(), 0.1);
  EXPECT_EQ(registry.scalar(scale).scalar_type(), torch::kFloat);
  EXPECT_EQ(registry.scalar(steps).scalar_type(), torch::kLong);
  EXPECT_EQ(registry.scalar(steps).item<std::int64_t>(), 7);

  lr = 0.5; // the C++ variable is the source of truth
  EXPECT_DOUBLE_EQ(registry.scalar("lr").item<double>(), 0.5);
  EXPECT_DOUBLE_EQ(t.item<double>(), 0.1); // earlier mirrors are not written in place

  const auto moved = registry.to(kMeta);
  EXPECT_EQ(moved.tensors, 3u);
  EXPECT_TRUE(registry.scalar(lr).is_meta());
  EXPECT_EQ(registry.scalar(lr).dim(), 0);
  lr = 0.25;
  EXPECT_TRUE(registry.scalar("lr").is_meta()); // refreshed on the registry's device

  double later = 1.0;
  registry.add(later);
  EXPECT_TRUE(registry.scalar(later).is_meta());

  double stranger = 3.0;
  EXPECT_THROW(registry.scalar(stranger), std::out_of_range);
  EXPECT_THROW(registry.scalar("nope"), std::out_of_range);
}

struct Net : torch::nn::Module {
  Net() {
    fc = register_module("fc", torch::nn::Linear(3, 2));
    register_buffer("running", torch::zeros({2}));
  }
  torch::nn::Linear fc{nullptr};
};

TEST(Registry, ModulesRoundTripOnCpuKeepIdentity) {
  auto net = std::make_shared<Net>();
  torch::nn::Linear linear(4, 4);
  Net plain;
  std::vector<const c10::TensorImpl*> impls;
  for (auto* m : std::initializer_list<torch::nn::Module*>{net.get(), linear.ptr().get(), &plain})
    for (const auto& p : m->parameters())
      impls.push_back(p.unsafeGetTensorImpl());

  todevice::Registry registry;
  registry.add(net, linear, plain);
  const auto moved = registry.to(kCpu);
  EXPECT_EQ(moved.tensors, 0u);
  EXPECT_EQ(moved.already_there, 3u + 2u + 3u); // parameters and buffers of each
  std::size_t i = 0;
  for (auto* m : std::initializer_list<torch::nn::Module*>{net.get(), linear.ptr().get(), &plain})
    for (const auto& p : m->parameters()) {
      EXPECT_EQ(p.unsafeGetTensorImpl(), impls[i++]);
      EXPECT_TRUE(p.is_leaf());
      EXPECT_TRUE(p.requires_grad());
    }
  EXPECT_TRUE(registry.audit(kCpu).ok());
}

TEST(Registry, RefusedModuleMoveChangesNothing) {
  auto net = std::make_shared<Net>();
  torch::Tensor a = torch::ones({2});
  todevice::Registry registry;
  registry.add(a, todevice::named("net", net));
  try {
    registry.to(kMeta); // set_data cannot switch a CPU parameter to meta
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'net'"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(a.device().is_cpu()); // all or nothing
  EXPECT_TRUE(net->fc->weight.device().is_cpu());
  EXPECT_FALSE(registry.device().has_value());
}

TEST(Registry, EmptyModuleHolderIsRejected) {
  torch::nn::Linear empty{nullptr};
  todevice::Registry registry;
  EXPECT_THROW(registry.add(empty), std::invalid_argument);
  EXPECT_EQ(registry.size(), 0u);
}

TEST(Registry, AuditNamesEverythingElsewhere) {
  torch::Tensor on_cpu = torch::ones({2});
  torch::Tensor on_meta = torch::ones({2}, torch::TensorOptions().device(kMeta));
  std::vector<torch::Tensor> list{torch::ones({1}, torch::TensorOptions().device(kMeta)), torch::ones({1})};
  auto net = std::make_shared<Net>();
  todevice::Registry registry;
  registry.add(todevice::named("x", on_cpu), on_meta, todevice::named("list", list), todevice::named("net", net));

  const auto report = registry.audit(kMeta);
  EXPECT_FALSE(report.ok());
  ASSERT_EQ(report.findings.size(), 1u + 1u + 3u); // x, list[1], fc.weight, fc.bias, running
  EXPECT_EQ(report.findings[0].object, "x");
  EXPECT_EQ(report.findings[0].kind, todevice::Kind::Tensor);
  EXPECT_EQ(report.findings[0].device, kCpu);
  EXPECT_EQ(report.findings[1].object, "list");
  EXPECT_EQ(report.findings[1].tensor, "[1]");
  EXPECT_EQ(report.findings[2].kind, todevice::Kind::Module);
  EXPECT_EQ(report.findings[2].tensor, "fc.weight");
  EXPECT_EQ(report.findings[4].tensor, "running");
  const std::string text = report.str();
  EXPECT_NE(text.find("module 'net' tensor 'fc.bias' is on cpu, expected meta"), std::string::npos) << text;

  const auto cpu_report = registry.audit(kCpu);
  ASSERT_EQ(cpu_report.findings.size(), 2u);
  EXPECT_EQ(cpu_report.findings[0].object, "tensor#1"); // default name: kind#index
  EXPECT_EQ(cpu_report.findings[0].device, kMeta);
}

} // namespace
