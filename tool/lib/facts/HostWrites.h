// Tensors that host code writes: through data_ptr() (memcpy into it, p[i] = x)
// or an accessor (a[i][j] = x). A device tensor cannot be written that way (a
// .cpu() copy would take the write), so a tensor the program builds and then
// fills from the host — a reinforcement-learning environment's observation, a
// hand-filled lookup table — stays on the CPU where it is built, and moves
// where it is received (ReceivedTensorRule), as per-sample data does.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace to_device_migrate {

/// True if the pointer or accessor `Access` returns (`t.data_ptr<T>()`,
/// `t.accessor<T, N>()`) is written through — directly, through a cast
/// (`(float *)t.data_ptr()`), by memcpy/std::copy/std::fill into it, or
/// through the local variable holding it — or kept where the function cannot
/// follow it (a member, a global, returned).
bool isWriteAccess(clang::ASTContext &Ast, const clang::CXXMemberCallExpr &Access);

/// A tensor member of one of the program's classes (not LibTorch's: an
/// Example's `data` is the data set's).
bool isProgramTensorField(const clang::ValueDecl *D);

/// The tensor `Object` is, or is a view of (`t[0]`, `t.select(0, i)`,
/// `t.narrow(...)`, `t.view(...)`): a variable, or a member of one of the
/// program's classes (`inputs`, `trainer.inputs`). Writing the view writes
/// it. Null if none.
const clang::ValueDecl *viewedTensor(const clang::Expr &Object);
/// The reference to that tensor in `Object` (`t` in `t[0].select(0, 1)`): a
/// DeclRefExpr or a MemberExpr.
const clang::Expr *viewedReference(const clang::Expr &Object);
/// The variable or member `Reference` (a DeclRefExpr or MemberExpr) names.
const clang::ValueDecl *referencedTensor(const clang::Expr &Reference);

/// True if every tensor `E` holds is the host's: a number, a tensor copied
/// from host data or a local holding one; `E` itself, or the elements of its
/// braced lists (the indices of `index_put_({idx}, v)`).
bool holdsOnlyHostValues(const clang::Expr &E);

/// True if the use `Ref` of `Tensor` writes it from host code, as is or
/// through a view of it (isWriteAccess(), `t[i] = v`, `t.fill_(v)`).
bool isHostWrite(clang::ASTContext &Ast, const clang::Expr &Ref, const clang::ValueDecl &Tensor);
/// True if nothing reads the local tensor `Tensor` after `Statement` (which
/// writes its memory from host code) — it is not live there (Liveness.h: a
/// loop's next turn reads it only if it outlives the turn) — and its memory
/// is its own: every value reaching the statement (its initialiser, what is
/// assigned to it; for a parameter taken by value, not the caller's) is made
/// by a call, not a name nor a view of another tensor. A `.cpu()` copy may
/// then take the write: the host code reading through the same pointer sees
/// it, and the tensor itself is never read again (`cv::Mat mask(size, CV_8U,
/// out.data_ptr())` on a model's output).
bool isDeadAfterHostWrite(clang::ASTContext &Ast, const clang::Stmt &Statement,
                          const clang::VarDecl &Tensor);
/// True if host code of `Tensor`'s function writes into it, or into a view of
/// it (isHostWrite()).
bool isWrittenByHostCode(clang::ASTContext &Ast, const clang::VarDecl &Tensor);

/// The outermost view of `Tensor` that `Ref` (a use of it) starts: `t[0]`,
/// `t.select(0, i)[j]`; `Ref` itself when it is used as is.
const clang::Expr &outermostView(clang::ASTContext &Ast, const clang::Expr &Ref,
                                 const clang::ValueDecl &Tensor);
/// The selection that takes `Selected` as what it selects from
/// (`Selected.index_select(0, idx)`, `torch::gather(Selected, 1, idx)`:
/// TensorEffect::Select); null if none.
const clang::CallExpr *selectionOf(clang::ASTContext &Ast, const clang::Expr &Selected);

