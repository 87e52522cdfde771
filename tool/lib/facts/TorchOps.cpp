#include "facts/TorchOps.h"
#include "facts/TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringMap.h"


using namespace clang;

namespace to_device_migrate {
namespace {

/// The table: LibTorch's functions (torch:: and at::) and tensor methods by
/// name. A name in neither list is Compute when it gives tensors (a tensor,
/// or a vector or tuple of them: `meshgrid`, `chunk`, `sort`), Query when a
/// method gives anything else; a method ending in `_` is Accumulate.
struct Row {
  llvm::StringLiteral Name;
  TensorEffect Effect;
};

constexpr Row Functions[] = {
    // Factories: placed by their options.
    {"randn", TensorEffect::Create},
    {"rand", TensorEffect::Create},
    {"randint", TensorEffect::Create},
    {"randperm", TensorEffect::Create},
    {"zeros", TensorEffect::Create},
    {"ones", TensorEffect::Create},
    {"empty", TensorEffect::Create},
    {"empty_strided", TensorEffect::Create},
    {"full", TensorEffect::Create},
    {"arange", TensorEffect::Create},
    {"range", TensorEffect::Create},
    {"linspace", TensorEffect::Create},
    {"logspace", TensorEffect::Create},
    {"eye", TensorEffect::Create},
    {"tensor", TensorEffect::CreateFromValues},
    {"scalar_tensor", TensorEffect::Create},
    {"tril_indices", TensorEffect::Create},
    {"triu_indices", TensorEffect::Create},
    {"hann_window", TensorEffect::Create},
    {"hamming_window", TensorEffect::Create},
    {"bartlett_window", TensorEffect::Create},
    {"blackman_window", TensorEffect::Create},
    {"kaiser_window", TensorEffect::Create},
    {"normal", TensorEffect::Create}, // of tensors: effectOf(CallExpr) says Compute
    // Where an operand is.
    {"zeros_like", TensorEffect::CreateLike},
    {"ones_like", TensorEffect::CreateLike},
    {"empty_like", TensorEffect::CreateLike},
    {"full_like", TensorEffect::CreateLike},
    {"rand_like", TensorEffect::CreateLike},
    {"randn_like", TensorEffect::CreateLike},
    {"randint_like", TensorEffect::CreateLike},
    // Host memory.
    {"from_blob", TensorEffect::HostMemory},
    // Some of the first argument's elements.
    {"index_select", TensorEffect::Select},
    {"gather", TensorEffect::Select},
    {"take", TensorEffect::Select},
    {"take_along_dim", TensorEffect::Select},
    {"masked_select", TensorEffect::Select},
    // Lists of tensors joined.
    {"stack", TensorEffect::Join},
    {"cat", TensorEffect::Join},
    {"concat", TensorEffect::Join},
    {"concatenate", TensorEffect::Join},
    {"vstack", TensorEffect::Join},
    {"hstack", TensorEffect::Join},
    {"dstack", TensorEffect::Join},
    {"column_stack", TensorEffect::Join},
};

constexpr Row Methods[] = {
    // Views: the result shares the object's memory (or may: `reshape`,
    // `contiguous` and `flatten` copy only when they must).
    {"select", TensorEffect::View},
    {"narrow", TensorEffect::View},
    {"slice", TensorEffect::View},
    {"index", TensorEffect::View},
    {"view", TensorEffect::View},
    {"view_as", TensorEffect::View},
    {"reshape", TensorEffect::View},
    {"reshape_as", TensorEffect::View},
    {"squeeze", TensorEffect::View},
    {"unsqueeze", TensorEffect::View},
    {"flatten", TensorEffect::View},
    {"unflatten", TensorEffect::View},
    {"transpose", TensorEffect::View},
    {"swapaxes", TensorEffect::View},
    {"swapdims", TensorEffect::View},
    {"permute", TensorEffect::View},
    {"movedim", TensorEffect::View},
    {"t", TensorEffect::View},
    {"expand", TensorEffect::View},
    {"expand_as", TensorEffect::View},
    {"as_strided", TensorEffect::View},
    {"diagonal", TensorEffect::View},
    {"unfold", TensorEffect::View},
    {"real", TensorEffect::View},
    {"imag", TensorEffect::View},
    {"alias", TensorEffect::View},
    {"detach", TensorEffect::View},
    {"contiguous", TensorEffect::View},
    {"chunk", TensorEffect::View},
    {"unbind", TensorEffect::View},
    {"split", TensorEffect::View},
    // Some of the object's elements, chosen by index operands.
    {"index_select", TensorEffect::Select},
    {"gather", TensorEffect::Select},
    {"take", TensorEffect::Select},
    {"take_along_dim", TensorEffect::Select},
    {"masked_select", TensorEffect::Select},
    // Transfers: a copy elsewhere, or the object itself where it is.
    {"to", TensorEffect::Transfer},
    {"cpu", TensorEffect::Transfer},
    {"cuda", TensorEffect::Transfer},
    {"type_as", TensorEffect::Transfer},
    {"pin_memory", TensorEffect::Transfer},
    // Where the object is.
    {"new_zeros", TensorEffect::CreateLike},
    {"new_ones", TensorEffect::CreateLike},
    {"new_empty", TensorEffect::CreateLike},
    {"new_empty_strided", TensorEffect::CreateLike},
    {"new_full", TensorEffect::CreateLike},
    {"new_tensor", TensorEffect::CreateLike},
    // Element writes with the caller's values (a number, an index, a tensor
    // wherever it is): the object stays where it is.
    {"fill_", TensorEffect::WriteElements},
    {"zero_", TensorEffect::WriteElements},
    {"index_put_", TensorEffect::WriteElements},
    {"index_fill_", TensorEffect::WriteElements},
    {"index_copy_", TensorEffect::WriteElements},
    {"masked_fill_", TensorEffect::WriteElements},
    {"masked_scatter_", TensorEffect::WriteElements},
    {"scatter_", TensorEffect::WriteElements},
    {"put_", TensorEffect::WriteElements},
    {"copy_", TensorEffect::WriteElements},
    // Memory for host code.
    {"data_ptr", TensorEffect::HostAccess},
    {"const_data_ptr", TensorEffect::HostAccess},
    {"mutable_data_ptr", TensorEffect::HostAccess},
    {"accessor", TensorEffect::HostAccess},
    {"packed_accessor", TensorEffect::HostAccess},
    {"packed_accessor32", TensorEffect::HostAccess},
    {"packed_accessor64", TensorEffect::HostAccess},
    {"generic_packed_accessor", TensorEffect::HostAccess},
    // Values for host code, read on any device.
    {"item", TensorEffect::HostValue},
    {"equal", TensorEffect::HostValue},
    {"allclose", TensorEffect::HostValue},
    {"is_nonzero", TensorEffect::HostValue},
};

/// LibTorch modules' static functions, by qualified name: what they make is
/// a new tensor on the CPU, with no options to place it (a transformer's
/// causal mask, which the caller's attention takes on the device).
struct ModuleFunctionRow {
  llvm::StringLiteral QualifiedName;
  TensorEffect Effect;
};
constexpr ModuleFunctionRow ModuleFunctions[] = {
    {"torch::nn::TransformerImpl::generate_square_subsequent_mask", TensorEffect::Create},
};

const llvm::StringMap<TensorEffect> &tableOf(bool Method) {
  static const llvm::StringMap<TensorEffect> FunctionTable = [] {
    llvm::StringMap<TensorEffect> Table;
    for (const Row &R : Functions)
      Table[R.Name] = R.Effect;
    return Table;
  }();
  static const llvm::StringMap<TensorEffect> MethodTable = [] {
    llvm::StringMap<TensorEffect> Table;
    for (const Row &R : Methods)
      Table[R.Name] = R.Effect;
    return Table;
  }();
  return Method ? MethodTable : FunctionTable;
}

/// A tensor, or a vector, tuple or pair of tensors (`std::vector<at::Tensor>`,
/// `std::tuple<at::Tensor, at::Tensor>`): what LibTorch's computations give.
bool givesTensors(QualType Type) {
  if (isTensorType(Type))
    return true;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      !llvm::is_contained({"vector", "tuple", "pair"}, Spec->getName()) ||
      Spec->getTemplateArgs().size() == 0)
    return false;
  const TemplateArgument &First = Spec->getTemplateArgs()[0];
  if (First.getKind() == TemplateArgument::Pack)
    return First.pack_size() && First.pack_begin()->getKind() == TemplateArgument::Type &&
           isTensorType(First.pack_begin()->getAsType());
  return First.getKind() == TemplateArgument::Type && isTensorType(First.getAsType());
}

/// A method of LibTorch's tensors (at::Tensor, at::TensorBase).
bool isTensorMethod(const CXXMethodDecl &Method) {
  return isNamed(Method.getParent(), "at::Tensor") || isNamed(Method.getParent(), "at::TensorBase");
}

} // namespace

