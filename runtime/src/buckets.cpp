#include "buckets.h"

#include <map>
#include <tuple>

namespace todevice::detail {

std::vector<std::vector<std::size_t>> bucket_indexes(const std::vector<at::Tensor>& tensors,
                                                     const std::vector<std::size_t>& candidates,
                                                     std::size_t bucket_bytes) {
  std::vector<std::vector<std::size_t>> buckets;
  std::vector<std::size_t> bytes_in; // per bucket
  std::map<std::tuple<int, int, int>, std::size_t> open; // (dtype, device type, index) -> bucket
  for (std::size_t i : candidates) {
    const at::Tensor& t = tensors[i];
    const std::size_t bytes = static_cast<std::size_t>(t.numel()) * t.element_size();
    const auto kind = std::make_tuple(static_cast<int>(t.scalar_type()),
                                      static_cast<int>(t.device().type()), static_cast<int>(t.device().index()));
    auto it = open.find(kind);
    if (it == open.end() || bytes_in[it->second] + bytes > bucket_bytes) {
      buckets.emplace_back();
      bytes_in.push_back(0);
      it = open.insert_or_assign(kind, buckets.size() - 1).first;
    }
    buckets[it->second].push_back(i);
    bytes_in[it->second] += bytes;
  }
  return buckets;
}

} // namespace todevice::detail
