// Registry::to, in its phases: refuse what cannot move, move what aliases
// nothing at once, group the rest by TensorImpl and storage, copy each source
// once (coalesced when asked), rebuild the tensors and publish them.
#include "todevice/registry.h"

#include "environment.h"
#include "transfer.h"
#include "walk.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

namespace todevice {

using detail::copy_of;
using detail::grad_of;
using detail::is_leaf;
using detail::is_on;
using detail::walk;

class Registry::Mover {
 public:
  Mover(Registry& registry, torch::Device device, bool non_blocking)
      : registry_(registry), entries_(registry.entries_), device_(device), non_blocking_(non_blocking),
        touched_(entries_.size(), 0) {
    result_.device = device;
  }

  MoveResult run() {
    refuse_unmovable();
    move_unaliased();
    group_by_impl_and_storage();
    const std::vector<torch::Tensor> moved = copy_sources();
    rebuild_shared_storages(moved);
    rebuild_the_others(moved);
    publish();
    for (char t : touched_)
      result_.objects += t;
    return result_;
  }

 private:
  // A tensor handle met by the walk and left for the grouped phases.
  struct Slot {
    torch::Tensor* handle;
    std::uint32_t entry, item;
    bool in_place, optimizer_param;
  };
  static constexpr std::uint32_t none = ~0u;
  // One distinct TensorImpl: what it was, what it becomes, where its copy comes from.
  struct Item {
    torch::Tensor old, result, grad;
    std::uint32_t group = none;
    std::int64_t src = -1, grad_src = -1;
    bool in_place = false;
  };

  // 1. Refuse, before anything moves, what cannot move: module tensors are updated with
  //    set_data, which LibTorch allows only between "dense" backends (cpu, cuda, xpu...);
  //    walking an optimizer throws on state types we do not know.
  void refuse_unmovable() {
    torch::Tensor probe;
    for (std::uint32_t e = 0; e < entries_.size(); ++e) {
      const Entry& entry = entries_[e];
      if (entry.kind != Kind::Module && entry.kind != Kind::Optimizer)
        continue;
      walk(entry.kind, entry.object, scratch_, [&](torch::Tensor& t, bool in_place, bool, auto&&) {
        if (!in_place || !t.defined() || is_on(t.device(), device_))
          return;
        if (!probe.defined())
          probe = torch::empty({0}, torch::TensorOptions().device(device_));
        if (!t.unsafeGetTensorImpl()->has_compatible_shallow_copy_type(probe.key_set()))
          throw std::invalid_argument("todevice: cannot move module '" +
                                      detail::entry_name(entry.name, entry.kind, e) + "' from " +
                                      t.device().str() + " to " + device_.str() +
                                      ": module tensors are moved in place like Module::to (set_data), "
                                      "which LibTorch does not allow between these devices");
      });
    }
    scratch_.clear();
  }

  // 2. A tensor whose handle is the only reference to its TensorImpl, and whose storage
  //    no other impl uses, aliases nothing: it moves at once, exactly like the hand loop
  //    `t = t.to(device)` (and frees its old copy as early). The others are collected.
  void move_unaliased() {
    const bool coalescing = detail::coalesces(registry_.options_, device_);
    for (std::uint32_t e = 0; e < entries_.size(); ++e)
      walk(entries_[e].kind, entries_[e].object, scratch_, [&](torch::Tensor& t, bool in_place, bool param, auto&&) {
        if (!t.defined() || is_on(t.device(), device_)) {
          result_.already_there += t.defined();
          return;
        }
        touched_[e] = 1;
        if (coalescing || in_place || param || t.use_count() != 1 ||
            (t.has_storage() && t.storage().use_count() != 1)) {
          slots_.push_back(Slot{&t, e, 0, in_place, param});
          return;
        }
        torch::Tensor moved = copy_of(t, device_, non_blocking_, result_);
        const torch::Tensor& grad = grad_of(t);
        if (grad.defined() && is_leaf(t) && !is_on(grad.device(), device_)) {
          moved.mutable_grad() = copy_of(grad, device_, non_blocking_, result_);
          ++result_.tensors;
        }
        t = std::move(moved);
        ++result_.tensors;
      });
  }

  // 3. The rest: one item per distinct TensorImpl, and groups of items sharing a storage.
  void group_by_impl_and_storage() {
    items_.reserve(slots_.size());
    std::unordered_map<c10::StorageImpl*, std::uint32_t> by_storage;
    for (Slot& s : slots_) {
      const torch::Tensor& t = *s.handle;
      auto [found, fresh] = by_impl_.try_emplace(t.unsafeGetTensorImpl(), static_cast<std::uint32_t>(items_.size()));
      s.item = found->second;
      if (fresh) {
        items_.push_back(Item{t});
        if (t.has_storage()) {
          auto g = by_storage.try_emplace(t.storage().unsafeGetStorageImpl(), groups_.size()).first;
          if (g->second == groups_.size())
            groups_.emplace_back();
          groups_[g->second].push_back(s.item);
          items_[s.item].group = g->second;
        }
      }
      items_[s.item].in_place |= s.in_place;
    }
  }

