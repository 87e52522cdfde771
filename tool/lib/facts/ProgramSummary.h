// What the whole program is, for the rewrite of each of its files: the first
// pass of a run parses every translation unit and writes what it learnt as a
// TranslationUnitSummary; the summaries are merged into one ProgramSummary,
// which the second pass (the migration of each file) reads. SYCLomatic's
// analysis-then-migration is the model: a helper in rays.cpp that only a
// dataset in dataset.cpp calls is per-sample code although rays.cpp's own
// parse never sees the dataset.
//
// Declarations are named by their USR (compat::generateUsr), the name
// clangd and the indexer use for one entity across translation units.
// A file given alone is its own whole program: its parse's summary, merged
// alone.
#pragma once

#include "facts/PlacementFlow.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace to_device_migrate {

/// The USR of a declaration: one name for it in every translation unit (a
/// template instantiation is named by its pattern; "" if it has none).
std::string usrOf(const clang::Decl *D);

/// Where a use of a function sits, as far as per-sample code is concerned.
struct FunctionUse {
  enum class UserKind {
    Function,  ///< in the body of function `User` (not a per-sample one by itself)
    PerSample, ///< in a member of a dataset or transform, or a lambda handed to one
    Other,     ///< anywhere else: a global's initialiser, a plain class's member initialiser
  };
  std::string Callee; ///< USR
  UserKind Kind = UserKind::Other;
  std::string User; ///< USR, for UserKind::Function
};

/// A tensor handed to a parameter of one of the program's functions.
struct TensorArgument {
  std::string Callee; ///< USR
  unsigned Index = 0;
  bool HostData = false; ///< a copy of host data (HostWrites.h, isHostDataArgument())
};

/// A device handed to a device parameter of one of the program's functions
/// or constructors (`Storage(n, torch::kCPU)`), or given to a device member
/// of its classes (`device_(device)`, `device_ = torch::kCPU`).
struct DeviceArgument {
  std::string Callee; ///< USR of the function, or of the member
  unsigned Index = 0; ///< the parameter's (0 for a member)
  enum Kind {
    Cpu,       ///< names the CPU alone (TorchTypes.h, namesOnlyTheCpu())
    Forwarded, ///< the caller's own device parameter `FromIndex` of `From`
    Member,    ///< the device member `From`
    Other,     ///< anything else: a choice, a call
  } What = Other;
  std::string From; ///< USR of the function (Forwarded) or of the member (Member)
  unsigned FromIndex = 0;
};

/// What one parse knows about the functions and classes of the files it
/// migrates (the main file and the headers --header-filter selects).
struct TranslationUnitSummary {
  /// Functions with a body in those files (not main()).
  std::vector<std::string> Defined;
  /// Those of them that are free functions (not members): called only where
  /// the program names them, so one nothing names never runs.
  std::vector<std::string> FreeFunctions;
  /// Every use of a function in those files (calls, and functions passed on).
  std::vector<FunctionUse> Uses;
  /// Functions that return a tensor their own host code built and wrote.
  std::vector<std::string> HostBuiltReturns;
  /// Classes with a user-written constructor defined in those files (their
  /// constructors move the modules they build).
  std::vector<std::string> ConstructedClasses;
  /// Functions that initialise a module they are handed (load a checkpoint
  /// into it, copy into its parameters, replace a submodule), by parameter
  /// index: the caller's move comes after the call.
  std::map<std::string, std::vector<unsigned>> ModuleInitializers;
  /// Member functions that initialise a module member of their object (a
  /// `load()` that loads into it), by member name.
  std::map<std::string, std::vector<std::string>> MemberInitializers;
  /// Tensor members of the program's classes (HostWrites.h, FieldWrite):
  /// filled by host code, given a factory's tensor, given anything else.
  std::vector<std::string> HostWrittenFields, FactoryBuiltFields, OtherwiseSetFields;
  /// Tensor members its analysis finds holding host tensors the program
  /// chose, and nothing of the device's (PlacementFlow::forEachHostChosenField()).
  std::vector<std::string> HostChosenFields;
  /// Tensor members its analysis finds holding tensors made on or moved to
  /// a device parameter or member it cannot decide (Callee: the member; the
  /// device: Forwarded or Member), for the merge to decide.
  std::vector<DeviceArgument> FieldDevices;
  /// Every tensor its calls hand to a parameter of the program's functions.
  std::vector<TensorArgument> TensorArguments;
  /// Every device its calls hand to a device parameter of the program's
  /// functions, and every device its code gives a device member.
  std::vector<DeviceArgument> DeviceArguments, DeviceMemberValues;
  /// Functions defined there, by the indices of their tensor parameters that
  /// are only inputs (HostWrites.h, isInputParameter()).
  std::map<std::string, std::vector<unsigned>> InputParameters;
  /// What each function defined there needs of its tensor parameters and
  /// returns (PlacementFlow.h).
  std::map<std::string, PlacementSummary> Placements;

