#include "facts/ProgramSummary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "compat/LlvmCompat.h"

#include <set>

using namespace clang;
namespace json = llvm::json;

namespace to_device_migrate {

std::string usrOf(const Decl *D) {
  if (!D)
    return "";
  // An instantiation is its pattern: one function for every instantiation.
  if (const auto *F = dyn_cast<FunctionDecl>(D))
    if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
      D = Pattern;
  if (const auto *Class = dyn_cast<CXXRecordDecl>(D))
    if (const CXXRecordDecl *Pattern = Class->getTemplateInstantiationPattern())
      D = Pattern;
  llvm::SmallString<128> Usr;
  if (!compat::generateUsr(D->getCanonicalDecl(), Usr))
    return "";
  return Usr.str().str();
}

namespace {

const char *kindName(FunctionUse::UserKind Kind) {
  switch (Kind) {
  case FunctionUse::UserKind::Function:
    return "function";
  case FunctionUse::UserKind::PerSample:
    return "per-sample";
  case FunctionUse::UserKind::Other:
    break;
  }
  return "other";
}

json::Array strings(const std::vector<std::string> &Values) {
  return json::Array(Values);
}

template <typename T> json::Object listMap(const std::map<std::string, std::vector<T>> &Map) {
  json::Object Out;
  for (const auto &[Usr, Values] : Map)
    Out[Usr] = json::Array(Values);
  return Out;
}

bool readStrings(const json::Object &Object, llvm::StringRef Key, std::vector<std::string> &Out) {
  const json::Array *Values = Object.getArray(Key);
  if (!Values)
    return false;
  for (const json::Value &Value : *Values) {
    std::optional<llvm::StringRef> Text = Value.getAsString();
    if (!Text)
      return false;
    Out.push_back(Text->str());
  }
  return true;
}

bool readValue(const json::Value &Value, unsigned &Out) {
  std::optional<int64_t> N = Value.getAsInteger();
  if (!N || *N < 0)
    return false;
  Out = static_cast<unsigned>(*N);
  return true;
}

bool readValue(const json::Value &Value, std::string &Out) {
  std::optional<llvm::StringRef> Text = Value.getAsString();
  if (!Text)
    return false;
  Out = Text->str();
  return true;
}

template <typename T>
bool readListMap(const json::Object &Object, llvm::StringRef Key,
                 std::map<std::string, std::vector<T>> &Out) {
  const json::Object *Map = Object.getObject(Key);
  if (!Map)
    return false;
  for (const auto &[Usr, Value] : *Map) {
    const json::Array *Values = Value.getAsArray();
    if (!Values)
      return false;
    for (const json::Value &Entry : *Values) {
      T Read;
      if (!readValue(Entry, Read))
        return false;
      Out[Usr.str()].push_back(std::move(Read));
    }
  }
  return true;
}

/// The parameters every call of the program hands host data, and that are
/// only inputs of their functions (ProgramSummary::receivesHostData()).
/// A header migrated with several files is summarised by each of their
/// parses: its calls are counted once per parse, which changes no "every".
llvm::StringMap<std::vector<unsigned>> hostDataParameters(llvm::ArrayRef<TranslationUnitSummary> Units) {
  std::set<std::pair<std::string, unsigned>> Inputs, HostData, Other;
  for (const TranslationUnitSummary &Unit : Units) {
    for (const auto &[Usr, Indices] : Unit.InputParameters)
      for (unsigned Index : Indices)
        Inputs.insert({Usr, Index});
    for (const TensorArgument &Argument : Unit.TensorArguments)
      (Argument.HostData ? HostData : Other).insert({Argument.Callee, Argument.Index});
  }
  llvm::StringMap<std::vector<unsigned>> Parameters;
  for (const auto &Parameter : HostData)
    if (Inputs.count(Parameter) && !Other.count(Parameter))
      Parameters[Parameter.first].push_back(Parameter.second);
  return Parameters;
}

using DeviceSlot = std::pair<std::string, unsigned>; ///< a function's USR, a parameter's index

/// `Value` is the CPU alone, itself or through a parameter in `CpuParameters`.
bool isCpuOnly(const DeviceArgument &Value, const std::set<DeviceSlot> &CpuParameters) {
  return Value.What == DeviceArgument::Cpu ||
         (Value.What == DeviceArgument::Forwarded &&
          CpuParameters.count({Value.From, Value.FromIndex}));
}

/// The device parameters every call of the program hands the CPU alone
/// (ProgramSummary::isCpuOnlyParameter()): to a fixed point, from those
/// handed `torch::kCPU` to those handed such a parameter. A parameter in a
/// cycle of forwards with no CPU at its start is not one. A header migrated
/// with several files is summarised by each of their parses: its calls are
/// counted once per parse, which changes no "every".
std::set<DeviceSlot> cpuParameters(llvm::ArrayRef<TranslationUnitSummary> Units) {
  std::map<DeviceSlot, std::vector<const DeviceArgument *>> ArgumentsOf;
  for (const TranslationUnitSummary &Unit : Units)
    for (const DeviceArgument &Argument : Unit.DeviceArguments)
      ArgumentsOf[{Argument.Callee, Argument.Index}].push_back(&Argument);
  std::set<DeviceSlot> Cpu;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const auto &[Param, Arguments] : ArgumentsOf)
      if (!Cpu.count(Param) && llvm::all_of(Arguments, [&](const DeviceArgument *Argument) {
            return isCpuOnly(*Argument, Cpu);
          })) {
        Cpu.insert(Param);
        Changed = true;
      }
  }
  return Cpu;
}

