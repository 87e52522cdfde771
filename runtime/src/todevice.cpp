#include "todevice/todevice.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace todevice {
namespace {

std::mutex& named_devices_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, torch::Device>& named_devices() {
  static std::map<std::string, torch::Device> devices;
  return devices;
}

torch::Device parse_device(const std::string& value) {
  {
    std::lock_guard<std::mutex> lock(named_devices_mutex());
    auto it = named_devices().find(value);
    if (it != named_devices().end())
      return it->second;
  }
  if (value == "sim")
    throw std::invalid_argument(
        "TODEVICE=sim: the simulated accelerator is not linked into this program "
        "(link the todevice_sim library)");
  try {
    return torch::Device(value);
  } catch (const std::exception&) {
    throw std::invalid_argument("TODEVICE='" + value +
                                "' is not a device (expected cpu, cuda, cuda:N or sim)");
  }
}

// A target without an index ("cuda") accepts any index, as the user did not pick one.
bool is_on(const torch::Device& actual, const torch::Device& target) {
  return actual.type() == target.type() && (!target.has_index() || actual.index() == target.index());
}

std::string entry_name(const std::string* name, Kind kind, std::size_t index) {
  return name == nullptr ? std::string(kind_name(kind)) + "#" + std::to_string(index) : *name;
}

// Tensor::is_leaf() and Tensor::grad() go through the dispatcher; these read the
// TensorImpl directly (a tensor that does not require grad is a leaf by convention).
bool is_leaf(const torch::Tensor& t) { return !t.requires_grad() || t.grad_fn() == nullptr; }
const torch::Tensor& grad_of(const torch::Tensor& t) { return t.unsafeGetTensorImpl()->grad(); }

std::string impl_key(const torch::Tensor& t) {
  // The key LibTorch optimizers use for per-parameter state.
  return c10::guts::to_string(t.unsafeGetTensorImpl());
}

// Calls visit(tensor&, in_place, optimizer_param, describe) for every tensor handle
// reachable from `object`. Module tensors are copies kept in `scratch`: they share
// the module's TensorImpl, which is what set_data needs. describe() is only called
// by audit(), so the walk costs no string building in to().
template <class Visit>
void walk(Kind kind, void* object, std::deque<torch::Tensor>& scratch, Visit&& visit) {
  const auto none = [] { return std::string(); };
  switch (kind) {
  case Kind::Tensor:
  case Kind::Scalar: // a scalar entry points to its mirror tensor
    visit(*static_cast<torch::Tensor*>(object), false, false, none);
    return;
  case Kind::TensorList: {
    auto& list = *static_cast<std::vector<torch::Tensor>*>(object);
    for (std::size_t i = 0; i < list.size(); ++i)
      visit(list[i], false, false, [i] { return "[" + std::to_string(i) + "]"; });
    return;
  }
  case Kind::Module: {
    auto& module = *static_cast<torch::nn::Module*>(object);
    for (const auto& item : module.named_parameters(/*recurse=*/true)) {
      scratch.push_back(item.value());
      visit(scratch.back(), true, false, [name = item.key()] { return name; });
    }
    for (const auto& item : module.named_buffers(/*recurse=*/true)) {
      scratch.push_back(item.value());
      visit(scratch.back(), true, false, [name = item.key()] { return name; });
    }
    return;
  }
  case Kind::Optimizer: {
    auto& optimizer = *static_cast<torch::optim::Optimizer*>(object);
    auto& groups = optimizer.param_groups();
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (std::size_t i = 0; i < groups[g].params().size(); ++i)
        visit(groups[g].params()[i], false, true, [g, i] {
          return "param_groups[" + std::to_string(g) + "].params[" + std::to_string(i) + "]";
        });
    for (auto& [key, state] : optimizer.state()) {
      auto field = [&, k = key](torch::Tensor& t, const char* what) {
        visit(t, false, false, [k, what] { return "state[" + k + "]." + what; });
      };
      namespace o = torch::optim;
      if (auto* s = dynamic_cast<o::SGDParamState*>(state.get())) {
        field(s->momentum_buffer(), "momentum_buffer");
      } else if (auto* s = dynamic_cast<o::AdamParamState*>(state.get())) {
        field(s->exp_avg(), "exp_avg"), field(s->exp_avg_sq(), "exp_avg_sq");
        field(s->max_exp_avg_sq(), "max_exp_avg_sq");
      } else if (auto* s = dynamic_cast<o::AdamWParamState*>(state.get())) {
        field(s->exp_avg(), "exp_avg"), field(s->exp_avg_sq(), "exp_avg_sq");
        field(s->max_exp_avg_sq(), "max_exp_avg_sq");
      } else if (auto* s = dynamic_cast<o::AdagradParamState*>(state.get())) {
        field(s->sum(), "sum");
      } else if (auto* s = dynamic_cast<o::RMSpropParamState*>(state.get())) {
        field(s->square_avg(), "square_avg"), field(s->momentum_buffer(), "momentum_buffer");
        field(s->grad_avg(), "grad_avg");
      } else if (auto* s = dynamic_cast<o::LBFGSParamState*>(state.get())) {
        field(s->d(), "d"), field(s->H_diag(), "H_diag"), field(s->prev_flat_grad(), "prev_flat_grad");
        for (auto* dq : {&s->old_dirs(), &s->old_stps(), &s->ro()})
          for (auto& t : *dq) field(t, "history");
        if (s->al())
          for (auto& t : *s->al()) field(t, "al");
      } else {
        throw std::invalid_argument("todevice: optimizer state of an unsupported type (supported: SGD, "
                                    "Adam, AdamW, Adagrad, RMSprop, LBFGS)");
      }
    }
    return;
  }
  }
}

bool coalesces(const TransferOptions& options, torch::Device device) {
  return options.coalesce == Coalesce::Always ||
         (options.coalesce == Coalesce::Auto && device.is_cuda() && torch::cuda::is_available());
}

// What `t.to(device)` does for a tensor not on `device`, one dispatcher call shorter:
// Tensor::to is a composite that checks for aliasing and then calls _to_copy (same
// dtype, layout and memory format). Only for leaves under NoGradGuard: a tensor in an
// autograd graph goes through to() so the graph records the move.
torch::Tensor device_copy(const torch::Tensor& t, torch::Device device, bool non_blocking) {
  return at::_to_copy(t, torch::TensorOptions(device), non_blocking);
}

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

} // namespace