/// What a function does to a tensor member of one of the program's classes.
/// A member that some function fills from host code, that is only ever given
/// LibTorch factories' tensors and never modified where its operands are
/// (a trainer's staging inputs, an environment's state) is built on the host
/// like a local one (isHostBuiltTensor()); the whole program decides
/// (ProgramSummary::isHostBuiltField()), since its class's functions are
/// spread over files.
enum class FieldWrite {
  Host,         ///< host code writes its elements (isHostWrite())
  FactoryValue, ///< given a LibTorch factory's tensor (`inputs(torch::zeros(..))`)
  OtherValue,   ///< given another value, or modified where its operands are
};
/// Each write into a tensor member of the program's classes that `F` makes:
/// in its body, and in its constructor's member initialisers.
void forEachTensorFieldWrite(clang::ASTContext &Ast, const clang::FunctionDecl &F,
                             llvm::function_ref<void(const clang::FieldDecl &, FieldWrite)> Visit);
/// What giving a member `Value` (an initialiser, an assigned value) is.
FieldWrite valueWrite(const clang::Expr &Value);
/// True if `Value` (a tensor made from host data, or by a factory) is written
/// into a host-built tensor (`matrix[i] = torch::from_blob(row, {d})`,
/// `t.copy_(...)`): it stays on the host with it.
bool feedsHostBuiltTensor(clang::ASTContext &Ast, const clang::Expr &Value);

/// True if `Tensor` gets values computed where its operands are: reassigned
/// (`t = t * 2`), in compound assignment (`t += x`) or in-place arithmetic
/// (`t.add_(x)`) with another tensor, on itself or a view. Element writes
/// from the host (`t[i] = v`, `fill_`, `index_put_`, `copy_`) are not, nor is
/// arithmetic with numbers only (`t *= 0`, `t.mul_(0.5)`), which runs
/// wherever the tensor is.
bool isModifiedOnDevice(clang::ASTContext &Ast, const clang::VarDecl &Tensor);
/// True if the use `Ref` of `Tensor` is such a modification.
bool isDeviceModification(clang::ASTContext &Ast, const clang::Expr &Ref,
                          const clang::ValueDecl &Tensor);

/// True if the use `Use` of a host-built tensor (or of a view of it) needs it
/// on the device: handed to a function, a module, an operator — not read on
/// the host (`item`, `sizes`, `data_ptr`), printed, written, moved already,
/// nor returned (the caller places what it receives).
bool isDeviceUse(clang::ASTContext &Ast, const clang::Expr &Use);

/// What makes the local tensor `Tensor`: its initialiser, or, when it is
/// declared empty (`torch::Tensor z;`), the one value assigned to it; null
/// for a local that is not a tensor.
const clang::Expr *madeBy(clang::ASTContext &Ast, const clang::VarDecl &Tensor);

/// A local tensor the function builds itself (what makes it, madeBy(), is a
/// LibTorch call: a factory, from_blob, clone) and then writes from host code —
/// through data_ptr or an accessor, or element by element (`t[i] = v`,
/// `index_put_`) — and does not otherwise modify: it stays on the CPU, and is
/// moved where device code uses it.
bool isHostBuiltTensor(clang::ASTContext &Ast, const clang::VarDecl &Tensor);

/// The local variable `E` initialises, looking through conversions (`auto t =
/// torch::zeros(...)`, `torch::Tensor t(torch::zeros(...))`); null if none.
const clang::VarDecl *initializedVariable(clang::ASTContext &Ast, const clang::Expr &E);

/// True if `Factory` is the initialiser of a host-built tensor: it stays on the CPU.
bool buildsHostBuiltTensor(clang::ASTContext &Ast, const clang::Expr &Factory);

/// True if `F` returns a host-built tensor (`return state;`, isHostBuiltTensor()).
bool returnsHostBuiltTensor(clang::ASTContext &Ast, const clang::FunctionDecl &F);

/// Rows gathered on the host: a local `std::vector<torch::Tensor>` that is
/// only filled with tensors copied from host data (`torch::tensor(row)`,
/// `torch::from_blob(p, n).clone()`), with the fields of data-set examples
/// (`e.data` of a batch the loader did not stack) or with the rows of a host
/// row builder (isHostRowBuilder()), and then joined (`torch::stack(rows)`,
/// `torch::cat(rows)`). Placing each row would copy once per row; the rows
/// stay on the CPU and the joined batch is moved, one copy, as its authors
/// would write it.
bool isGatheredHostRows(clang::ASTContext &Ast, const clang::VarDecl &Rows);