  // 4. What to copy: each shared storage once (as bytes), each other leaf, each gradient.
  std::vector<torch::Tensor> copy_sources() {
    std::vector<torch::Tensor> sources;
    sources.reserve(items_.size());
    group_src_.assign(groups_.size(), -1);
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      if (groups_[g].size() < 2)
        continue;
      const c10::Storage& storage = items_[groups_[g][0]].old.storage();
      group_src_[g] = static_cast<std::int64_t>(sources.size());
      sources.push_back(torch::empty({0}, torch::TensorOptions().dtype(torch::kUInt8).device(storage.device()))
                            .set_(storage, 0, {static_cast<std::int64_t>(storage.nbytes())}, {1}));
    }
    for (Item& it : items_) {
      const bool leaf = is_leaf(it.old);
      if ((it.group == none || group_src_[it.group] < 0) && (leaf || it.in_place)) {
        it.src = static_cast<std::int64_t>(sources.size());
        sources.push_back(it.old);
      }
      if (leaf && grad_of(it.old).defined() && !is_on(grad_of(it.old).device(), device_)) {
        it.grad_src = static_cast<std::int64_t>(sources.size());
        sources.push_back(grad_of(it.old));
      }
    }
    return detail::transfer(sources, device_, non_blocking_, registry_.options_, result_);
  }

  // 5a. Shared storages: every member is rebuilt on the moved storage, bases before
  //     views so a view of a registered base stays its autograd view.
  void rebuild_shared_storages(const std::vector<torch::Tensor>& moved) {
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      if (group_src_[g] < 0)
        continue;
      const c10::Storage& storage = moved[group_src_[g]].storage();
      auto& members = groups_[g];
      std::stable_partition(members.begin(), members.end(), [&](std::uint32_t m) { return !items_[m].old.is_view(); });
      for (std::uint32_t m : members) {
        Item& it = items_[m];
        const torch::Tensor& old = it.old;
        if (!it.in_place && old.is_view()) {
          auto base = by_impl_.find(old._base().unsafeGetTensorImpl());
          if (base != by_impl_.end() && !items_[base->second].in_place && items_[base->second].result.defined()) {
            torch::AutoGradMode track(true);
            it.result = items_[base->second].result.as_strided(old.sizes(), old.strides(), old.storage_offset());
            continue;
          }
        }
        it.result = torch::empty({0}, old.options().device(device_))
                        .set_(storage, old.storage_offset(), old.sizes(), old.strides());
        if (!it.in_place && old.requires_grad())
          it.result.requires_grad_(true);
      }
    }
  }

  // 5b. The others: copied leaves, and non-leaves, which stay in their graph.
  void rebuild_the_others(const std::vector<torch::Tensor>& moved) {
    for (Item& it : items_) {
      if (it.src >= 0) {
        it.result = moved[it.src];
        if (!it.in_place && it.old.requires_grad())
          it.result.requires_grad_(true);
      } else if (!it.result.defined()) {
        it.result = copy_of(it.old, device_, non_blocking_, result_);
      }
      if (it.grad_src >= 0)
        it.grad = moved[it.grad_src];
    }
  }

  // 6. Publish. Module tensors keep their TensorImpl (every handle to it sees the new
  //    data); other handles are rebound; optimizer state follows re-created impls.
  void publish() {
    for (Item& it : items_) {
      if (it.in_place)
        it.old.set_data(it.result);
      if (it.grad.defined())
        (it.in_place ? it.old : it.result).mutable_grad() = it.grad;
      result_.tensors += 1 + it.grad.defined();
    }
    for (const Slot& s : slots_) {
      const Item& it = items_[s.item];
      if (it.in_place)
        continue;
      if (s.optimizer_param)
        rekey_optimizer_state(*static_cast<torch::optim::Optimizer*>(entries_[s.entry].object), it);
      *s.handle = it.result;
    }
  }

  static void rekey_optimizer_state(torch::optim::Optimizer& optimizer, const Item& it) {
    auto& state = optimizer.state();
    auto node = state.find(compat::optimizer_state_key(it.old));
    if (node == state.end())
      return;
    auto moved_state = std::move(node->second);
    state.erase(node);
    state[compat::optimizer_state_key(it.result)] = std::move(moved_state);
  }

  Registry& registry_;
  std::vector<Entry>& entries_;
  const torch::Device device_;
  const bool non_blocking_;
  MoveResult result_;
  std::vector<char> touched_; // per entry: did any of its tensors change device?
  std::deque<torch::Tensor> scratch_;
  std::vector<Slot> slots_;
  std::vector<Item> items_;
  std::unordered_map<c10::TensorImpl*, std::uint32_t> by_impl_;
  std::vector<std::vector<std::uint32_t>> groups_;
  std::vector<std::int64_t> group_src_;
};

namespace {

/// TODEVICE_AUDIT=1: what audit() finds after each to(), on stderr, so that a
/// harness (test/gpu/prove) checks a migrated program without editing it.
void report_audit(const AuditReport& report, std::size_t registrations) {
  std::fprintf(stderr, "todevice: audit after to(%s): %zu registrations, %zu tensors elsewhere\n",
               report.expected.str().c_str(), registrations, report.findings.size());
  if (!report.ok())
    std::fprintf(stderr, "%s\n", report.str().c_str());
}

} // namespace

MoveResult Registry::to(torch::Device device, bool non_blocking) {
  // Copies must not join autograd graphs; leaf status and requires_grad are restored.
  torch::NoGradGuard no_grad;
  MoveResult result = Mover(*this, device, non_blocking).run();
  device_ = device;
  if (detail::switched_on("TODEVICE_AUDIT"))
    report_audit(audit(device), size());
  return result;
}

} // namespace todevice