TensorEffect effectOf(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return TensorEffect::NotLibTorch;
  const StringRef Name = Callee->getName();
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee); Method && !Method->isStatic()) {
    if (!isTensorMethod(*Method))
      return TensorEffect::NotLibTorch;
    // Tensor::data() is a detached alias; the deprecated data<T>() a pointer.
    if (Name == "data")
      return Method->getReturnType()->isPointerType() ? TensorEffect::HostAccess : TensorEffect::View;
    const auto &Table = tableOf(/*Method=*/true);
    if (auto Found = Table.find(Name); Found != Table.end())
      return Found->second;
    if (!givesTensors(Method->getReturnType()))
      return TensorEffect::Query;
    return compat::endsWith(Name, "_") ? TensorEffect::Accumulate : TensorEffect::Compute;
  }
  if (!isInNamespace(Callee, {"torch", "at"}))
    return TensorEffect::NotLibTorch;
  if (isa<CXXMethodDecl>(Callee))
    for (const ModuleFunctionRow &R : ModuleFunctions)
      if (isNamed(Callee, R.QualifiedName))
        return R.Effect;
  const auto &Table = tableOf(/*Method=*/false);
  if (auto Found = Table.find(Name); Found != Table.end())
    return Found->second;
  return givesTensors(Callee->getReturnType()) ? TensorEffect::Compute : TensorEffect::NotLibTorch;
}

