// todevice/loader.h: data-loader batches moved to a device as they are yielded.
//
//   for (auto& batch : todevice::on_device(*loader, device)) { ... }
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace todevice {

/// Moves a tensor (rebinding it) to `device`.
void move_batch(torch::Tensor& batch, torch::Device device, bool non_blocking = false);
/// Moves `data` and, unless it is NoTarget, `target` of an Example.
template <class Data, class Target>
void move_batch(torch::data::Example<Data, Target>& batch, torch::Device device, bool non_blocking = false);
/// Moves every element of a vector batch (e.g. a loader without a Stack transform).
template <class T>
void move_batch(std::vector<T>& batch, torch::Device device, bool non_blocking = false);

template <class Data, class Target>
void move_batch(torch::data::Example<Data, Target>& batch, torch::Device device, bool non_blocking) {
  move_batch(batch.data, device, non_blocking);
  if constexpr (!std::is_same_v<Target, torch::data::example::NoTarget>)
    move_batch(batch.target, device, non_blocking);
}

template <class T>
void move_batch(std::vector<T>& batch, torch::Device device, bool non_blocking) {
  for (auto& element : batch)
    move_batch(element, device, non_blocking);
}

/// A view of a torch::data loader whose batches are moved to a device as they
/// are yielded. Create it with on_device(); it refers to the loader, which must
/// outlive it. Iterating it starts a new epoch of the loader, like the loader's own begin().
template <class Loader>
class DeviceLoader {
  using Inner = decltype(std::declval<Loader&>().begin());

 public:
  /// The loader's batch type.
  using Batch = std::remove_reference_t<decltype(*std::declval<Inner&>())>;

  /// Input iterator over the moved batches.
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag; ///< single pass
    using value_type = Batch;                          ///< the loader's batch
    using difference_type = std::ptrdiff_t;            ///< required by iterator_traits
    using pointer = Batch*;                            ///< required by iterator_traits
    using reference = Batch&;                          ///< required by iterator_traits

    /// Wraps a loader iterator.
    iterator(Inner inner, torch::Device device, bool non_blocking)
        : inner_(std::move(inner)), device_(device), non_blocking_(non_blocking) {}
    /// The current batch, moved to the device on first access.
    Batch& operator*() {
      Batch& batch = *inner_;
      if (!moved_) {
        move_batch(batch, device_, non_blocking_);
        moved_ = true;
      }
      return batch;
    }
    /// Member access to the current (moved) batch.
    Batch* operator->() { return &**this; }
    /// Fetches the next batch.
    iterator& operator++() {
      ++inner_;
      moved_ = false;
      return *this;
    }
    /// Equal when the loader iterators are (end == end).
    bool operator==(const iterator& other) const { return inner_ == other.inner_; }
    /// Negation of ==.
    bool operator!=(const iterator& other) const { return !(*this == other); }

   private:
    Inner inner_;
    torch::Device device_;
    bool non_blocking_;
    bool moved_ = false;
  };

  /// Refers to `loader`; see on_device().
  DeviceLoader(Loader& loader, torch::Device device, bool non_blocking)
      : loader_(&loader), device_(device), non_blocking_(non_blocking) {}
  /// Starts an epoch of the loader.
  iterator begin() { return iterator(loader_->begin(), device_, non_blocking_); }
  /// The loader's end.
  iterator end() { return iterator(loader_->end(), device_, non_blocking_); }

 private:
  Loader* loader_;
  torch::Device device_;
  bool non_blocking_;
};

/// `for (auto& batch : todevice::on_device(*loader, device))`: every batch
/// (a tensor, an Example's data and target, or a vector of those) is on
/// `device` when the loop body sees it.
template <class Loader>
DeviceLoader<Loader> on_device(Loader& loader, torch::Device device, bool non_blocking = false) {
  return DeviceLoader<Loader>(loader, device, non_blocking);
}

} // namespace todevice
