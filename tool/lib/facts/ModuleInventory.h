// The module inventory: every object of the migrated files whose type is,
// points to or holds a module (TorchTypes.h: ModuleSlotType) — a local, a
// global, a static, a member of a plain class, of a class template or of a
// module — and each place the program stores a module into it: where it is
// declared, assigned (`net = Net(cfg);` in an Initialize()), appended to (a
// std::vector of layers), reset, or loaded into (`torch::load(net, path)`).
// The module rules place what the inventory holds (rules/modules/), after the
// store and the host-side initialisation that follows it, before the first
// use; they do not recognise shapes of their own.
#pragma once

#include "facts/TorchTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <string>
#include <vector>

namespace to_device_migrate {

/// A module object as code reaches it: a variable (`net`), a member of a plain
/// struct it holds (`h.proj`, `h.inner.net`), or, inside a member function, a
/// member of `this` (Var null: `proj`, `inner.net`).
struct ModuleAccess {
  const clang::VarDecl *Var = nullptr;
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
  bool operator==(const ModuleAccess &Other) const {
    return Var == Other.Var && Fields.size() == Other.Fields.size() &&
           std::equal(Fields.begin(), Fields.end(), Other.Fields.begin(),
                      [](const clang::FieldDecl *A, const clang::FieldDecl *B) {
                        // A template's member and an instantiation's are one member.
                        return A->getName() == B->getName();
                      });
  }
  bool empty() const { return !Var && Fields.empty(); }
  /// The declaration stored into: the variable, or the last member.
  const clang::ValueDecl *object() const;
  std::string spelling() const;
};

/// `net` in `net->f(...)`, `net.f(...)`, `(*net).f(...)`, `h.proj->f(...)`,
/// `this->proj->f(...)`, `net.get()`: the module object an expression reaches
/// (empty if none).
ModuleAccess calledOn(const clang::Expr *Object);
/// What an assignment to `Target` stores into: calledOn(Target), or for an
/// element of a container (`layers[i] = ...`), the container.
ModuleAccess storedInto(const clang::Expr *Target);

/// The module type of a member; in a class template, where it depends on the
/// template's arguments (`Module model;`), the one every instantiation of this
/// translation unit agrees on (none if they differ or there is none).
ModuleSlotType memberSlotType(const clang::FieldDecl &Field);

/// What a store puts into a module object.
enum class StoredModule {
  New,        ///< a module that did not exist before (constructed, made, loaded)
  Empty,      ///< nothing: nullptr, an empty holder, a default smart pointer
  Existing,   ///< a module some other object holds (a copy of a handle, `&net`)
  Registered, ///< a submodule registered with its parent (`register_module(...)`)
};

/// Classifies the value of a store into an object of type `Type`; a null
/// `Value` is default construction.
StoredModule classifyStoredModule(const clang::Expr *Value, const ModuleSlotType &Type);

/// True if `Value` is a module its function was handed: a parameter, as is or
/// wrapped (`std::move(net)`, `torch::nn::AnyModule(net)`). Stored into a
/// member, it is the object's from then on, and the object places it.
bool namesParameter(const clang::Expr *Value);

struct ModuleStore {
  enum class Kind {
    Declaration, ///< `Net net(3);`, `auto m = torch::jit::load(p);`, `Net *p = new Net;`
    Assignment,  ///< `net = Net(cfg);`, `layers[i] = Linear(...)`, `p = new Net;`
    Append,      ///< `layers.push_back(Linear(2, 2));`, `nets.emplace_back(...)`
    Reset,       ///< `model.reset(new Net);`
    Load,        ///< `torch::load(net, path);`: CPU tensors replace the parameters
  };
  Kind StoreKind = Kind::Declaration;
  ModuleSlotType Type;   ///< of the object stored into
  ModuleAccess Access;   ///< the object, as the store reaches it
  const clang::Expr *Target = nullptr; ///< the object as written (none for a declaration)
  const clang::Expr *Value = nullptr;  ///< what is stored (none: default construction, a load)
  const clang::Stmt *Site = nullptr;   ///< the store expression, or the declaration statement
  const clang::VarDecl *Var = nullptr; ///< the variable declared (Kind::Declaration)
  StoredModule Stored = StoredModule::New;
};

/// Every store into a module object in `Decls` (the top-level declarations of
/// the migrated files), in source order.
std::vector<ModuleStore> collectModuleStores(clang::ASTContext &Ast,
                                             llvm::ArrayRef<clang::Decl *> Decls);

/// What the program's own functions, possibly defined in other files, do
/// with a module handed to them (ProgramSummary and PlacementFlow answer).
struct ModuleCallFacts {
  /// True if the function initialises the module it is handed as parameter
  /// `Index`, or, for `ObjectParameter`, a member function the module it is
  /// called on (`net.loadModel(path)`) (ProgramSummary::initializesModule()).
  std::function<bool(const clang::FunctionDecl &, unsigned Index)> InitialisesParameter;
  /// True if the function does no tensor work at all
  /// (PlacementSummary::TensorWork), so calling it on a module only asks it a
  /// question (`net.get_net_info()`, defined in another file).
  std::function<bool(const clang::FunctionDecl &)> OnlyAsks;
};
constexpr unsigned ObjectParameter = ~0u;

/// True if the module member function `Method` initialises its own object:
/// loads into it (`this->load(archive)`, `torch::load(*this, path)`).
bool initialisesItsObject(const clang::CXXMethodDecl &Method);

/// True if every mention of `Module` in `S` initialises it on the host —
/// `torch::load(m, path)`, a copy into its parameters, a submodule replaced,
/// layers appended, `m->eval()`, a call to a function that initialises it —
/// and there is one: `S` belongs before the module's move.
bool initialisesModule(clang::ASTContext &Ast, const clang::Stmt &S, const ModuleAccess &Module,
                       const ModuleCallFacts &ByCall);

/// What a statement after a module's store does with it: initialises it on
/// the host (initialisesModule()), only asks it questions that need no
/// tensor (`m->eval()`, `m.hiddenSize()`: the move may still come after),
/// pins it to the CPU (`m->to(torch::kCPU)`, "make sure it is on the CPU":
/// in the CPU program, where it already is; before a use, part of its
/// set-up, so the move comes after it; with no use after, it stays last), or
/// uses it (the move must come before).
enum class StatementRole { Initialises, Asks, PinsToCpu, Uses };
StatementRole roleOf(clang::ASTContext &Ast, const clang::Stmt &S, const ModuleAccess &Module,
                     const ModuleCallFacts &ByCall);

/// True if `Body` initialises `Module` somewhere (for the program summary:
/// a function that loads into, or copies into, the module it is handed).
bool hasInitialisation(clang::ASTContext &Ast, const clang::Stmt &Body, const ModuleAccess &Module);

/// True if the local module `Var` is only read on the host in `Body`: loaded
/// into, its parameters or buffers read (to copy them into another model, as
/// pretrained weights are), set to eval/train — never run, nor handed on.
bool isOnlyReadOnHost(clang::ASTContext &Ast, const clang::VarDecl &Var, const clang::Stmt &Body);

/// True if `S` mentions `Module`.
bool mentionsModule(const clang::Stmt &S, const ModuleAccess &Module);

/// True if `S` starts a thread or a task (std::thread, std::jthread,
/// std::async, pthread_create): a module it may use must be placed before.
bool startsThread(const clang::Stmt &S);

/// True if a member function of `Field`'s module class hands `Field` to
/// register_module() (its parent's Module::to() moves it).
bool isRegisteredSubmodule(const clang::FieldDecl &Field);

} // namespace to_device_migrate