/// The members (`Callee`s of the units' `Values`) every value of which,
/// in any unit, `IsCpu` says is the CPU alone.
llvm::StringSet<> everyValueCpu(llvm::ArrayRef<TranslationUnitSummary> Units,
                                std::vector<DeviceArgument> TranslationUnitSummary::*Values,
                                llvm::function_ref<bool(const DeviceArgument &)> IsCpu) {
  llvm::StringMap<bool> AllCpu;
  for (const TranslationUnitSummary &Unit : Units)
    for (const DeviceArgument &Value : Unit.*Values) {
      auto [Entry, New] = AllCpu.try_emplace(Value.Callee, true);
      Entry->second = Entry->second && IsCpu(Value);
    }
  llvm::StringSet<> Members;
  for (const auto &Entry : AllCpu)
    if (Entry.getValue())
      Members.insert(Entry.getKey());
  return Members;
}

const char *deviceArgumentName(DeviceArgument::Kind Kind) {
  return Kind == DeviceArgument::Cpu         ? "cpu"
         : Kind == DeviceArgument::Forwarded ? "forwarded"
         : Kind == DeviceArgument::Member    ? "member"
                                             : "other";
}

/// Devices handed to parameters (`Into` "callee", with their index) or
/// given to members (`Into` "member"), as JSON (read by readDeviceValues()).
json::Array deviceValues(const std::vector<DeviceArgument> &Values, llvm::StringRef Into) {
  json::Array Out;
  for (const DeviceArgument &Value : Values) {
    json::Object Entry{{Into, Value.Callee},
                       {"what", deviceArgumentName(Value.What)},
                       {"from", Value.From},
                       {"from-index", Value.FromIndex}};
    if (Into != "member")
      Entry["index"] = Value.Index;
    Out.push_back(std::move(Entry));
  }
  return Out;
}

/// Reads `Key`'s list of DeviceArgument, each naming its parameter's
/// function (and index) or its member by `Into`.
bool readDeviceValues(const json::Object &Object, llvm::StringRef Key, llvm::StringRef Into,
                      std::vector<DeviceArgument> &Out) {
  const json::Array *Values = Object.getArray(Key);
  if (!Values)
    return false;
  for (const json::Value &Entry : *Values) {
    const json::Object *Value = Entry.getAsObject();
    if (!Value)
      return false;
    std::optional<llvm::StringRef> Callee = Value->getString(Into), What = Value->getString("what"),
                                   From = Value->getString("from");
    std::optional<int64_t> Index =
        Into == "member" ? std::optional<int64_t>(0) : Value->getInteger("index");
    std::optional<int64_t> FromIndex = Value->getInteger("from-index");
    if (!Callee || !Index || *Index < 0 || !What || !From || !FromIndex || *FromIndex < 0)
      return false;
    const DeviceArgument::Kind Kind = *What == "cpu"         ? DeviceArgument::Cpu
                                      : *What == "forwarded" ? DeviceArgument::Forwarded
                                      : *What == "member"    ? DeviceArgument::Member
                                                             : DeviceArgument::Other;
    Out.push_back({Callee->str(), static_cast<unsigned>(*Index), Kind, From->str(),
                   static_cast<unsigned>(*FromIndex)});
  }
  return true;
}

} // namespace