void register_named_device(const std::string& name, torch::Device device) {
  std::lock_guard<std::mutex> lock(named_devices_mutex());
  named_devices().insert_or_assign(name, device);
}

torch::Device default_device() {
  if (const char* env = std::getenv("TODEVICE"); env != nullptr && *env != '\0')
    return parse_device(env);
  return torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
}

const char* kind_name(Kind kind) {
  switch (kind) {
  case Kind::Tensor: return "tensor";
  case Kind::TensorList: return "tensor list";
  case Kind::Module: return "module";
  case Kind::Optimizer: return "optimizer";
  case Kind::Scalar: return "scalar";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& out, const MoveResult& r) {
  return out << "moved " << r.objects << " objects: " << r.tensors << " tensors, " << r.bytes
             << " bytes in " << r.transfers << " transfers (" << r.already_there << " already on "
             << r.device << ")";
}

std::string AuditReport::str() const {
  std::ostringstream out;
  if (findings.empty())
    out << "all registered tensors are on " << expected << "\n";
  for (const Finding& f : findings) {
    out << kind_name(f.kind) << " '" << f.object << "'";
    if (!f.tensor.empty())
      out << " tensor '" << f.tensor << "'";
    out << " is on " << f.device << ", expected " << expected << "\n";
  }
  return out.str();
}

std::ostream& operator<<(std::ostream& out, const AuditReport& report) { return out << report.str(); }

void move_batch(torch::Tensor& batch, torch::Device device, bool non_blocking) {
  if (batch.defined())
    batch = batch.to(device, batch.scalar_type(), non_blocking);
}

// ---------------------------------------------------------------- batch

namespace batch {

Plan plan(const std::vector<torch::Tensor>& tensors, std::size_t bucket_bytes, std::size_t direct_bytes) {
  Plan result;
  std::unordered_map<int, std::size_t> open; // dtype -> index of its bucket being filled
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const torch::Tensor& t = tensors[i];
    const std::size_t bytes = t.numel() * t.element_size();
    if (!t.device().is_cpu() || t.layout() != torch::kStrided || t.numel() == 0 || bytes >= direct_bytes) {
      result.direct.push_back(i);
      continue;
    }
    auto it = open.find(static_cast<int>(t.scalar_type()));
    if (it == open.end() ||
        (result.buckets[it->second].numel + t.numel()) * t.element_size() > bucket_bytes) {
      result.buckets.push_back(Bucket{t.scalar_type(), {}, 0});
      it = open.insert_or_assign(static_cast<int>(t.scalar_type()), result.buckets.size() - 1).first;
    }
    Bucket& bucket = result.buckets[it->second];
    bucket.members.push_back(i);
    bucket.numel += t.numel();
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
  std::vector<torch::Tensor> parts;
  parts.reserve(bucket.members.size());
  std::int64_t offset = 0;
  for (std::size_t i : bucket.members) {
    const torch::Tensor& t = tensors[i];
    parts.push_back(flat.narrow(0, offset, t.numel()).view(t.sizes()));
    offset += t.numel();
  }
  return parts;
}

} // namespace batch

// ---------------------------------------------------------------- registry

void Registry::add_entry(Kind kind, void* object, std::string name) {
  const std::string* stored = name.empty() ? nullptr : &names_.emplace_back(std::move(name));
  entries_.push_back(Entry{kind, object, stored});
}

void Registry::add_scalar(const void* variable, c10::ScalarType type, std::string name) {
  ScalarSlot& slot = scalars_.emplace_back(ScalarSlot{variable, type, 0, torch::Tensor()});
  scalar_at(variable, std::string_view()); // makes the mirror
  add_entry(Kind::Scalar, &slot.tensor, std::move(name));
}

torch::Tensor Registry::scalar_at(const void* variable, std::string_view name) {
  ScalarSlot* slot = nullptr;
  for (const Entry& e : entries_)
    if (e.kind == Kind::Scalar && variable == nullptr && e.name != nullptr && *e.name == name)
      for (ScalarSlot& s : scalars_)
        if (&s.tensor == e.object) slot = &s;
  for (ScalarSlot& s : scalars_)
    if (variable != nullptr && s.variable == variable) slot = &s;
  if (slot == nullptr)
    throw std::out_of_range(variable != nullptr ? "todevice::Registry::scalar: variable not registered"
                                                : "todevice::Registry::scalar: no scalar named '" +
                                                      std::string(name) + "'");
  std::uint64_t bits = 0;
  std::memcpy(&bits, slot->variable, c10::elementSize(slot->type));
  if (!slot->tensor.defined() || bits != slot->bits) {
    c10::Scalar value;
    switch (slot->type) {
    case c10::ScalarType::Double: value = *static_cast<const double*>(slot->variable); break;
    case c10::ScalarType::Float: value = *static_cast<const float*>(slot->variable); break;
    default: value = *static_cast<const std::int64_t*>(slot->variable); break;
    }
    const torch::Device device = slot->tensor.defined() ? slot->tensor.device() : device_.value_or(torch::kCPU);
    slot->tensor = torch::scalar_tensor(value, torch::TensorOptions().dtype(slot->type).device(device));
    slot->bits = bits;
  }
  return slot->tensor;
}

void Registry::clear() {
  entries_.clear();
  scalars_.clear();
  names_.clear();
}

AuditReport Registry::audit(torch::Device device) const {
  AuditReport report;
  report.expected = device;
  std::deque<torch::Tensor> scratch;
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    const Entry& entry = entries_[e];
    walk(entry.kind, entry.object, scratch, [&](torch::Tensor& t, bool, bool, auto&& describe) {
      if (!t.defined())
        return;
      if (!is_on(t.device(), device))
        report.findings.push_back({entry_name(entry.name, entry.kind, e), entry.kind, describe(), t.device()});
      if (is_leaf(t) && grad_of(t).defined() && !is_on(grad_of(t).device(), device)) {
        const std::string what = describe();
        report.findings.push_back({entry_name(entry.name, entry.kind, e), entry.kind,
                                   what.empty() ? "grad" : what + ".grad", grad_of(t).device()});
      }
    });
  }
  return report;
}

