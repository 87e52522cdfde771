// Classifies the LibTorch types and declarations the rules care about.
//
// Every question is answered from the AST with Clang's own matchers (hasName,
// isSameOrDerivedFrom), never from spelling, so `using namespace torch;`,
// aliases, typedefs and inline namespaces (libc++'s std::__1) are handled the
// same way as fully qualified code.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace to_device_migrate {

/// How a variable holds a module.
enum class ModuleHandle {
  None,      ///< not a module
  Object,    ///< `Net net;` — a torch::nn::Module subclass by value
  SharedPtr, ///< `std::shared_ptr<Net>` — call `->to()`
  UniquePtr, ///< `std::unique_ptr<Net>` — call `->to()`
  Holder,    ///< `torch::nn::Linear`, a TORCH_MODULE holder — call `->to()`
  AnyModule, ///< `torch::nn::AnyModule`, type-erased — call `.ptr()->to()`
  Script,    ///< `torch::jit::Module` (TorchScript) — call `.to()`
};

struct ModuleType {
  ModuleHandle Handle = ModuleHandle::None;
  /// The torch::nn::Module subclass (for holders: the `...Impl` class); null
  /// for an AnyModule or a TorchScript module, whose class is not known.
  const clang::CXXRecordDecl *Class = nullptr;
  /// A TorchScript module (torch::jit::Module), by value or by smart pointer:
  /// it has to(), but is no torch::nn::Module.
  bool Script = false;
};

/// True if `D` is the declaration `QualifiedName` (e.g. "torch::data::Example"),
/// as the hasName matcher decides: inline namespaces may be left out.
bool isNamed(const clang::NamedDecl *D, llvm::StringRef QualifiedName);

/// True if `Class` is `Base` or derives from it (qualified name, e.g. "torch::nn::Module").
bool isOrDerivesFrom(const clang::CXXRecordDecl *Class, llvm::StringRef Base);

/// False for a module class that derives from torch::nn::Module privately or
/// protectedly (`class ViewImpl : torch::nn::Module`): no code outside it can
/// call its `to()`. True otherwise, and for a class not known (null).
bool exposesModuleInterface(const clang::CXXRecordDecl *Class);

/// Classifies a variable's type; references and pointers are not module owners.
ModuleType classifyModuleType(clang::QualType Type);

/// True for loss modules: LibTorch's `...LossImpl` classes and user modules whose
/// class name ends in `Loss` (or derive from one of those). False for a module
/// whose class is not known (an AnyModule, a TorchScript module).
bool isLossModule(const clang::CXXRecordDecl *Class);

/// How a container holds its modules (ModuleSlotType).
enum class ModuleContainer {
  None,     ///< one module
  Sequence, ///< std::vector, std::array, std::deque, std::list of them
  Map,      ///< std::map, std::unordered_map: the modules are the values
};

/// The type of an object that is, points to or holds modules: a module handle
/// (classifyModuleType()), a pointer to one (`Net *`, `Policy *`), or a
/// standard container of them (`std::vector<torch::nn::Linear>`,
/// `std::map<std::string, std::shared_ptr<Net>>`).
struct ModuleSlotType {
  ModuleType Element;   ///< each module's handle
  bool Pointer = false; ///< the object is a pointer to that handle
  ModuleContainer Container = ModuleContainer::None;
  bool holdsModules() const { return Element.Handle != ModuleHandle::None; }
};

/// Classifies the type of a variable, member or expression; references are
/// not owners (none).
ModuleSlotType classifyModuleSlot(clang::QualType Type);

/// True if the declaration sits inside a member function of a torch::nn::Module
/// subclass (a submodule built there is moved with its parent).
bool isInsideModuleMember(const clang::Decl *D);

/// True for `c10::Device` (torch::Device, at::Device), ignoring cv and references.
bool isDeviceType(clang::QualType Type);
/// True for a device variable the user pinned to the CPU: its initialiser names
/// only `kCPU` or "cpu" (`torch::Device cpu(torch::kCPU);`). The tool never
/// reuses such a variable as "the device".
bool isPinnedToCpu(const clang::VarDecl &Device);
/// Answers, for a device parameter of the program's functions or a device
/// member of its classes, whether the program only ever gives it the CPU:
/// every call hands the parameter `torch::kCPU`, every constructor sets the
/// member to it or to such a parameter (ProgramSummary::isCpuOnlyDevice());
/// empty when nothing is known of the calls.
using CpuDevices = llvm::function_ref<bool(const clang::ValueDecl &)>;
/// True if `E` names the CPU and nothing else: `torch::kCPU`, "cpu",
/// `torch::Device(torch::kCPU)`, a device variable pinned to it, a device
/// member every constructor sets to it and nothing else assigns, or a
/// parameter or member the whole program gives only the CPU (`IsCpu`).
bool namesOnlyTheCpu(const clang::Expr &E, CpuDevices IsCpu = {});
/// True for `c10::DeviceType` (torch::kCUDA, torch::kCPU, ...).
bool isDeviceTypeEnum(clang::QualType Type);
/// True for `c10::TensorOptions`, ignoring cv and references.
bool isTensorOptionsType(clang::QualType Type);
/// True for `at::Tensor` (torch::Tensor), ignoring cv and references.
bool isTensorType(clang::QualType Type);

/// True for an expression of a device type (`torch::Device`, `torch::kCUDA`).
inline bool isDeviceExpression(const clang::Expr &E) {
  return isDeviceType(E.getType()) || isDeviceTypeEnum(E.getType());
}

/// Strips implicit casts, temporaries and converting constructors, returning the
/// expression as written (e.g. `torch::kFloat` for an implicit TensorOptions).
const clang::Expr *ignoreConversions(const clang::Expr *E);

/// True if `E` is moved where it is used: `E.to(<device>)` or `(E).to(<device>)`.
bool isMovedToDevice(clang::ASTContext &Ast, const clang::Expr &E);

/// True if `D` is declared in LibTorch's or the standard library's namespaces
/// (torch, at, c10, caffe2, std).
bool isLibraryDecl(const clang::Decl *D);

/// True if the namespace `D` is declared in is one of `Namespaces` (qualified:
/// "torch", "c10").
bool isInNamespace(const clang::Decl *D, llvm::ArrayRef<llvm::StringRef> Namespaces);

/// True if `D` is declared in namespace std, or in a class or namespace of
/// it (`std::vector`'s constructors, `std::__cxx11::basic_string`'s methods).
bool isInStandardLibrary(const clang::Decl &D);

/// `x.cpu()`, `x.to(torch::kCPU)`, `x.to(device_)` with a device pinned to
/// the CPU (namesOnlyTheCpu): the program asks for a host tensor.
bool isBroughtToHost(const clang::Expr &E, CpuDevices IsCpu = {});

/// True for a tensor method that hands host code the tensor's memory:
/// `data_ptr<T>()`, LibTorch 2's `const_data_ptr`/`mutable_data_ptr`, the
/// deprecated `data<T>()` (not `data()`, which gives a tensor), and
/// `accessor<T, N>()`. Host memory only on a host tensor.
bool isHostMemoryAccess(const clang::CXXMethodDecl *Method);

/// True if the function's qualified name is `torch::<Name>` or `at::<Name>`.
bool isTorchFunction(const clang::FunctionDecl *F, llvm::StringRef Name);

} // namespace to_device_migrate