TensorEffect effectOf(const CallExpr &Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    if (!Op->getNumArgs() || !isTensorType(Op->getArg(0)->getType()))
      return TensorEffect::NotLibTorch;
    switch (Op->getOperator()) {
    case OO_Subscript:
      return TensorEffect::View;
    case OO_Equal: {
      // `t[i] = v` (an rvalue's operator=) writes the elements `t[i]` views;
      // `a = b` only names another tensor.
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
      return Method && Method->getRefQualifier() == RQ_RValue ? TensorEffect::WriteElements
                                                                : TensorEffect::NotLibTorch;
    }
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
      return TensorEffect::Accumulate;
    default:
      return isTensorType(Op->getType()) ? TensorEffect::Compute : TensorEffect::NotLibTorch;
    }
  }
  const FunctionDecl *Callee = Call.getDirectCallee();
  const TensorEffect Effect = effectOf(Callee);
  auto AnyTensor = [&] {
    return llvm::any_of(Call.arguments(), [](const Expr *Arg) { return isTensorType(Arg->getType()); });
  };
  // `torch::normal(mean, std)` of tensors computes from them.
  if (Effect == TensorEffect::Create && AnyTensor())
    return TensorEffect::Compute;
  return Effect;
}

bool isPlacedByOptions(TensorEffect Effect) {
  return Effect == TensorEffect::Create || Effect == TensorEffect::CreateFromValues;
}

bool copiesHostData(TensorEffect Effect) {
  return Effect == TensorEffect::HostMemory || Effect == TensorEffect::CreateFromValues;
}

std::vector<std::string> functionsWithEffect(std::initializer_list<TensorEffect> Effects) {
  std::vector<std::string> Names;
  for (const Row &R : Functions)
    if (llvm::is_contained(Effects, R.Effect))
      for (StringRef Namespace : {"::torch::", "::at::"})
        Names.push_back((Namespace + R.Name).str());
  for (const ModuleFunctionRow &R : ModuleFunctions)
    if (llvm::is_contained(Effects, R.Effect))
      Names.push_back(("::" + R.QualifiedName).str());
  return Names;
}

bool copiesFromAnyDevice(const CallExpr &Call) {
  if (effectOf(Call) != TensorEffect::WriteElements)
    return false;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    return Member->getMethodDecl()->getName() == "copy_";
  return isa<CXXOperatorCallExpr>(Call) && Call.getNumArgs() == 2 &&
         isTensorType(Call.getArg(1)->getType());
}

bool isDeviceTransfer(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  if (effectOf(Method) != TensorEffect::Transfer)
    return false;
  const StringRef Name = Method->getName();
  if (Name == "cpu" || Name == "cuda")
    return true;
  return Name == "to" && Call.getNumArgs() && isDeviceExpression(*ignoreConversions(Call.getArg(0)));
}

std::optional<WrittenArguments> hostWrittenArguments(const FunctionDecl &Callee) {
  // The C library's (global), or the C++ library's (in std): not a
  // function of the program's that has one of these names.
  if (!Callee.getIdentifier() ||
      (!isInStandardLibrary(Callee) &&
       !Callee.getASTContext().getSourceManager().isInSystemHeader(Callee.getLocation())))
    return std::nullopt;
  // The algorithms take iterators, deduced: which arguments they write is
  // only in their names (a range's first and last, a destination's first).
  // A parameter declared as a pointer to non-const, `std::istream::read(char
  // *, n)`, says so itself (HostWrites.h).
  static const llvm::StringMap<WrittenArguments> Written = {
      {"memcpy", {0, 1}},       {"memmove", {0, 1}},      {"memset", {0, 1}},
      {"fill", {0, 2}},         {"fill_n", {0, 1}},       {"copy", {2, 3}},
      {"copy_n", {2, 3}},       {"copy_backward", {2, 3}}, {"sort", {0, 2}},
      {"stable_sort", {0, 2}},  {"partial_sort", {0, 3}}, {"nth_element", {0, 3}},
      {"reverse", {0, 2}},      {"iota", {0, 2}},         {"generate", {0, 2}},
      {"generate_n", {0, 1}},   {"shuffle", {0, 2}},      {"replace", {0, 2}},
  };
  auto Found = Written.find(Callee.getName());
  return Found == Written.end() ? std::nullopt : std::optional<WrittenArguments>(Found->second);
}

} // namespace to_device_migrate