  llvm::json::Value toJSON() const;
  static std::optional<TranslationUnitSummary> fromJSON(const llvm::json::Value &Value);
};

/// The summaries of every translation unit of the run, merged. Asked by USR:
/// it is shared by the parses of the second pass, each with an AST of its own
/// (ParseFacts asks it about declarations).
class ProgramSummary {
public:
  ProgramSummary() = default;
  /// Merges `Units` and finds the per-sample functions: those defined in the
  /// program whose every use, in any file, is per-sample code (to a fixed
  /// point: a helper of a helper of a dataset's get()).
  static ProgramSummary merge(llvm::ArrayRef<TranslationUnitSummary> Units);

  /// True if the program defines function `Usr` (its body is in a file this run migrates).
  bool defines(llvm::StringRef Usr) const { return Defined.count(Usr); }
  /// True if only per-sample code calls it (PerSampleCode.h).
  bool isOnlyCalledPerSample(llvm::StringRef Usr) const { return PerSample.count(Usr); }
  /// True if it returns a tensor its own host code built (HostWrites.h).
  bool returnsHostBuiltTensor(llvm::StringRef Usr) const { return HostBuilt.count(Usr); }
  /// True if a constructor of class `Usr`, written by the user, is defined in the program.
  bool hasConstructorInProgram(llvm::StringRef Usr) const { return Constructed.count(Usr); }
  /// True if function `Usr` initialises the module it is handed as parameter `Index`.
  bool initializesModule(llvm::StringRef Usr, unsigned Index) const {
    return hasIndex(ModuleInitializers, Usr, Index);
  }
  /// True if member function `Usr` initialises its object's module member `Member`.
  bool initializesMember(llvm::StringRef Usr, llvm::StringRef Member) const {
    auto Found = MemberInitializers.find(Usr);
    return Found != MemberInitializers.end() && llvm::is_contained(Found->second, Member);
  }
  /// True if tensor member `Usr` is built on the host: some function fills it
  /// from host code, every value it is given is a factory's, and no code
  /// modifies it where its operands are (HostWrites.h, FieldWrite).
  bool isHostBuiltField(llvm::StringRef Usr) const {
    return HostWrittenFields.count(Usr) && FactoryBuiltFields.count(Usr) &&
           !OtherwiseSetFields.count(Usr);
  }
  /// True if parameter `Index` of function `Usr` is handed host data by every
  /// call of the program, and is only an input of it: its function moves it
  /// where its code needs it on the device (HostWrites.h).
  bool receivesHostData(llvm::StringRef Usr, unsigned Index) const {
    return hasIndex(HostDataParameters, Usr, Index);
  }
  /// True if tensor member `Usr` holds host tensors the program chose
  /// (`torch::zeros(n, torch::TensorOptions(device))` with a device the
  /// program gives only the CPU), as some file's analysis found.
  bool isHostChosenField(llvm::StringRef Usr) const { return HostChosenFields.count(Usr); }
  /// True if every call of the program hands device parameter `Index` of
  /// function `Usr` the CPU alone, itself or through a caller's parameter
  /// that every call hands it (`Storage(n, torch::kCPU)`): a device the
  /// program keeps on the host by choice.
  bool isCpuOnlyParameter(llvm::StringRef Usr, unsigned Index) const {
    return hasIndex(CpuParameters, Usr, Index);
  }
  /// True if every value the program gives device member `Usr` is the CPU
  /// alone, or such a parameter (`device_(device)` in a constructor every
  /// construction hands `torch::kCPU`).
  bool isCpuOnlyMember(llvm::StringRef Usr) const { return CpuMembers.count(Usr); }
  /// What function `Usr` needs of its tensors and returns (PlacementFlow.h), if known.
  const PlacementSummary *placementOf(llvm::StringRef Usr) const {
    auto Found = Placements.find(Usr);
    return Found == Placements.end() ? nullptr : &Found->second;
  }
  /// How many functions the program defines (for the run's summary line).
  size_t definedCount() const { return Defined.size(); }

private:
  static bool hasIndex(const llvm::StringMap<std::vector<unsigned>> &Map, llvm::StringRef Usr,
                       unsigned Index);

  llvm::StringSet<> Defined, FreeFunctions, PerSample, HostBuilt, Constructed;
  llvm::StringSet<> HostWrittenFields, FactoryBuiltFields, OtherwiseSetFields, CpuMembers,
      HostChosenFields;
  llvm::StringMap<std::vector<unsigned>> ModuleInitializers, HostDataParameters, CpuParameters;
  llvm::StringMap<std::vector<std::string>> MemberInitializers;
  llvm::StringMap<PlacementSummary> Placements;
};

} // namespace to_device_migrate
