// The runtime's one bucketing scheme, for Registry::to's staging buffers
// (transfer.cpp) and todevice::distributed's gradient and parameter buffers
// (distributed.cpp): tensors of one dtype and device travel or are reduced
// together through one flat buffer. Flattening and splitting a bucket are
// LibTorch's (torch::utils::flatten_dense_tensors / unflatten_dense_tensors)
// wherever a new buffer is wanted; Registry::to packs into its pinned staging
// buffer itself.
#pragma once

#include <ATen/ATen.h>

#include <cstddef>
#include <vector>

namespace todevice::detail {

/// `candidates` (indexes into `tensors`, in order) grouped into buckets of one
/// dtype and device holding at most `bucket_bytes`: each tensor joins the open
/// bucket of its kind, or opens the next one when it would overflow it (a
/// tensor larger than `bucket_bytes` is a bucket of its own). Buckets are in
/// the order of their first member; members keep their order.
std::vector<std::vector<std::size_t>> bucket_indexes(const std::vector<at::Tensor>& tensors,
                                                     const std::vector<std::size_t>& candidates,
                                                     std::size_t bucket_bytes);

} // namespace todevice::detail
