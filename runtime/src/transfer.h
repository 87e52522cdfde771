// Internal: copying tensors to a device, one by one or coalesced into staging
// buckets (Registry::to's transfers). Not installed; tested by
// runtime/test/todevice_transfer_test.cpp through the source directory.
#pragma once

#include "todevice/registry.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace todevice {

namespace batch {

/// Tensors of one dtype that travel together through one flat staging buffer.
struct Bucket {
  c10::ScalarType dtype = c10::ScalarType::Float; ///< dtype of every member
  std::vector<std::size_t> members; ///< indexes into the tensor list given to plan(), in order
  std::int64_t numel = 0;           ///< total elements of the members
};

/// How a list of tensors is transferred.
struct Plan {
  std::vector<Bucket> buckets;     ///< coalesced groups, in order of first member
  std::vector<std::size_t> direct; ///< indexes copied one by one (large, non-CPU, sparse, empty)
};

/// Groups the small dense CPU tensors of `tensors` by dtype into buckets of at
/// most `bucket_bytes`; tensors of `direct_bytes` or more, and tensors that are
/// not dense CPU tensors, go to Plan::direct.
Plan plan(const std::vector<torch::Tensor>& tensors, std::size_t bucket_bytes, std::size_t direct_bytes);

/// Copies the members of `bucket` one after another into the 1-D tensor `flat`
/// (dtype bucket.dtype, at least bucket.numel elements), in row-major order.
void pack(const std::vector<torch::Tensor>& tensors, const Bucket& bucket, const torch::Tensor& flat);

/// Splits `flat` (as filled by pack(), possibly after a copy to another device)
/// back into contiguous tensors shaped like the members of `bucket`. The results
/// are views of `flat`, in member order.
std::vector<torch::Tensor> unpack(const torch::Tensor& flat, const std::vector<torch::Tensor>& tensors,
                                  const Bucket& bucket);

} // namespace batch

namespace detail {

/// A target without an index ("cuda") accepts any index, as the user did not pick one.
bool is_on(const torch::Device& actual, const torch::Device& target);

/// Tensor::is_leaf() and Tensor::grad() go through the dispatcher; these read the
/// TensorImpl directly (a tensor that does not require grad is a leaf by convention).
inline bool is_leaf(const torch::Tensor& t) { return !t.requires_grad() || t.grad_fn() == nullptr; }
inline const torch::Tensor& grad_of(const torch::Tensor& t) { return t.unsafeGetTensorImpl()->grad(); }

/// Whether transfers to `device` go through staging buckets.
bool coalesces(const TransferOptions& options, torch::Device device);

/// `t` on `device` in the same autograd role: a leaf copy (made under NoGradGuard)
/// gets t's requires_grad back; a non-leaf stays in its graph, as with t.to(device).
/// Counts the copy into `result`.
torch::Tensor copy_of(const torch::Tensor& t, torch::Device device, bool non_blocking, MoveResult& result);

/// Copies every source to `device`. Small dense CPU tensors are coalesced per dtype
/// into staging buckets (pinned when CUDA is available) when `options` asks for it;
/// everything else is copied directly. Counts transfers and bytes into `result`.
std::vector<torch::Tensor> transfer(const std::vector<torch::Tensor>& sources, torch::Device device,
                                    bool non_blocking, const TransferOptions& options, MoveResult& result);

} // namespace detail
} // namespace todevice
