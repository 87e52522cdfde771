#include "todevice/registry.h"

#include "transfer.h"
#include "walk.h"

#include <cstring>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace todevice {

using detail::entry_name;
using detail::grad_of;
using detail::is_leaf;
using detail::is_on;
using detail::walk;

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

} // namespace todevice
