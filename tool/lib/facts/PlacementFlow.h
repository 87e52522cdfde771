// Where each tensor of the migrated files is needed, from what LibTorch
// itself requires rather than from the shapes of programs:
//
//  - every operand of an operation and its result are on one device
//    (TorchOps: Compute, Join, Accumulate, a CreateLike's operand); a view or
//    a handle (`auto y = x`, `v.push_back(x)`, `auto [a, b] = f()`) is the
//    tensor it names: they form one *colocation class*;
//  - a module's inputs and outputs are where its parameters are: the device;
//  - host code writes only host memory (HostWrites.h): a tensor the host
//    builds stays on the host, and each operation that takes it takes a
//    copy, so it ends its class there;
//  - a function's summary says, per tensor parameter, what its code needs of
//    it (the device, the host's writes, or nothing: it follows the caller),
//    and what it returns (a device tensor, a parameter's class, a tensor its
//    host code built, or a new one). Calls are joined through the summaries,
//    not through the callee's body: a helper that a dataset and a model both
//    call is placed for each caller apart.
//
// A class that meets a module needs the device; one its host code writes
// needs the host; one that holds a parameter of the function follows its
// caller. The decision for a site (a factory, a tensor over host memory) is
// its class's (PlacementFlow::of). Summaries are computed to a fixed point
// over the functions of one parse; those of the other translation units of
// the run come from the first pass (ProgramSummary).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace to_device_migrate {

/// What a function's code needs of a tensor it is handed.
enum class ParameterNeed {
  None,      ///< nothing of its own: it follows the caller's tensor
  Device,    ///< its code hands it to a module, or combines it with the device's
  HostWrite, ///< its host code writes the tensor's memory
  Kept,      ///< kept beyond the call, in a member or a global (a setter): its
             ///< tensor is needed wherever that member is
};

/// What a function returns.
struct ReturnSummary {
  enum Kind {
    New,       ///< a tensor of its own, placed by nothing it is given
    Device,    ///< the device's (a module's output, a parameter of one)
    Parameter, ///< in the class of its parameter `Index`
    HostBuilt, ///< a tensor its host code built and wrote
    /// a transfer to a device member of its class (`.to(device_)`) whose
    /// values its own parse does not decide (`device_(device)`): where the
    /// whole program says `Member` is (ProgramSummary::merge() makes it
    /// Device or HostBuilt; only the first pass writes it)
    ThroughMember,
  } What = New;
  unsigned Index = 0;
  std::string Member; ///< USR, for ThroughMember
  bool operator==(const ReturnSummary &O) const {
    return What == O.What && Index == O.Index && Member == O.Member;
  }
};

/// One function's summary, for the calls of the program.
struct PlacementSummary {
  std::vector<ParameterNeed> Parameters; ///< by parameter index (None for non-tensors)
  ReturnSummary Returns;
  /// Its code touches a tensor or runs a module. A module's method that does
  /// neither (`net.get_net_info()`) only asks it a question.
  bool TensorWork = true;
  bool operator==(const PlacementSummary &O) const {
    return Parameters == O.Parameters && Returns == O.Returns && TensorWork == O.TensorWork;
  }
  llvm::json::Value toJSON() const;
  static std::optional<PlacementSummary> fromJSON(const llvm::json::Value &Value);
};

/// Where a site's tensor must be made.
struct Placement {
  enum Kind {
    Free,      ///< nothing needs it anywhere in particular (the program's device, by default)
    Device,    ///< its class meets a module
    Host,      ///< host code writes it, and nothing needs it on the device; or
               ///< per-sample code makes it (moved with its batch)
    Parameter, ///< where the function's tensor parameter `Param` is (`Param.device()`),
               ///< or its tensor member `Field` (`Param.Field.device()`: `view.pose`)
  } Where = Free;
  const clang::ParmVarDecl *Param = nullptr;
  const clang::FieldDecl *Field = nullptr;
};

