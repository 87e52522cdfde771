// The simulator's native kernels: what the fallback cannot do because there is
// no tensor to alias yet (allocation) or because the operator moves data
// between devices (copies), plus item(), counted as a transfer.
#include "sim_internal.h"

#include <ATen/EmptyTensor.h>
#include <ATen/core/LegacyTypeDispatch.h>

namespace todevice {
namespace sim {
namespace detail {
namespace {

void check_options(c10::optional<c10::Device> device, c10::optional<c10::Layout> layout) {
  if (device.has_value())
    TORCH_CHECK(device->type() == kSimType && device->index() <= 0,
                "todevice_sim has a single device, sim:0; got ", *device);
  TORCH_CHECK(c10::layout_or_default(layout) == c10::kStrided,
              "todevice_sim supports strided (dense) tensors only, got layout ", *layout);
}

at::Tensor empty_memory_format(c10::IntArrayRef size, c10::optional<c10::ScalarType> dtype,
                               c10::optional<c10::Layout> layout,
                               c10::optional<c10::Device> device, c10::optional<bool> pin_memory,
                               c10::optional<c10::MemoryFormat> memory_format) {
  (void)pin_memory; // meaningless for device memory, as on CUDA
  check_options(device, layout);
  return at::detail::empty_generic(size, allocator(), c10::DispatchKeySet(kSimKey),
                                   c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride,
                         c10::optional<c10::ScalarType> dtype, c10::optional<c10::Layout> layout,
                         c10::optional<c10::Device> device, c10::optional<bool> pin_memory) {
  (void)pin_memory;
  check_options(device, layout);
  return at::detail::empty_strided_generic(size, stride, allocator(),
                                           c10::DispatchKeySet(kSimKey),
                                           c10::dtype_or_default(dtype));
}

std::uint64_t nbytes_of(const at::Tensor& t) {
  return static_cast<std::uint64_t>(t.numel()) * t.element_size();
}

// copy_ dispatches here whenever one side is on the simulator (copy_ leaves
// devices it does not know to _copy_from). The CPU copy kernel does the work,
// including dtype conversion and broadcasting, on aliases of device memory.
at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  (void)non_blocking; // the simulator is synchronous
  // The copy must not be recorded by autograd a second time (the copy_ that
  // led here already was), whatever the grad mode of the calling thread.
  at::AutoDispatchBelowADInplaceOrView below_autograd;
  CpuAliases aliases;
  aliases.alias(dst).copy_(aliases.alias(self));
  if (is_sim(dst) && !is_sim(self))
    count_host_to_device(self, nbytes_of(dst));
  else if (is_sim(self) && !is_sim(dst))
    count_device_to_host(nbytes_of(dst));
  return dst;
}

// LibTorch 2.x's copy_ treats XPU as a device it knows and calls a device stub
// the simulator has no kernel in, where 1.13 handed it to _copy_from: copy_
// on the simulator's key comes here, on every version.
at::Tensor& copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
  if (!self.is_same(src))
    copy_from(src, self, non_blocking);
  return self;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  dst.resize_(self.sizes());
  return copy_from(self, dst, false);
}

// item() and friends read one element back to the host: a transfer on a GPU,
// and a common hidden one in training loops, so it is counted.
c10::Scalar local_scalar_dense(const at::Tensor& self) {
  CpuAliases aliases;
  c10::Scalar value = at::_local_scalar_dense(aliases.alias(self));
  count_device_to_host(self.element_size());
  return value;
}

// at::dropout (a composite) takes a fused path, native_dropout, for XPU tensors
// ("is_fused_kernel_acceptable"); it scales differently from the CPU's path and
// has another backward. This is the CPU's path (_dropout_impl in 1.13) made of
// differentiable operators, registered for the XPU and AutogradXPU keys so the
// composite never runs on the device and autograd records these operators.
at::Tensor dropout(const at::Tensor& input, double p, bool train) {
  TORCH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0)
    return input;
  if (p == 1)
    return input.mul(at::zeros({}, input.options()));
  at::Tensor noise = at::empty_like(input, at::MemoryFormat::Contiguous);
  noise.bernoulli_(1 - p);
  noise.div_(1 - p);
  return input.mul(noise);
}

} // namespace

void register_dropout(torch::Library& aten_xpu_or_autograd_xpu) {
  aten_xpu_or_autograd_xpu.impl("dropout", TORCH_FN(dropout));
}

void register_conjugation_passthrough(torch::Library& aten_conj_or_neg) {
  // The Conjugate/Negative fallbacks materialise lazily conjugated inputs with
  // clone(), and clone copies via _copy_from on this device: endless recursion.
  // The CPU copy kernel our _copy_from runs handles conj/neg bits itself.
  aten_conj_or_neg.impl("_copy_from", torch::CppFunction::makeFallthrough());
  aten_conj_or_neg.impl("_copy_from_and_resize", torch::CppFunction::makeFallthrough());
}

void register_native_kernels(torch::Library& aten_xpu) {
  aten_xpu.impl("empty.memory_format", TORCH_FN(empty_memory_format));
  aten_xpu.impl("empty_strided", TORCH_FN(empty_strided));
  aten_xpu.impl("copy_", TORCH_FN(copy_));
  aten_xpu.impl("_copy_from", TORCH_FN(copy_from));
  aten_xpu.impl("_copy_from_and_resize", TORCH_FN(copy_from_and_resize));
  aten_xpu.impl("_local_scalar_dense", TORCH_FN(local_scalar_dense));
}

} // namespace detail
} // namespace sim
} // namespace todevice