json::Value TranslationUnitSummary::toJSON() const {
  json::Array UseList;
  for (const FunctionUse &Use : Uses)
    UseList.push_back(json::Object{{"callee", Use.Callee}, {"kind", kindName(Use.Kind)}, {"user", Use.User}});
  json::Array Arguments;
  for (const TensorArgument &Argument : TensorArguments)
    Arguments.push_back(json::Object{
        {"callee", Argument.Callee}, {"index", Argument.Index}, {"host-data", Argument.HostData}});
  json::Object Placements;
  for (const auto &[Usr, Summary] : this->Placements)
    Placements[Usr] = Summary.toJSON();
  return json::Object{{"defined", strings(Defined)},
                      {"free-functions", strings(FreeFunctions)},
                      {"uses", std::move(UseList)},
                      {"host-built-returns", strings(HostBuiltReturns)},
                      {"constructed-classes", strings(ConstructedClasses)},
                      {"module-initializers", listMap(ModuleInitializers)},
                      {"member-initializers", listMap(MemberInitializers)},
                      {"host-written-fields", strings(HostWrittenFields)},
                      {"factory-built-fields", strings(FactoryBuiltFields)},
                      {"otherwise-set-fields", strings(OtherwiseSetFields)},
                      {"host-chosen-fields", strings(HostChosenFields)},
                      {"tensor-arguments", std::move(Arguments)},
                      {"device-arguments", deviceValues(DeviceArguments, "callee")},
                      {"device-member-values", deviceValues(DeviceMemberValues, "member")},
                      {"field-devices", deviceValues(FieldDevices, "member")},
                      {"input-parameters", listMap(InputParameters)},
                      {"placements", std::move(Placements)}};
}

std::optional<TranslationUnitSummary> TranslationUnitSummary::fromJSON(const json::Value &Value) {
  const json::Object *Object = Value.getAsObject();
  TranslationUnitSummary Summary;
  if (!Object || !readStrings(*Object, "defined", Summary.Defined) ||
      !readStrings(*Object, "free-functions", Summary.FreeFunctions) ||
      !readStrings(*Object, "host-built-returns", Summary.HostBuiltReturns) ||
      !readStrings(*Object, "constructed-classes", Summary.ConstructedClasses) ||
      !readListMap(*Object, "module-initializers", Summary.ModuleInitializers) ||
      !readListMap(*Object, "member-initializers", Summary.MemberInitializers) ||
      !readStrings(*Object, "host-written-fields", Summary.HostWrittenFields) ||
      !readStrings(*Object, "factory-built-fields", Summary.FactoryBuiltFields) ||
      !readStrings(*Object, "otherwise-set-fields", Summary.OtherwiseSetFields) ||
      !readStrings(*Object, "host-chosen-fields", Summary.HostChosenFields) ||
      !readListMap(*Object, "input-parameters", Summary.InputParameters))
    return std::nullopt;
  const json::Object *Placements = Object->getObject("placements");
  if (!Placements)
    return std::nullopt;
  for (const auto &[Usr, Entry] : *Placements) {
    std::optional<PlacementSummary> Placement = PlacementSummary::fromJSON(Entry);
    if (!Placement)
      return std::nullopt;
    Summary.Placements[Usr.str()] = std::move(*Placement);
  }
  const json::Array *Arguments = Object->getArray("tensor-arguments");
  if (!Arguments)
    return std::nullopt;
  for (const json::Value &Entry : *Arguments) {
    const json::Object *Argument = Entry.getAsObject();
    std::optional<llvm::StringRef> Callee = Argument ? Argument->getString("callee") : std::nullopt;
    std::optional<int64_t> Index = Argument ? Argument->getInteger("index") : std::nullopt;
    std::optional<bool> HostData = Argument ? Argument->getBoolean("host-data") : std::nullopt;
    if (!Callee || !Index || *Index < 0 || !HostData)
      return std::nullopt;
    Summary.TensorArguments.push_back({Callee->str(), static_cast<unsigned>(*Index), *HostData});
  }
  if (!readDeviceValues(*Object, "device-arguments", "callee", Summary.DeviceArguments) ||
      !readDeviceValues(*Object, "device-member-values", "member", Summary.DeviceMemberValues) ||
      !readDeviceValues(*Object, "field-devices", "member", Summary.FieldDevices))
    return std::nullopt;
  const json::Array *Uses = Object->getArray("uses");
  if (!Uses)
    return std::nullopt;
  for (const json::Value &Entry : *Uses) {
    const json::Object *Use = Entry.getAsObject();
    std::optional<llvm::StringRef> Callee = Use ? Use->getString("callee") : std::nullopt;
    std::optional<llvm::StringRef> Kind = Use ? Use->getString("kind") : std::nullopt;
    std::optional<llvm::StringRef> User = Use ? Use->getString("user") : std::nullopt;
    if (!Callee || !Kind || !User)
      return std::nullopt;
    FunctionUse::UserKind K = *Kind == "function"     ? FunctionUse::UserKind::Function
                              : *Kind == "per-sample" ? FunctionUse::UserKind::PerSample
                                                      : FunctionUse::UserKind::Other;
    Summary.Uses.push_back({Callee->str(), K, User->str()});
  }
  return Summary;
}

