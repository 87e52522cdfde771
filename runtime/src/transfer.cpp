#include "transfer.h"
#include "buckets.h"

#include <torch/csrc/utils/tensor_flatten.h>

#include <algorithm>

namespace todevice {

namespace batch {

Plan plan(const std::vector<torch::Tensor>& tensors, std::size_t bucket_bytes, std::size_t direct_bytes) {
  Plan result;
  std::vector<std::size_t> small;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const torch::Tensor& t = tensors[i];
    const std::size_t bytes = t.numel() * t.element_size();
    if (!t.device().is_cpu() || t.layout() != torch::kStrided || t.numel() == 0 || bytes >= direct_bytes)
      result.direct.push_back(i);
    else
      small.push_back(i);
  }
  for (std::vector<std::size_t>& members : detail::bucket_indexes(tensors, small, bucket_bytes)) {
    Bucket bucket{tensors[members.front()].scalar_type(), std::move(members), 0};
    for (std::size_t i : bucket.members)
      bucket.numel += tensors[i].numel();
    result.buckets.push_back(std::move(bucket));
  }
  return result;
}

void pack(const std::vector<torch::Tensor>& tensors, const Bucket& bucket, const torch::Tensor& flat) {
  std::int64_t offset = 0;
  for (std::size_t i : bucket.members) {
    const torch::Tensor& t = tensors[i];
    flat.narrow(0, offset, t.numel()).view(t.sizes()).copy_(t); // copy_ handles any strides
    offset += t.numel();
  }
}

std::vector<torch::Tensor> unpack(const torch::Tensor& flat, const std::vector<torch::Tensor>& tensors,
                                  const Bucket& bucket) {
  std::vector<torch::Tensor> members;
  members.reserve(bucket.members.size());
  for (std::size_t i : bucket.members)
    members.push_back(tensors[i]);
  std::int64_t numel = 0;
  for (const torch::Tensor& t : members)
    numel += t.numel();
  // The staging buffer may be longer than the bucket: its first numel elements.
  return torch::utils::unflatten_dense_tensors(flat.narrow(0, 0, numel), members);
}

} // namespace batch

namespace detail {

bool is_on(const torch::Device& actual, const torch::Device& target) {
  return actual.type() == target.type() && (!target.has_index() || actual.index() == target.index());
}

bool coalesces(const TransferOptions& options, torch::Device device) {
  return options.coalesce == Coalesce::Always ||
         (options.coalesce == Coalesce::Auto && device.is_cuda() && torch::cuda::is_available());
}

namespace {

// What `t.to(device)` does for a tensor not on `device`, one dispatcher call shorter:
// Tensor::to is a composite that checks for aliasing and then calls _to_copy (same
// dtype, layout and memory format). Only for leaves under NoGradGuard: a tensor in an
// autograd graph goes through to() so the graph records the move.
torch::Tensor device_copy(const torch::Tensor& t, torch::Device device, bool non_blocking) {
  return at::_to_copy(t, torch::TensorOptions(device), non_blocking);
}

} // namespace

// `t` on `device` in the same autograd role: a leaf copy (made under NoGradGuard) gets
// t's requires_grad back; a non-leaf stays in its graph, as with t.to(device).
torch::Tensor copy_of(const torch::Tensor& t, torch::Device device, bool non_blocking, MoveResult& result) {
  result.bytes += t.numel() * t.element_size();
  ++result.transfers;
  if (!is_leaf(t)) {
    torch::AutoGradMode track(true);
    return t.to(torch::TensorOptions(device), non_blocking);
  }
  torch::Tensor copy = device_copy(t, device, non_blocking);
  if (t.requires_grad())
    copy.requires_grad_(true);
  return copy;
}

// Copies every source to `device`. Small dense CPU tensors are coalesced per dtype
// into staging buckets (pinned when CUDA is available) when `options` asks for it;
// everything else is copied directly. Counts transfers and bytes into `result`.
std::vector<torch::Tensor> transfer(const std::vector<torch::Tensor>& sources, torch::Device device,
                                    bool non_blocking, const TransferOptions& options, MoveResult& result) {
  std::vector<torch::Tensor> out(sources.size());
  const bool cuda = torch::cuda::is_available();
  const bool coalesce = coalesces(options, device);
  auto direct = [&](std::size_t i) {
    const auto& src = sources[i];
    out[i] = device_copy(src, device, non_blocking);
    result.bytes += src.numel() * src.element_size();
    ++result.transfers;
  };
  if (!coalesce) {
    for (std::size_t i = 0; i < sources.size(); ++i)
      direct(i);
    return out;
  }
  const batch::Plan plan = batch::plan(sources, options.bucket_bytes, options.direct_bytes);
  for (std::size_t i : plan.direct)
    direct(i);
  // Two staging buffers alternate so packing bucket k+1 overlaps the copy of bucket k.
  // A buffer is reused only once its previous asynchronous copy has completed.
  torch::Tensor staging[2];
  for (std::size_t k = 0; k < plan.buckets.size(); ++k) {
    const batch::Bucket& bucket = plan.buckets[k];
    torch::Tensor& buffer = staging[k % 2];
    if (k >= 2 && cuda && non_blocking)
      torch::cuda::synchronize();
    const auto bytes = static_cast<std::int64_t>(bucket.numel * c10::elementSize(bucket.dtype));
    if (!buffer.defined() || buffer.numel() < bytes) {
      buffer = torch::empty({std::max<std::int64_t>(bytes, options.bucket_bytes)}, torch::kUInt8);
      if (cuda) // pin_memory() throws without CUDA
        buffer = buffer.pin_memory();
    }
    const torch::Tensor flat = buffer.narrow(0, 0, bytes).view(bucket.dtype);
    batch::pack(sources, bucket, flat);
    const torch::Tensor moved = flat.to(device, bucket.dtype, non_blocking && cuda);
    const auto parts = batch::unpack(moved, sources, bucket);
    // Clone on the device so every tensor owns its storage: otherwise unrelated
    // tensors would look "shared" to the next to() and pin the whole bucket alive.
    for (std::size_t j = 0; j < parts.size(); ++j)
      out[bucket.members[j]] = parts[j].clone();
    result.bytes += bytes;
    ++result.transfers;
  }
  return out;
}

} // namespace detail
} // namespace todevice
