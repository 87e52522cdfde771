// CPU aliases of simulated tensors: how the simulator runs the CPU kernels.
//
// Rather than copying inputs to the CPU and results back (what
// at::native::cpu_fallback does), the CPU kernel runs on CPU tensors that view
// the device memory through its read-write mapping, with the very same sizes,
// strides and storage offset. That keeps results bit-identical to the CPU even
// for non-contiguous inputs (a reduction over a strided view runs the same
// loop), makes in-place and out= operators write straight into device memory,
// and lets views come back as views: a result sharing an alias' storage is
// rebuilt over the device storage.
#include "sim_internal.h"

#include <c10/core/CPUAllocator.h>

#include <cstring>

namespace todevice {
namespace sim {
namespace detail {
namespace {

bool same_geometry(const at::Tensor& a, const at::Tensor& b) {
  return a.sizes() == b.sizes() && a.strides() == b.strides() &&
         a.storage_offset() == b.storage_offset();
}

at::Tensor make_tensor_over(c10::Storage storage, c10::DispatchKey key, const at::Tensor& like) {
  // An inference tensor exactly when `like` is one. Under InferenceMode a view
  // of a normal tensor is normal (autograd then gives it the version counter of
  // its base), while TensorImpl's constructor would make an inference tensor of
  // it: "Cannot set version_counter for inference tensor".
  c10::optional<c10::InferenceMode> inference;
  if (c10::InferenceMode::is_enabled() != like.is_inference())
    inference.emplace(like.is_inference());
  auto t = at::detail::make_tensor<c10::TensorImpl>(std::move(storage), c10::DispatchKeySet(key),
                                                    like.dtype());
  t.unsafeGetTensorImpl()->set_sizes_and_strides(like.sizes(), like.strides(),
                                                 like.storage_offset());
  // Lazy conjugation/negation bits travel with views (conj(), neg_view()).
  t._set_conj(like.is_conj());
  t._set_neg(like.is_neg());
  return t;
}

// A new device storage holding a copy of a CPU storage's bytes.
c10::Storage copy_storage_to_device(const c10::Storage& cpu) {
  const std::size_t n = cpu.nbytes();
  c10::DataPtr mem = allocator()->allocate(n);
  if (n != 0)
    std::memcpy(host_view(mem), cpu.data(), n);
  return c10::Storage(c10::make_intrusive<c10::StorageImpl>(
      c10::StorageImpl::use_byte_size_t(), n, std::move(mem), allocator(), /*resizable=*/true));
}

} // namespace

c10::Storage CpuAliases::alias(const c10::Storage& s) {
  if (!s || s.device_type() != kSimType)
    return s;
  c10::StorageImpl* key = s.unsafeGetStorageImpl();
  if (auto it = by_sim_.find(key); it != by_sim_.end())
    return it->second.cpu;
  void* host = host_view(s.data_ptr());
  const std::size_t n = s.nbytes();
  // Resizable exactly when the device storage is, so resize_ fails or succeeds
  // as on the CPU. A resize reallocates in CPU memory; write_back() moves it.
  c10::Storage cpu(c10::make_intrusive<c10::StorageImpl>(
      c10::StorageImpl::use_byte_size_t(), n, c10::DataPtr(host, c10::Device(c10::kCPU)),
      s.resizable() ? c10::GetCPUAllocator() : nullptr, s.resizable()));
  by_sim_[key] = StorageEntry{s, cpu, host, n};
  sim_of_cpu_[cpu.unsafeGetStorageImpl()] = key;
  return cpu;
}

at::Tensor CpuAliases::alias(const at::Tensor& t) {
  if (!is_sim(t)) {
    if (t.defined())
      cpu_inputs_.push_back(t);
    return t;
  }
  for (const auto& [sim, cpu] : tensors_)
    if (sim.unsafeGetTensorImpl() == t.unsafeGetTensorImpl())
      return cpu;
  TORCH_CHECK(t.layout() == c10::kStrided,
              "todevice_sim supports strided (dense) tensors only, got layout ", t.layout());
  at::Tensor cpu = make_tensor_over(alias(t.storage()), c10::DispatchKey::CPU, t);
  tensors_.emplace_back(t, cpu);
  return cpu;
}

c10::Storage CpuAliases::sim_storage_for(const c10::Storage& cpu) {
  if (auto it = sim_of_cpu_.find(cpu.unsafeGetStorageImpl()); it != sim_of_cpu_.end())
    return by_sim_.at(it->second).sim;
  // A storage the CPU kernel created: copy it to the device once, so several
  // results sharing it (e.g. split) still share one device storage.
  c10::Storage sim = copy_storage_to_device(cpu);
  by_sim_[sim.unsafeGetStorageImpl()] = StorageEntry{sim, cpu, cpu.data(), cpu.nbytes()};
  sim_of_cpu_[cpu.unsafeGetStorageImpl()] = sim.unsafeGetStorageImpl();
  return sim;
}

void CpuAliases::write_back() {
  // Storages the CPU kernel reallocated (resize_ growing them): give the device
  // storage new device memory with the new contents. The StorageImpl is kept,
  // so every tensor sharing it sees the change, as on the CPU.
  for (auto& [key, e] : by_sim_) {
    c10::StorageImpl* cpu = e.cpu.unsafeGetStorageImpl();
    if (cpu->data() == e.host && cpu->nbytes() == e.nbytes)
      continue;
    c10::StorageImpl* sim = e.sim.unsafeGetStorageImpl();
    if (cpu->data() != e.host) {
      c10::DataPtr mem = allocator()->allocate(cpu->nbytes());
      if (cpu->nbytes() != 0)
        std::memcpy(host_view(mem), cpu->data(), cpu->nbytes());
      sim->set_data_ptr_noswap(std::move(mem));
    }
    sim->set_nbytes(cpu->nbytes());
    e.host = cpu->data();
    e.nbytes = cpu->nbytes();
  }
  // Tensors whose storage or geometry the kernel changed (resize_, set_,
  // as_strided_, out= arguments resized to the result shape).
  for (auto& [sim, cpu] : tensors_) {
    c10::Storage target = sim_storage_for(cpu.storage());
    c10::TensorImpl* impl = sim.unsafeGetTensorImpl();
    if (!sim.storage().is_alias_of(target))
      impl->set_storage_keep_dtype(std::move(target));
    if (!same_geometry(sim, cpu))
      impl->set_sizes_and_strides(cpu.sizes(), cpu.strides(), cpu.storage_offset());
  }
}

at::Tensor CpuAliases::result(const at::Tensor& cpu) {
  if (!cpu.defined())
    return cpu;
  for (const auto& [sim, alias] : tensors_)
    if (alias.unsafeGetTensorImpl() == cpu.unsafeGetTensorImpl())
      return sim; // in-place and out= operators return their argument
  for (const auto& input : cpu_inputs_)
    if (input.unsafeGetTensorImpl() == cpu.unsafeGetTensorImpl())
      return cpu;
  if (cpu.device().type() != c10::kCPU)
    return cpu;
  TORCH_CHECK(cpu.layout() == c10::kStrided,
              "todevice_sim supports strided (dense) tensors only; operator returned layout ",
              cpu.layout());
  if (cpu._is_zerotensor()) // no memory behind it (autograd's efficient zeros)
    return at::zeros(cpu.sizes(), cpu.options().device(c10::Device(kSimType, 0)));
  return make_tensor_over(sim_storage_for(cpu.storage()), kSimKey, cpu);
}

at::Tensor copy_to_new_sim(const at::Tensor& cpu) {
  at::Tensor sim = at::empty(cpu.sizes(), cpu.options().device(c10::Device(kSimType, 0)));
  CpuAliases aliases;
  aliases.alias(sim).copy_(cpu); // the CPU copy kernel on device memory: not a transfer
  return sim;
}

} // namespace detail
} // namespace sim
} // namespace todevice
