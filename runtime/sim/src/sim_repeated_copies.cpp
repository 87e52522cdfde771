// "Moved again, unchanged": a host->device copy of a host tensor whose data has
// not changed since its last copy (same storage, offset, sizes, strides and
// dtype; same version counter; same bytes) is a move the program could make
// once. The version counter alone misses writes through data_ptr() (host code
// filling a buffer), hence the bytes' hash too.
#include "sim_internal.h"

#include <functional>
#include <map>
#include <mutex>
#include <string_view>

namespace todevice {
namespace sim {
namespace detail {
namespace {

struct LastCopy {
  // Weak: keeps the StorageImpl object (not its memory) allocated, so a new
  // storage never takes a freed one's address and is never taken for it.
  c10::weak_intrusive_ptr<c10::StorageImpl> storage;
  std::int64_t version;
  std::size_t bytes_hash;
};

std::mutex last_copies_lock;
std::map<std::vector<std::int64_t>, LastCopy>& last_copies() {
  static auto* copies = new std::map<std::vector<std::int64_t>, LastCopy>(); // never destroyed
  return *copies;
}
std::size_t swept_at_size = 1024;

std::vector<std::int64_t> key_of(const at::Tensor& t) {
  std::vector<std::int64_t> key{
      static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(t.storage().unsafeGetStorageImpl())),
      t.storage_offset(), static_cast<std::int64_t>(t.scalar_type()), t.dim()};
  key.insert(key.end(), t.sizes().begin(), t.sizes().end());
  key.insert(key.end(), t.strides().begin(), t.strides().end());
  return key;
}

std::size_t hash_of_bytes(const at::Tensor& t) {
  const at::Tensor dense = t.contiguous();
  return std::hash<std::string_view>()(std::string_view(static_cast<const char*>(dense.data_ptr()),
                                                        dense.numel() * dense.element_size()));
}

// Entries of storages that are gone, once the map has doubled since the last
// sweep: a loop copying a new tensor per step keeps the map small.
void sweep_if_grown() {
  auto& copies = last_copies();
  if (copies.size() < 2 * swept_at_size)
    return;
  for (auto it = copies.begin(); it != copies.end();)
    it = it->second.storage.expired() ? copies.erase(it) : std::next(it);
  swept_at_size = std::max<std::size_t>(1024, copies.size());
}

} // namespace

bool copied_before_unchanged(const at::Tensor& source) {
  // Inference tensors have no version counter; memory not on the host (a
  // copy between simulated tensors never comes here) cannot be hashed.
  if (!source.defined() || source.is_inference() || !source.device().is_cpu() ||
      !source.has_storage() || source.numel() == 0)
    return false;
  const std::int64_t version = source.unsafeGetTensorImpl()->version_counter().current_version();
  const std::size_t bytes_hash = hash_of_bytes(source);
  LastCopy now{source.storage().getWeakStorageImpl(), version, bytes_hash};
  std::lock_guard<std::mutex> guard(last_copies_lock);
  auto [last, first] = last_copies().emplace(key_of(source), now);
  const bool unchanged = !first && !last->second.storage.expired() &&
                         last->second.version == version && last->second.bytes_hash == bytes_hash;
  last->second = std::move(now);
  sweep_if_grown();
  return unchanged;
}

} // namespace detail
} // namespace sim
} // namespace todevice