class PlacementFlow {
public:
  /// What the analysis asks of the rest of the program.
  struct Program {
    /// True for a location in a file this run migrates.
    std::function<bool(clang::SourceLocation)> IsMigrated;
    /// The summary of a function defined elsewhere in the program (may be null).
    std::function<const PlacementSummary *(const clang::FunctionDecl &)> Elsewhere;
    /// True for a member of the program's classes that host code builds,
    /// in whatever files (ProgramSummary::isHostBuiltField(); may be null).
    std::function<bool(const clang::FieldDecl &)> IsHostBuiltField;
    /// True for a tensor member the program fills with host tensors by its
    /// own choice (a factory given the CPU, a `.to(torch::kCPU)` copy), in
    /// whatever file (ProgramSummary::isHostChosenField(); may be null).
    std::function<bool(const clang::FieldDecl &)> IsHostChosenField;
    /// True for a device parameter or member the program gives only the CPU
    /// (ProgramSummary::isCpuOnlyParameter(), isCpuOnlyMember(); may be
    /// null): a transfer to it is a host copy.
    std::function<bool(const clang::ValueDecl &)> IsCpuDevice;
    /// True when IsCpuDevice answers for the whole program (the second pass):
    /// else a transfer to a device member it does not know is summarised as
    /// ReturnSummary::ThroughMember, for the merge to decide.
    bool KnowsEveryDevice = false;
    /// True for an expression in code a data loader runs per sample (a
    /// dataset's get(), what only such code calls: PerSampleCode.h): host
    /// code by choice, whose samples are moved as one batch where the loop
    /// receives them (may be null; asked only after construction).
    std::function<bool(const clang::Expr &)> IsPerSampleCode;
  };

  /// Analyses the functions of `Decls` (the migrated files' top-level
  /// declarations) whose bodies are in migrated files.
  PlacementFlow(clang::ASTContext &Ast, llvm::ArrayRef<clang::Decl *> Decls, Program Whole);
  ~PlacementFlow();
  PlacementFlow(const PlacementFlow &) = delete;
  PlacementFlow &operator=(const PlacementFlow &) = delete;

  /// Where the tensor `Site` makes must be: a factory call, a tensor over
  /// host memory, a call of a function.
  Placement of(const clang::Expr &Site) const;
  /// True if the class of `Value` (an expression the analysis saw) meets the device.
  bool needsDevice(const clang::Expr &Value) const;
  /// True if the local `Var` holds a tensor built on the host elsewhere (a
  /// member or a tuple a function of the program filled, what it returns)
  /// that device code takes, and its own function neither builds nor writes
  /// it: it is moved once, where it is defined.
  bool isMovedWhereDefined(const clang::VarDecl &Var) const;
  /// True if nothing takes the tensor `Site` makes (a tensor over host
  /// memory) to the device, nor out of what the analysis sees (returned,
  /// kept in a member or a global, handed to code it cannot see, stored into
  /// a struct of the program, or copied into any of those): host code
  /// reads it, or hands it to a module's parameters (`set_data`) before the
  /// module is moved. It stays on the host.
  bool staysOnHost(const clang::Expr &Site) const;
  /// True if `Use`, a call's result built on the host (a getter of a member
  /// the host fills, a function that fills its result from host code), is
  /// taken by device code as it is: moved there.
  bool isMovedWhereUsed(const clang::Expr &Use) const;

  /// The summary of `F`: from the analysed files, else from the rest of the
  /// program (Program::Elsewhere); null if neither has it.
  const PlacementSummary *summaryOf(const clang::FunctionDecl &F) const;
  /// Every tensor member whose class here does not meet the device and
  /// holds host tensors the program chose (a factory given the CPU, a
  /// `.to(torch::kCPU)` copy: `Device` null), or tensors made on or moved to
  /// a device parameter or member this parse cannot decide (`Device`), for
  /// the first pass.
  void forEachHostChosenField(
      llvm::function_ref<void(const clang::FieldDecl &, const clang::ValueDecl *Device)> Visit) const;
  /// Every tensor member that host code writes and no device code takes as
  /// it is: handed to a function that writes through it
  /// (`read_matrix(weights_, file)` through an accessor:
  /// ParameterNeed::HostWrite), or filled with copies of host memory (rows
  /// of a buffer host code writes, `batch.rows[k] = buffer[i]`). Built on
  /// the host like one host code writes element by element
  /// (FieldWrite::Host), for the first pass.
  void forEachHostWrittenField(llvm::function_ref<void(const clang::FieldDecl &)> Visit) const;
  /// Every summary of the analysed files, for the first pass.
  void forEachSummary(llvm::function_ref<void(const clang::FunctionDecl &, const PlacementSummary &)> Visit) const;

private:
  class Impl;
  std::unique_ptr<Impl> State;
};

} // namespace to_device_migrate