/// A host row builder: a function of the program that makes a tensor from
/// host values only (`torch::Tensor encode(const Board *b)`: from_blob over
/// the board, small factories, LibTorch's operators), taking and reaching no
/// tensor or module of anyone else's. Its rows gathered and joined
/// (`rows.push_back(encode(b))`, `torch::stack(rows)`) are built on the host
/// and the joined batch is moved once; the function is then per-sample code
/// (PerSampleCode) when every call of the program gathers it.
bool isHostRowBuilder(const clang::FunctionDecl &F);

/// The gathered host rows (isGatheredHostRows()) that the call `Row`'s
/// tensor is appended to (`rows.emplace_back(std::move(encode(b)))`), or null.
const clang::VarDecl *rowsGathering(clang::ASTContext &Ast, const clang::CallExpr &Row);

/// True if `Field` (`e.data` of an example of an unstacked batch) is appended
/// as is, or reshaped on the host, to gathered host rows: the stacked batch
/// is moved, once, not each example.
bool isGatheredField(clang::ASTContext &Ast, const clang::Expr &Field);

/// The gathered host rows (isGatheredHostRows()) `Factory`'s tensor is
/// appended to, or null.
const clang::VarDecl *gatheredInto(clang::ASTContext &Ast, const clang::Expr &Factory);

/// A local tensor initialised with a copy of host data (`torch::from_blob(p,
/// n).clone()`, `torch::tensor(values)`, reshaped on the host).
bool holdsHostData(const clang::VarDecl &Var);

/// Host data handed to the program's own functions: a tensor the caller
/// copies from host data (`torch::from_blob(v.data(), {4}).clone()`, a local
/// holding one) that every caller hands to the same parameter of a function
/// the program defines stays on the CPU until that function's code needs it
/// on the device, where it is moved (`if (explore) return random(); ...
/// net->forward(state.to(device))`): the calls that do not need it copy
/// nothing. The whole program decides (ProgramSummary::receivesHostData()).
///
/// True if the argument `Arg` is host data (isHostDataCopy(), or a local that
/// holds one).
bool isHostDataArgument(const clang::Expr &Arg);
/// True if `Param`, a tensor taken by value or by const reference, is only an
/// input of its function: never given a new value, nor returned, nor taken by
/// device code in a loop (a move at that use would be made at every turn).
bool isInputParameter(clang::ASTContext &Ast, const clang::ParmVarDecl &Param);
/// The parameter of a function `Arg` is handed to, as `Call`'s argument.
struct HandedTo {
  const clang::FunctionDecl *Callee = nullptr;
  unsigned Index = 0;
};
/// Where the argument `Arg` goes, if it is one of a call of a function that
/// takes a tensor there (not an operator's).
std::optional<HandedTo> handedTo(clang::ASTContext &Ast, const clang::Expr &Arg);
/// True if the host-data copy `Copy` (or the local it initialises) is used by
/// device code only as an argument the callee receives as host data
/// (`ReceivesHostData`): it is not moved where it is made.
bool isOnlyHandedAsHostData(clang::ASTContext &Ast, const clang::Expr &Copy,
                            llvm::function_ref<bool(const HandedTo &)> ReceivesHostData);

/// The first ancestor of `E` that is not an implicit wrapper (a cast, a
/// temporary, a conversion of a vector to a TensorList): what uses its value.
const clang::Stmt *userOf(clang::ASTContext &Ast, const clang::Expr &E);

/// The member call `Object` is the object of (`ref.data_ptr()`,
/// `torch::from_blob(p, n).clone()`), through implicit casts, temporaries
/// and parentheses; null if none.
const clang::CXXMemberCallExpr *methodCalledOn(clang::ASTContext &Ast, const clang::Expr &Object);

/// `f().size(0)`, `f().item<float>()`: the tensor `Call` gives is asked a
/// host question, not used for device computation.
bool isQueriedOnHost(clang::ASTContext &Ast, const clang::Expr &Call);

} // namespace to_device_migrate