ProgramSummary ProgramSummary::merge(llvm::ArrayRef<TranslationUnitSummary> Units) {
  ProgramSummary Program;
  llvm::StringMap<std::vector<const FunctionUse *>> UsesOf;
  for (const TranslationUnitSummary &Unit : Units) {
    Program.Defined.insert(Unit.Defined.begin(), Unit.Defined.end());
    Program.FreeFunctions.insert(Unit.FreeFunctions.begin(), Unit.FreeFunctions.end());
    Program.HostBuilt.insert(Unit.HostBuiltReturns.begin(), Unit.HostBuiltReturns.end());
    Program.Constructed.insert(Unit.ConstructedClasses.begin(), Unit.ConstructedClasses.end());
    for (const auto &[Usr, Indices] : Unit.ModuleInitializers)
      llvm::append_range(Program.ModuleInitializers[Usr], Indices);
    for (const auto &[Usr, Members] : Unit.MemberInitializers)
      llvm::append_range(Program.MemberInitializers[Usr], Members);
    Program.HostWrittenFields.insert(Unit.HostWrittenFields.begin(), Unit.HostWrittenFields.end());
    Program.FactoryBuiltFields.insert(Unit.FactoryBuiltFields.begin(), Unit.FactoryBuiltFields.end());
    Program.OtherwiseSetFields.insert(Unit.OtherwiseSetFields.begin(), Unit.OtherwiseSetFields.end());
    Program.HostChosenFields.insert(Unit.HostChosenFields.begin(), Unit.HostChosenFields.end());
    for (const FunctionUse &Use : Unit.Uses)
      UsesOf[Use.Callee].push_back(&Use);
    // A header's function is summarised by each parse that includes it: the
    // same body, the same summary; the first is kept.
    for (const auto &[Usr, Placement] : Unit.Placements)
      Program.Placements.try_emplace(Usr, Placement);
  }
  Program.HostDataParameters = hostDataParameters(Units);
  const std::set<DeviceSlot> CpuParameters = cpuParameters(Units);
  for (const auto &[Usr, Index] : CpuParameters)
    Program.CpuParameters[Usr].push_back(Index);
  // The device members the program gives nothing but the CPU.
  Program.CpuMembers = everyValueCpu(Units, &TranslationUnitSummary::DeviceMemberValues,
                                     [&](const DeviceArgument &Value) {
                                       return isCpuOnly(Value, CpuParameters);
                                     });
  // Tensor members filled on a device the program gives only the CPU: host
  // tensors by its choice, as those a file's own analysis could decide.
  for (const auto &Field : everyValueCpu(Units, &TranslationUnitSummary::FieldDevices,
                                         [&](const DeviceArgument &Value) {
                                           return Value.What == DeviceArgument::Member
                                                      ? Program.CpuMembers.count(Value.From) > 0
                                                      : isCpuOnly(Value, CpuParameters);
                                         }))
    Program.HostChosenFields.insert(Field.getKey());
  // What a function returns through a device member (`items_[i]`, filled
  // with `.to(device_)`) is where the whole program says that member is.
  for (auto &Entry : Program.Placements) {
    ReturnSummary &Returns = Entry.getValue().Returns;
    if (Returns.What == ReturnSummary::ThroughMember)
      Returns = {Program.CpuMembers.count(Returns.Member) ? ReturnSummary::HostBuilt
                                                          : ReturnSummary::Device};
  }
  // A header migrated with several files is summarised by each of their
  // parses: its uses are counted once per parse, which changes no "all".
  // A use in a free function nothing names (an overload the program never
  // calls) does not count either, beside per-sample ones: a helper is
  // per-sample when it has a use elsewhere and those are all per-sample.
  auto NeverRuns = [&](const FunctionUse *Use) {
    return Use->Kind == FunctionUse::UserKind::Function &&
           Program.FreeFunctions.count(Use->User) && !UsesOf.count(Use->User);
  };
  auto IsPerSampleUse = [&](const FunctionUse *Use) {
    return Use->Kind == FunctionUse::UserKind::PerSample ||
           (Use->Kind == FunctionUse::UserKind::Function && Program.PerSample.count(Use->User));
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const auto &Entry : UsesOf) {
      llvm::StringRef Callee = Entry.getKey();
      if (!Program.Defined.count(Callee) || Program.PerSample.count(Callee))
        continue;
      auto Counted = llvm::make_filter_range(
          Entry.getValue(), [&](const FunctionUse *Use) { return !NeverRuns(Use); });
      if (!Counted.empty() && llvm::all_of(Counted, IsPerSampleUse)) {
        Program.PerSample.insert(Callee);
        Changed = true;
      }
    }
  }
  return Program;
}

bool ProgramSummary::hasIndex(const llvm::StringMap<std::vector<unsigned>> &Map, llvm::StringRef Usr,
                              unsigned Index) {
  auto Found = Map.find(Usr);
  return Found != Map.end() && llvm::is_contained(Found->second, Index);
}

} // namespace to_device_migrate