MoveResult Registry::to(torch::Device device, bool non_blocking) {
  // Copies must not join autograd graphs; leaf status and requires_grad are restored.
  torch::NoGradGuard no_grad;
  MoveResult result;
  result.device = device;
  std::vector<char> touched(entries_.size(), 0);

  // 1. Refuse, before anything moves, what cannot move: module tensors are updated with
  //    set_data, which LibTorch allows only between "dense" backends (cpu, cuda, xpu...);
  //    walking an optimizer throws on state types we do not know.
  torch::Tensor probe;
  std::deque<torch::Tensor> scratch;
  for (std::uint32_t e = 0; e < entries_.size(); ++e) {
    const Entry& entry = entries_[e];
    if (entry.kind == Kind::Module || entry.kind == Kind::Optimizer)
      walk(entry.kind, entry.object, scratch, [&](torch::Tensor& t, bool in_place, bool, auto&&) {
        if (!in_place || !t.defined() || is_on(t.device(), device))
          return;
        if (!probe.defined())
          probe = torch::empty({0}, torch::TensorOptions().device(device));
        if (!t.unsafeGetTensorImpl()->has_compatible_shallow_copy_type(probe.key_set()))
          throw std::invalid_argument("todevice: cannot move module '" + entry_name(entry.name, entry.kind, e) +
                                      "' from " + t.device().str() + " to " + device.str() +
                                      ": module tensors are moved in place like Module::to (set_data), "
                                      "which LibTorch does not allow between these devices");
      });
  }
  scratch.clear();

  // 2. A tensor whose handle is the only reference to its TensorImpl, and whose storage
  //    no other impl uses, aliases nothing: it moves at once, exactly like the hand loop
  //    `t = t.to(device)` (and frees its old copy as early). The others are collected.
  struct Slot {
    torch::Tensor* handle;
    std::uint32_t entry, item;
    bool in_place, optimizer_param;
  };
  std::vector<Slot> slots;
  const bool coalescing = coalesces(options_, device);
  for (std::uint32_t e = 0; e < entries_.size(); ++e)
    walk(entries_[e].kind, entries_[e].object, scratch, [&](torch::Tensor& t, bool in_place, bool param, auto&&) {
      if (!t.defined() || is_on(t.device(), device)) {
        result.already_there += t.defined();
        return;
      }
      touched[e] = 1;
      if (coalescing || in_place || param || t.use_count() != 1 || (t.has_storage() && t.storage().use_count() != 1)) {
        slots.push_back(Slot{&t, e, 0, in_place, param});
        return;
      }
      torch::Tensor moved = copy_of(t, device, non_blocking, result);
      const torch::Tensor& grad = grad_of(t);
      if (grad.defined() && is_leaf(t) && !is_on(grad.device(), device)) {
        moved.mutable_grad() = copy_of(grad, device, non_blocking, result);
        ++result.tensors;
      }
      t = std::move(moved);
      ++result.tensors;
    });

  // 3. The rest: one item per distinct TensorImpl, and groups of items sharing a storage.
  constexpr std::uint32_t none = ~0u;
  struct Item {
    torch::Tensor old, result, grad;
    std::uint32_t group = none;
    std::int64_t src = -1, grad_src = -1;
    bool in_place = false;
  };
  std::vector<Item> items;
  items.reserve(slots.size());
  std::unordered_map<c10::TensorImpl*, std::uint32_t> by_impl;
  std::unordered_map<c10::StorageImpl*, std::uint32_t> by_storage;
  std::vector<std::vector<std::uint32_t>> groups;
  for (Slot& s : slots) {
    const torch::Tensor& t = *s.handle;
    auto [found, fresh] = by_impl.try_emplace(t.unsafeGetTensorImpl(), static_cast<std::uint32_t>(items.size()));
    s.item = found->second;
    if (fresh) {
      items.push_back(Item{t});
      if (t.has_storage()) {
        auto g = by_storage.try_emplace(t.storage().unsafeGetStorageImpl(), groups.size()).first;
        if (g->second == groups.size())
          groups.emplace_back();
        groups[g->second].push_back(s.item);
        items[s.item].group = g->second;
      }
    }
    items[s.item].in_place |= s.in_place;
  }

  // 4. What to copy: each shared storage once (as bytes), each other leaf, each gradient.
  std::vector<torch::Tensor> sources;
  sources.reserve(items.size());
  std::vector<std::int64_t> group_src(groups.size(), -1);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].size() < 2)
      continue;
    const c10::Storage& storage = items[groups[g][0]].old.storage();
    group_src[g] = static_cast<std::int64_t>(sources.size());
    sources.push_back(torch::empty({0}, torch::TensorOptions().dtype(torch::kUInt8).device(storage.device()))
                          .set_(storage, 0, {static_cast<std::int64_t>(storage.nbytes())}, {1}));
  }
  for (Item& it : items) {
    const bool leaf = is_leaf(it.old);
    if ((it.group == none || group_src[it.group] < 0) && (leaf || it.in_place)) {
      it.src = static_cast<std::int64_t>(sources.size());
      sources.push_back(it.old);
    }
    if (leaf && grad_of(it.old).defined() && !is_on(grad_of(it.old).device(), device)) {
      it.grad_src = static_cast<std::int64_t>(sources.size());
      sources.push_back(grad_of(it.old));
    }
  }
  const std::vector<torch::Tensor> moved = transfer(sources, device, non_blocking, options_, result);

  // 5. The new tensors. Shared storages: every member is rebuilt on the moved storage,
  //    bases before views so a view of a registered base stays its autograd view.
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (group_src[g] < 0)
      continue;
    const c10::Storage& storage = moved[group_src[g]].storage();
    auto& members = groups[g];
    std::stable_partition(members.begin(), members.end(), [&](std::uint32_t m) { return !items[m].old.is_view(); });
    for (std::uint32_t m : members) {
      Item& it = items[m];
      const torch::Tensor& old = it.old;
      if (!it.in_place && old.is_view()) {
        auto base = by_impl.find(old._base().unsafeGetTensorImpl());
        if (base != by_impl.end() && !items[base->second].in_place && items[base->second].result.defined()) {
          torch::AutoGradMode track(true);
          it.result = items[base->second].result.as_strided(old.sizes(), old.strides(), old.storage_offset());
          continue;
        }
      }
      it.result = torch::empty({0}, old.options().device(device))
                      .set_(storage, old.storage_offset(), old.sizes(), old.strides());
      if (!it.in_place && old.requires_grad())
        it.result.requires_grad_(true);
    }
  }
  for (Item& it : items) {
    if (it.src >= 0) {
      it.result = moved[it.src];
      if (!it.in_place && it.old.requires_grad())
        it.result.requires_grad_(true);
    } else if (!it.result.defined()) { // a non-leaf stays in its graph
      it.result = copy_of(it.old, device, non_blocking, result);
    }
    if (it.grad_src >= 0)
      it.grad = moved[it.grad_src];
  }

  // 6. Publish. Module tensors keep their TensorImpl (every handle to it sees the new
  //    data); other handles are rebound; optimizer state follows re-created impls.
  for (Item& it : items) {
    if (it.in_place)
      it.old.set_data(it.result);
    if (it.grad.defined())
      (it.in_place ? it.old : it.result).mutable_grad() = it.grad;
    result.tensors += 1 + it.grad.defined();
  }
  for (const Slot& s : slots) {
    const Item& it = items[s.item];
    if (it.in_place)
      continue;
    if (s.optimizer_param) {
      auto& state = static_cast<torch::optim::Optimizer*>(entries_[s.entry].object)->state();
      auto node = state.find(impl_key(it.old));
      if (node != state.end()) {
        auto moved_state = std::move(node->second);
        state.erase(node);
        state[impl_key(it.result)] = std::move(moved_state);
      }
    }
    *s.handle = it.result;
  }
  for (char t : touched)
    result.objects += t;
  device_ = device;
  return result;
}

} // namespace todevice
