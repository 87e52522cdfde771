#include "facts/HostWrites.h"
#include "facts/Liveness.h"
#include "facts/Repetition.h"
#include "facts/TorchOps.h"
#include "facts/TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <functional>

using namespace clang;

namespace to_device_migrate {
namespace {

/// Is `Arg` what a function of the C or C++ standard library writes
/// through (TorchOps.h, hostWrittenArguments(): memcpy's destination, the
/// range std::sort sorts)?
bool isCalledWithDestination(const CallExpr &Call, const Expr &Arg) {
  const FunctionDecl *F = Call.getDirectCallee();
  std::optional<WrittenArguments> Written = F ? hostWrittenArguments(*F) : std::nullopt;
  for (unsigned I = Written ? Written->First : 0;
       Written && I < Written->End && I < Call.getNumArgs(); ++I)
    if (Call.getArg(I)->IgnoreParenImpCasts() == Arg.IgnoreParenImpCasts())
      return true;
  return false;
}

/// Is `Arg` handed to a function as a pointer to non-const (a user's
/// `fillObservation(float *out)`, `fread(p, ...)`, `cv::Mat(h, w, CV_32F,
/// p)`, `std::istream::read(char *, n)`)? That function may write through
/// it, or keep it to write later. The standard library's algorithms and
/// containers take iterators (`InputIt`) that are non-const pointers only
/// once deduced, and read them: there a parameter counts as a pointer when
/// its declaration, before deduction, is one.
bool isHandedAsMutablePointer(const Expr &Call, const Expr &Arg) {
  const FunctionDecl *Callee = nullptr;
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Plain = dyn_cast<CallExpr>(&Call);
      Plain && !isa<CXXOperatorCallExpr>(Plain)) {
    Callee = Plain->getDirectCallee();
    Args = llvm::ArrayRef(Plain->getArgs(), Plain->getNumArgs());
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(&Call)) {
    Callee = Construct->getConstructor();
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  }
  if (!Callee)
    return false;
  const FunctionDecl *Declared = Callee;
  if (isInStandardLibrary(*Callee))
    if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern())
      Declared = Pattern;
  for (unsigned I = 0; I < Args.size() && I < Declared->getNumParams(); ++I) {
    if (Args[I]->IgnoreParenImpCasts() != Arg.IgnoreParenImpCasts())
      continue;
    QualType Parameter = Declared->getParamDecl(I)->getType().getNonReferenceType();
    return Parameter->isPointerType() && !Parameter->getPointeeType().isConstQualified();
  }
  return false;
}

/// Is `E` (a pointer or accessor, or an element reached through it) written?
bool isWrittenThrough(ASTContext &Ctx, const Expr &E, int Depth = 0) {
  if (Depth > 12)
    return false;
  DynTypedNodeList Parents = Ctx.getParents(E);
  if (Parents.empty())
    return false;
  if (const auto *Op = Parents[0].get<BinaryOperator>())
    return Op->isAssignmentOp() ? Op->getLHS()->IgnoreParenImpCasts() == E.IgnoreParenImpCasts()
           : Op->isAdditiveOp() ? isWrittenThrough(Ctx, *Op, Depth + 1) // p + i
                                : false;
  if (const auto *Op = Parents[0].get<UnaryOperator>())
    return Op->isIncrementDecrementOp() || (Op->getOpcode() == UO_Deref && isWrittenThrough(Ctx, *Op, Depth + 1));
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>()) {
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus || Op->getOperator() == OO_MinusMinus)
      return Op->getArg(0)->IgnoreParenImpCasts() == E.IgnoreParenImpCasts();
    if (Op->getOperator() == OO_Subscript) // accessor[i][j]
      return isWrittenThrough(Ctx, *Op, Depth + 1);
    return false;
  }
  if (const auto *Subscript = Parents[0].get<ArraySubscriptExpr>())
    return isWrittenThrough(Ctx, *Subscript, Depth + 1);
  if (const auto *Call = Parents[0].get<CallExpr>())
    return isCalledWithDestination(*Call, E) || isHandedAsMutablePointer(*Call, E);
  if (const auto *Construct = Parents[0].get<CXXConstructExpr>())
    return isHandedAsMutablePointer(*Construct, E);
  // Wrappers: casts, written (`(float *)t.data_ptr()`, `static_cast<float *>`)
  // or implicit, parentheses, temporaries (`acc[i]` of an accessor is a
  // temporary that the next `[j]` is called on).
  if (const auto *Wrapper = Parents[0].get<Expr>();
      Wrapper && (isa<CastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                      ExprWithCleanups>(Wrapper)))
    return isWrittenThrough(Ctx, *Wrapper, Depth + 1);
  return false;
}

/// The outermost expression that is `E` cast or parenthesised
/// (`(float *)t.data_ptr()`).
const Expr &castOf(ASTContext &Ctx, const Expr &E) {
  const Expr *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Current);
    const auto *Parent = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Parent || !isa<CastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                        ExprWithCleanups>(Parent))
      return *Current;
    Current = Parent;
  }
}

/// True if the pointer `Access` gives (`t.data_ptr<float>()`) is kept where
/// the function cannot follow it: stored into a member or a global, or
/// returned. Whatever writes through it later writes the tensor.
bool escapes(ASTContext &Ctx, const Expr &Access) {
  const Expr &Whole = castOf(Ctx, Access);
  DynTypedNodeList Parents = Ctx.getParents(Whole);
  if (Parents.empty())
    return false;
  // Returned, or kept in a member by a constructor's initialiser list
  // (`acc(t.accessor<float, 3>())`) or an in-class initialiser.
  if (Parents[0].get<ReturnStmt>() || Parents[0].get<CXXConstructorDecl>() ||
      Parents[0].get<FieldDecl>())
    return true;
  const auto *Assign = Parents[0].get<BinaryOperator>();
  if (!Assign || Assign->getOpcode() != BO_Assign || Assign->getRHS()->IgnoreParens() != &Whole)
    return false;
  const Expr *Target = Assign->getLHS()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Target))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return !Var->hasLocalStorage();
  return isa<MemberExpr>(Target);
}

/// Finds a use of `Var` in a body that satisfies `Test`. One visitor for
/// every test (a function_ref, not a template parameter): each instantiation of
/// RecursiveASTVisitor is thousands of functions, and one per lambda made this
/// file take minutes to compile.
class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  UseFinder(const VarDecl &Var, llvm::function_ref<bool(const DeclRefExpr &)> Test)
      : Var(Var), Test(Test) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == &Var && Test(*Ref))
      Found = true;
    return !Found;
  }
  bool Found = false;

private:
  const VarDecl &Var;
  llvm::function_ref<bool(const DeclRefExpr &)> Test;
};

bool anyUseIn(const Stmt *Body, const VarDecl &Var,
              llvm::function_ref<bool(const DeclRefExpr &)> Test) {
  UseFinder Finder(Var, Test);
  if (Body)
    Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return Finder.Found;
}

const Stmt *bodyOf(const VarDecl &Var) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  return Function ? Function->getBody() : nullptr;
}

} // namespace

/// The first ancestor of `E` that is not an implicit wrapper (a cast, a
/// temporary, a conversion of a vector to a TensorList).
const Stmt *userOf(ASTContext &Ast, const Expr &E) {
  const Expr *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    if (Parents.empty())
      return nullptr;
    const auto *Parent = Parents[0].get<Expr>();
    if (!Parent ||
        !(isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr,
              CXXFunctionalCastExpr>(Parent) ||
          (isa<CXXConstructExpr>(Parent) && cast<CXXConstructExpr>(Parent)->getNumArgs() == 1)))
      return Parents[0].get<Stmt>();
    Current = Parent;
  }
}

namespace {

/// The parents of the outermost expression that is `E` converted (in
/// implicit casts, temporaries, copies: `ignoreConversions()`), and that
/// expression: what `E` initialises or is assigned to is among them.
std::pair<DynTypedNodeList, const Expr *> parentsPastConversions(ASTContext &Ast, const Expr &E) {
  const Expr *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    const auto *Wrapper = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Wrapper || ignoreConversions(Wrapper) != ignoreConversions(&E))
      return {Parents, Current};
    Current = Wrapper;
  }
}

bool isNamedCall(const FunctionDecl *F, std::initializer_list<StringRef> Names) {
  return F && F->getIdentifier() && llvm::is_contained(Names, F->getName());
}

/// `torch::tensor(row)`, `torch::from_blob(p, n).clone().unsqueeze(0)`: a
/// tensor copied from host data, reshaped or converted on the host.
/// What the host-side chain of tensor methods `E` ends (`.clone()`,
/// `.unsqueeze(0)`, nothing moved, no other tensor) starts from; null if the
/// chain moves it or takes another tensor.
const Expr *startOfHostChain(const Expr &E) {
  const Expr *Current = ignoreConversions(&E)->IgnoreImplicit();
  while (const auto *Method = dyn_cast<CXXMemberCallExpr>(Current)) {
    if (!isTensorType(Method->getType()) ||
        effectOf(Method->getMethodDecl()) == TensorEffect::Transfer ||
        llvm::any_of(Method->arguments(),
                     [](const Expr *Arg) { return isTensorType(Arg->getType()); }))
      return nullptr;
    Current = ignoreConversions(Method->getImplicitObjectArgument())->IgnoreImplicit();
  }
  return Current;
}

bool isHostDataCopy(const Expr &E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(startOfHostChain(E));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return copiesHostData(effectOf(Callee));
}

/// `e.data`, `e.target.unsqueeze(0)`: a field of a data-set example (a
/// `torch::data::Example` the program holds as is), per-sample data the data
/// set made on the CPU.
bool isExampleField(const Expr &E) {
  const auto *Field = dyn_cast_or_null<MemberExpr>(startOfHostChain(E));
  if (!Field)
    return false;
  const auto *Record = Field->getBase()->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return isNamed(Record, "torch::data::Example");
}

/// Up the host-side chain of tensor methods (`.clone()`, `.unsqueeze(0)`)
/// that `Copy` is the start of, to its last call.
const Expr &endOfChain(ASTContext &Ast, const Expr &Copy) {
  const Expr *End = &Copy;
  while (const CXXMemberCallExpr *Call = methodCalledOn(Ast, *End)) {
    if (!isTensorType(Call->getType()))
      break;
    End = Call;
  }
  return *End;
}

bool isTensorVector(QualType Type) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Type->getAsCXXRecordDecl());
  return Spec && Spec->getQualifiedNameAsString() == "std::vector" &&
         Spec->getTemplateArgs().size() > 0 &&
         Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         isTensorType(Spec->getTemplateArgs()[0].getAsType());
}

/// `std::move(x)` as `x`.
const Expr *withoutMove(const Expr &E) {
  const Expr *Bare = E.IgnoreImplicit()->IgnoreParens();
  if (const auto *Call = dyn_cast<CallExpr>(Bare);
      Call && Call->getNumArgs() == 1 && isNamed(Call->getDirectCallee(), "std::move"))
    return Call->getArg(0)->IgnoreImplicit()->IgnoreParens();
  return Bare;
}

/// True if values of `Type` may hold LibTorch state: a tensor, a module, a
/// TorchScript module (or containers and pointers of them).
bool mayHoldTorchState(QualType Type) {
  const std::string Spelled = Type.getCanonicalType().getAsString();
  return llvm::StringRef(Spelled).contains("at::Tensor") ||
         llvm::StringRef(Spelled).contains("torch::nn::") ||
         llvm::StringRef(Spelled).contains("torch::jit::");
}

/// `rows.push_back(make_row(board))` as a fill of host rows: a call of a host
/// row builder (isHostRowBuilder()), possibly through `std::move`.
bool isHostRowBuilderCall(const Expr &E) {
  const auto *Call = dyn_cast<CallExpr>(withoutMove(E));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && isHostRowBuilder(*Callee);
}

} // namespace

bool isHostRowBuilder(const FunctionDecl &F) {
  const FunctionDecl *Definition = F.getDefinition();
  if (!Definition || !Definition->getBody() || isLibraryDecl(Definition) ||
      !isTensorType(Definition->getReturnType()) || Definition->getReturnType()->isReferenceType())
    return false;
  if (llvm::any_of(Definition->parameters(),
                   [](const ParmVarDecl *P) { return mayHoldTorchState(P->getType()); }))
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && !Method->isStatic() &&
      llvm::any_of(Method->getParent()->fields(),
                   [](const FieldDecl *Field) { return mayHoldTorchState(Field->getType()); }))
    return false;
  // Only its own tensors and LibTorch's functions: no tensor or module of a
  // global, a member or a call of the program's reaches it.
  std::function<bool(const Stmt *)> ReachesOtherState = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && mayHoldTorchState(Var->getType()) &&
          !(Var->hasLocalStorage() && Var->getParentFunctionOrMethod() == Definition))
        return true;
    if (const auto *Member = dyn_cast<MemberExpr>(S);
        Member && isa<FieldDecl>(Member->getMemberDecl()) &&
        mayHoldTorchState(Member->getMemberDecl()->getType()))
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee(); !Callee || !isLibraryDecl(Callee))
        if (mayHoldTorchState(Call->getType()) ||
            llvm::any_of(Call->arguments(),
                         [](const Expr *Arg) { return mayHoldTorchState(Arg->getType()); }))
          return true;
    return llvm::any_of(S->children(), ReachesOtherState);
  };
  return !ReachesOtherState(Definition->getBody());
}

namespace {

/// The gathered host rows (isGatheredHostRows()) `Value` is appended to
/// (`rows.push_back(value)`, also through `std::move`), or null.
const VarDecl *rowsAppendedTo(ASTContext &Ast, const Expr &Value) {
  const Stmt *User = userOf(Ast, Value);
  if (const auto *Move = dyn_cast_or_null<CallExpr>(User);
      Move && Move->getNumArgs() == 1 && isNamed(Move->getDirectCallee(), "std::move"))
    User = userOf(Ast, *Move);
  const auto *Append = dyn_cast_or_null<CXXMemberCallExpr>(User);
  if (!Append || !isNamedCall(Append->getMethodDecl(), {"push_back", "emplace_back"}))
    return nullptr;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Append->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *Rows = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Rows && isGatheredHostRows(Ast, *Rows) ? Rows : nullptr;
}

} // namespace

const VarDecl *rowsGathering(ASTContext &Ast, const CallExpr &Row) {
  return rowsAppendedTo(Ast, Row);
}

bool isGatheredHostRows(ASTContext &Ast, const VarDecl &Rows) {
  if (!Rows.hasLocalStorage() || isa<ParmVarDecl>(Rows) || !isTensorVector(Rows.getType()))
    return false;
  // Empty to begin with: `std::vector<torch::Tensor> rows{state}` holds another tensor.
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(
      Rows.getInit() ? Rows.getInit()->IgnoreImplicit() : nullptr);
  if (Rows.getInit() && !(Init && Init->getNumArgs() == 0))
    return false;
  bool Filled = false, Joined = false;
  const bool Other = anyUseIn(bodyOf(Rows), Rows, [&](const DeclRefExpr &Ref) {
    if (const CXXMemberCallExpr *Call = methodCalledOn(Ast, Ref)) {
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (isNamedCall(Method, {"size", "empty", "reserve", "clear", "capacity"}))
        return false;
      if (isNamedCall(Method, {"push_back", "emplace_back"}) && Call->getNumArgs() == 1 &&
          (isHostDataCopy(*Call->getArg(0)) || isExampleField(*Call->getArg(0)) ||
           isHostRowBuilderCall(*Call->getArg(0))))
        return !(Filled = true);
      return true;
    }
    const auto *Join = dyn_cast_or_null<CallExpr>(userOf(Ast, Ref));
    const FunctionDecl *Callee = Join ? Join->getDirectCallee() : nullptr;
    // The vector can only be their tensor-list argument.
    if (effectOf(Callee) == TensorEffect::Join)
      return !(Joined = true);
    return true;
  });
  return !Other && Filled && Joined;
}

bool isGatheredField(ASTContext &Ast, const Expr &Field) {
  const Expr &End = endOfChain(Ast, Field);
  const auto *Append = dyn_cast_or_null<CXXMemberCallExpr>(userOf(Ast, End));
  if (!Append || !isNamedCall(Append->getMethodDecl(), {"push_back", "emplace_back"}))
    return false;
  const auto *Rows = dyn_cast<DeclRefExpr>(Append->getImplicitObjectArgument()->IgnoreImplicit());
  const auto *Var = Rows ? dyn_cast<VarDecl>(Rows->getDecl()) : nullptr;
  return Var && isGatheredHostRows(Ast, *Var);
}

const VarDecl *gatheredInto(ASTContext &Ast, const Expr &Factory) {
  return rowsAppendedTo(Ast, endOfChain(Ast, Factory));
}

bool holdsHostData(const VarDecl &Var) {
  return Var.hasLocalStorage() && !isa<ParmVarDecl>(Var) && isTensorType(Var.getType()) &&
         Var.getInit() && isHostDataCopy(*Var.getInit());
}

bool isWriteAccess(ASTContext &Ast, const CXXMemberCallExpr &Access) {
  if (isWrittenThrough(Ast, Access) || escapes(Ast, Access))
    return true;
  // `auto *p = t.data_ptr<float>();`, `float *p = (float *)t.data_ptr();`,
  // `auto a = t.accessor<float, 2>();`, written later, or kept where the
  // function cannot follow it.
  const Expr &Whole = castOf(Ast, Access);
  DynTypedNodeList Parents = Ast.getParents(Whole);
  const auto *Holder = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
  if (!Holder)
    Holder = initializedVariable(Ast, Access);
  return Holder && anyUseIn(bodyOf(*Holder), *Holder, [&](const DeclRefExpr &Ref) {
           return isWrittenThrough(Ast, Ref) || escapes(Ast, Ref);
         });
}

bool isProgramTensorField(const ValueDecl *D) {
  const auto *Field = dyn_cast_or_null<FieldDecl>(D);
  return Field && isTensorType(Field->getType()) && !isLibraryDecl(Field);
}

const ValueDecl *referencedTensor(const Expr &Reference) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(&Reference))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(&Reference))
    return Member->getMemberDecl();
  return nullptr;
}

const Expr *viewedReference(const Expr &Object) {
  const Expr *E = &Object;
  for (int Depth = 0; Depth < 8; ++Depth) {
    for (const Expr *Bare = E->IgnoreImplicit()->IgnoreParens(); Bare != E;
         Bare = E->IgnoreImplicit()->IgnoreParens())
      E = Bare;
    // A variable, or a name a structured binding gives (`auto [action, logp] = f();`).
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return isa<VarDecl, BindingDecl>(Ref->getDecl()) && isTensorType(Ref->getDecl()->getType())
                 ? Ref
                 : nullptr;
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return isProgramTensorField(Member->getMemberDecl()) ? Member : nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
      E = Op->getArg(0);
      continue;
    }
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
    if (!Call || !isTensorType(Call->getType()) || effectOf(Method) != TensorEffect::View)
      return nullptr;
    E = Call->getImplicitObjectArgument();
  }
  return nullptr;
}

const ValueDecl *viewedTensor(const Expr &Object) {
  const Expr *Ref = viewedReference(Object);
  return Ref ? referencedTensor(*Ref) : nullptr;
}

const Expr &outermostView(ASTContext &Ast, const Expr &Ref, const ValueDecl &Tensor) {
  const Expr *Viewed = &Ref;
  while (true) {
    const auto *Subscript = dyn_cast_or_null<CXXOperatorCallExpr>(userOf(Ast, *Viewed));
    if (Subscript && Subscript->getOperator() == OO_Subscript && viewedTensor(*Subscript) == &Tensor) {
      Viewed = Subscript;
      continue;
    }
    if (const CXXMemberCallExpr *View = methodCalledOn(Ast, *Viewed);
        View && viewedTensor(*View) == &Tensor) {
      Viewed = View;
      continue;
    }
    return *Viewed;
  }
}

const CallExpr *selectionOf(ASTContext &Ast, const Expr &Selected) {
  if (const CXXMemberCallExpr *Method = methodCalledOn(Ast, Selected))
    return effectOf(*Method) == TensorEffect::Select ? Method : nullptr;
  const auto *Call = dyn_cast_or_null<CallExpr>(userOf(Ast, Selected));
  if (!Call || isa<CXXMemberCallExpr>(Call) || effectOf(*Call) != TensorEffect::Select || !Call->getNumArgs())
    return nullptr;
  return ignoreConversions(Call->getArg(0))->IgnoreParens() == ignoreConversions(&Selected)->IgnoreParens()
             ? Call
             : nullptr;
}

namespace {

/// The in-place methods that write a tensor's elements from the caller's
/// values (`fill_(0.5)`, `index_put_({i}, v)`), or from another tensor
/// wherever it is (`copy_`): the tensor stays where it is.
bool isElementWriteMethod(const CXXMethodDecl *Method) {
  return effectOf(Method) == TensorEffect::WriteElements;
}

/// Is `Value` the host's: a number (`vocab[word]`, `0.5f`), or a tensor
/// copied from host data (`torch::from_blob(row, {d})`, a local holding one)?
/// A tensor computed by LibTorch (`torch::sin(position * scale)`) is not: it
/// is computed where its operands are, and written from there.
bool isHostValue(const Expr &Value) {
  if (!isTensorType(Value.getType()))
    return true;
  if (isHostDataCopy(Value))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(ignoreConversions(&Value)->IgnoreImplicit());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return false;
  if (holdsHostData(*Var))
    return true;
  // A tensor its function builds on the host (`obs[i] = row` with `row`
  // written through memcpy). Tensors written into each other are asked once.
  static thread_local llvm::SmallPtrSet<const VarDecl *, 4> Asking;
  if (!Asking.insert(Var).second)
    return false;
  const bool Built = isHostBuiltTensor(Var->getASTContext(), *Var);
  Asking.erase(Var);
  return Built;
}

/// True if the operands of the views between `Ref` and `View` are the host's
/// (`t[i]`, `t.select(0, i)`; not `t[idx]` with a tensor computed elsewhere).
bool viewsWithHostOperands(const Expr &View, const Expr &Ref) {
  for (const Expr *E = &View; E && E != &Ref;) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getNumArgs() == 2) {
      if (!holdsOnlyHostValues(*Op->getArg(1)))
        return false;
      E = Op->getArg(0);
    } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      if (!llvm::all_of(Call->arguments(), [](const Expr *Arg) { return holdsOnlyHostValues(*Arg); }))
        return false;
      E = Call->getImplicitObjectArgument();
    } else {
      return true;
    }
  }
  return true;
}

/// Is `View` (a view of a tensor, not the tensor itself) assigned a host
/// value (`t[i] = v`, `t[i] = torch::from_blob(row, {d})`) at host indices?
bool isAssignedView(ASTContext &Ast, const Expr &View, const Expr &Ref) {
  if (&View == &Ref)
    return false;
  const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(userOf(Ast, View));
  return Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2 &&
         Assign->getArg(0)->IgnoreImplicit() == View.IgnoreImplicit() &&
         isHostValue(*Assign->getArg(1)) && viewsWithHostOperands(View, Ref);
}

} // namespace

bool holdsOnlyHostValues(const Expr &E) {
  const Expr *Bare = E.IgnoreImplicit();
  if (isTensorType(Bare->getType()))
    return isHostValue(*Bare);
  return llvm::all_of(Bare->children(), [](const Stmt *Child) {
    const auto *Operand = dyn_cast_or_null<Expr>(Child);
    return !Operand || holdsOnlyHostValues(*Operand);
  });
}

bool isHostWrite(ASTContext &Ast, const Expr &Ref, const ValueDecl &Tensor) {
  // Through a view of it (`t[0].data_ptr()`, `t.select(0, i).accessor<...>()`,
  // `t[i] = v`, `t[i].fill_(v)`).
  const Expr &Viewed = outermostView(Ast, Ref, Tensor);
  if (isAssignedView(Ast, Viewed, Ref))
    return true;
  const CXXMemberCallExpr *Call = methodCalledOn(Ast, Viewed);
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier())
    return false;
  // `t[i].fill_(0.5)`, `t.index_put_({i}, v)` from host values and at host
  // indices; `zero_()` and writes with a tensor computed elsewhere (a value,
  // or indices: `t.index_put_({idx}, 1)` with `idx` the model's) are not the
  // host's, nor is a fill of the whole tensor (`labels.fill_(1)`): one
  // operation, done where it is.
  const bool WholeFill = Method->getName() == "fill_" && &Viewed == &Ref;
  if (isElementWriteMethod(Method) && Method->getName() != "copy_" && !WholeFill &&
      Call->getNumArgs() &&
      llvm::all_of(Call->arguments(), [](const Expr *Arg) { return holdsOnlyHostValues(*Arg); }) &&
      viewsWithHostOperands(*Call->getImplicitObjectArgument(), Ref))
    return true;
  return isHostMemoryAccess(Method) && isWriteAccess(Ast, *Call);
}

/// Does `Value` (an initialiser, an assigned value) hold a tensor of its own,
/// sharing no memory with another named tensor? Not a name, nor a chain of
/// methods that may return their object or a view of it (`x.contiguous()`,
/// `x.to(kByte)`, `x[0]`) from another tensor than `Self`.
static bool holdsItsOwnMemory(const Expr &Value, const ValueDecl &Self) {
  const Expr *E = ignoreConversions(&Value)->IgnoreParens();
  while (true) {
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (!Method || !Method->getIdentifier() || !isTensorType(Call->getType()))
        return true; // not a tensor method: a module's forward, an IValue's toTensor
      const TensorEffect Effect = effectOf(Method);
      if (Effect != TensorEffect::View && Effect != TensorEffect::Transfer)
        return true; // computes a new tensor (`argmax`, `add`, `clone`)
      E = ignoreConversions(Call->getImplicitObjectArgument())->IgnoreParens();
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript) {
      E = ignoreConversions(Op->getArg(0))->IgnoreParens();
      continue;
    }
    if (const ValueDecl *Named = isa<DeclRefExpr, MemberExpr>(E) ? referencedTensor(*E) : nullptr)
      return Named == &Self;
    return !isa<DeclRefExpr, MemberExpr>(E);
  }
}

bool isDeadAfterHostWrite(ASTContext &Ast, const Stmt &Statement, const VarDecl &Tensor) {
  if (!Tensor.hasLocalStorage() || Tensor.getType()->isReferenceType())
    return false;
  // Read after the write, on any path (a loop's next turn too, when the
  // tensor outlives the turn): the write must reach it.
  const LocalFlow Flow(Tensor);
  if (Flow.isLiveAfter(Statement).value_or(true))
    return false;
  // Its memory is its own whatever path led here: no value it may hold
  // shares another tensor's (a view, a name, the caller's argument).
  const auto Values = Flow.valuesReaching(Statement);
  return Values && !Values->empty() && llvm::all_of(*Values, [&](const Expr *Value) {
           return Value && holdsItsOwnMemory(*Value, Tensor);
         });
}

bool isWrittenByHostCode(ASTContext &Ast, const VarDecl &Tensor) {
  return anyUseIn(bodyOf(Tensor), Tensor,
                  [&](const DeclRefExpr &Ref) { return isHostWrite(Ast, Ref, Tensor); });
}

/// True if host code writes `Tensor`'s memory through a pointer or accessor
/// (`std::memcpy(t.data_ptr(), ...)`): only host memory takes such a write.
static bool isWrittenThroughHostMemory(ASTContext &Ast, const VarDecl &Tensor) {
  return anyUseIn(bodyOf(Tensor), Tensor, [&](const DeclRefExpr &Ref) {
    const CXXMemberCallExpr *Call = methodCalledOn(Ast, outermostView(Ast, Ref, Tensor));
    return Call && isHostMemoryAccess(Call->getMethodDecl()) && isWriteAccess(Ast, *Call);
  });
}

namespace {

/// Is `Use` (or a chain of tensor methods on it) what its function returns?
bool isReturned(ASTContext &Ast, const Expr &Use) {
  const Expr &Chain = endOfChain(Ast, Use);
  return isa_and_nonnull<ReturnStmt>(userOf(Ast, Chain));
}

} // namespace

bool feedsHostBuiltTensor(ASTContext &Ast, const Expr &Value) {
  const Expr *Written = &endOfChain(Ast, Value);
  const Stmt *User = userOf(Ast, *Written);
  const Expr *Target = nullptr;
  if (const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(User);
      Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2 &&
      Assign->getArg(1)->IgnoreImplicit() == Written->IgnoreImplicit())
    Target = Assign->getArg(0);
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(User);
      Call && isElementWriteMethod(Call->getMethodDecl()))
    Target = Call->getImplicitObjectArgument();
  const auto *Tensor = Target ? dyn_cast_or_null<VarDecl>(viewedTensor(*Target)) : nullptr;
  return Tensor && isHostBuiltTensor(Ast, *Tensor);
}

/// True if `Value` is computed from `Tensor` alone, through its own methods
/// with no other tensor (`t.transpose(0, 2)`, `t.to(torch::kFloat)`,
/// `t.div(256)`) or arithmetic with numbers (`t * 2`): what it computes runs
/// wherever `Tensor` is.
static bool isComputedFromItselfAlone(const Expr &Value, const ValueDecl &Tensor) {
  auto IsTensor = [](const Expr *Operand) { return isTensorType(Operand->getType()); };
  const Expr *E = ignoreConversions(&Value)->IgnoreParens();
  while (true) {
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      if (llvm::any_of(Call->arguments(), IsTensor) || !Call->getImplicitObjectArgument())
        return false;
      E = ignoreConversions(Call->getImplicitObjectArgument())->IgnoreParens();
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getNumArgs() == 2 &&
                                                           !Op->isAssignmentOp()) {
      const bool LeftTensor = IsTensor(Op->getArg(0)), RightTensor = IsTensor(Op->getArg(1));
      if (LeftTensor == RightTensor)
        return false;
      E = ignoreConversions(Op->getArg(LeftTensor ? 0 : 1))->IgnoreParens();
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    return Ref && Ref->getDecl() == &Tensor;
  }
}

bool isDeviceModification(ASTContext &Ast, const Expr &Ref, const ValueDecl &Tensor) {
  const Expr &Viewed = outermostView(Ast, Ref, Tensor);
  const Stmt *User = userOf(Ast, Viewed);
  // `t = f(t)`, `t += x`, `t[i] *= 2`: a new value, or one computed where the
  // operands are.
  // Arithmetic with numbers only (`t *= 0`, `t.mul_(0.5)`) computes nothing
  // from another tensor: it runs wherever the tensor is; so does a new value
  // made from the tensor alone (`t = t.transpose(0, 2)`, `t = t.to(kFloat)`).
  auto IsTensor = [](const Expr *Operand) { return isTensorType(Operand->getType()); };
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(User);
      Op && Op->isAssignmentOp() && Op->getNumArgs() == 2 &&
      Op->getArg(0)->IgnoreImplicit() == Viewed.IgnoreImplicit())
    return Op->getOperator() == OO_Equal
               ? &Viewed == &Ref && !isComputedFromItselfAlone(*Op->getArg(1), Tensor)
               : IsTensor(Op->getArg(1));
  if (const auto *Op = dyn_cast_or_null<BinaryOperator>(User); Op && Op->isAssignmentOp())
    return Op->getLHS()->IgnoreImplicit() == Viewed.IgnoreImplicit();
  // `t.add_(x)`, `t.mul_(w)`: in-place arithmetic with another tensor; an
  // element write with a tensor computed elsewhere as its value or indices
  // (`t.index_put_({idx}, 1)`, `t.masked_fill_(t < 0, 0)`) is done where that
  // tensor is too. A copy (`copy_`) takes its source from anywhere.
  const CXXMemberCallExpr *Call = methodCalledOn(Ast, Viewed);
  switch (Call ? effectOf(Call->getMethodDecl()) : TensorEffect::NotLibTorch) {
  case TensorEffect::Accumulate:
    return llvm::any_of(Call->arguments(), IsTensor);
  case TensorEffect::WriteElements:
    return !copiesFromAnyDevice(*Call) &&
           !llvm::all_of(Call->arguments(), [](const Expr *Arg) { return holdsOnlyHostValues(*Arg); });
  default:
    return false;
  }
}

bool isModifiedOnDevice(ASTContext &Ast, const VarDecl &Tensor) {
  return anyUseIn(bodyOf(Tensor), Tensor,
                  [&](const DeclRefExpr &Ref) { return isDeviceModification(Ast, Ref, Tensor); });
}

namespace {

/// Every reference to a tensor member of the program's classes below the
/// traversal root.
class TensorFieldReferences : public RecursiveASTVisitor<TensorFieldReferences> {
public:
  bool VisitMemberExpr(MemberExpr *Member) {
    if (isProgramTensorField(Member->getMemberDecl()))
      Found.push_back(Member);
    return true;
  }
  std::vector<const MemberExpr *> Found;
};

/// Is `Reference` given a whole new value (`inputs = torch::zeros(...)`)? The value, or null.
const Expr *assignedValue(ASTContext &Ast, const Expr &Reference) {
  const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(userOf(Ast, Reference));
  if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2 ||
      Assign->getArg(0)->IgnoreImplicit() != Reference.IgnoreImplicit())
    return nullptr;
  return Assign->getArg(1);
}

} // namespace

FieldWrite valueWrite(const Expr &Value) {
  // A LibTorch function that makes a tensor of no other tensor (`torch::zeros`,
  // `torch::from_blob`), not an operator on tensors (`values * 2`).
  const auto *Call = dyn_cast<CallExpr>(ignoreConversions(&Value)->IgnoreImplicit());
  const FunctionDecl *Callee = Call && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call)
                                   ? Call->getDirectCallee()
                                   : nullptr;
  const bool Factory = Callee && isLibraryDecl(Callee) && isTensorType(Call->getType()) &&
                       llvm::none_of(Call->arguments(), [](const Expr *Arg) {
                         return isTensorType(Arg->getType());
                       });
  return Factory ? FieldWrite::FactoryValue : FieldWrite::OtherValue;
}

void forEachTensorFieldWrite(ASTContext &Ast, const FunctionDecl &F,
                             llvm::function_ref<void(const FieldDecl &, FieldWrite)> Visit) {
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&F))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && isProgramTensorField(Init->getMember()))
        Visit(*Init->getMember(), valueWrite(*Init->getInit()));
  if (!F.getBody())
    return;
  TensorFieldReferences References;
  References.TraverseStmt(F.getBody());
  for (const MemberExpr *Member : References.Found) {
    const auto &Field = *cast<FieldDecl>(Member->getMemberDecl());
    if (const Expr *Value = assignedValue(Ast, *Member))
      Visit(Field, valueWrite(*Value));
    else if (isHostWrite(Ast, *Member, Field))
      Visit(Field, FieldWrite::Host);
    else if (isDeviceModification(Ast, *Member, Field))
      Visit(Field, FieldWrite::OtherValue);
  }
}

namespace {

/// True if `Arg` is an argument of the call `User` whose parameter is a
/// non-const lvalue reference (`void normalize(torch::Tensor &t)`): the
/// callee works on the caller's own tensor, and `t.to(device)` there would be
/// a temporary it cannot bind (nor change).
bool isBoundToNonConstReference(const Stmt &User, const Expr &Arg) {
  auto IsNonConstTensorReference = [](QualType Type) {
    return Type->isLValueReferenceType() && !Type->getPointeeType().isConstQualified() &&
           isTensorType(Type->getPointeeType());
  };
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(&User)) { // `Storage s(t)` taking `Tensor &`
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && I < Ctor->getNumParams(); ++I)
      if (ignoreConversions(Construct->getArg(I)) == ignoreConversions(&Arg))
        return IsNonConstTensorReference(Ctor->getParamDecl(I)->getType());
    return false;
  }
  const auto *Call = dyn_cast<CallExpr>(&User);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || isLibraryDecl(Callee))
    return false;
  // A forwarding reference (`template <class... A> f(A &&...a)`) deduced as
  // `Tensor &` takes a copy as well.
  if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern())
    Callee = Pattern;
  // A member operator's first argument is its object.
  const unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = Shift; I < Call->getNumArgs() && I - Shift < Callee->getNumParams(); ++I) {
    if (ignoreConversions(Call->getArg(I)) != ignoreConversions(&Arg))
      continue;
    return IsNonConstTensorReference(Callee->getParamDecl(I - Shift)->getType());
  }
  return false;
}

} // namespace

bool isDeviceUse(ASTContext &Ast, const Expr &Use) {
  // Up a chain of tensor methods (`t.view({-1}).sum()`) to what uses its result.
  const Expr *Value = &Use;
  while (const CXXMemberCallExpr *Call = methodCalledOn(Ast, *Value)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    const TensorEffect Effect = effectOf(Method);
    if (!isTensorType(Call->getType()) || !Method || !Method->getIdentifier() ||
        isDeviceTransfer(*Call) || Method->getName() == "data" ||
        ((Effect == TensorEffect::WriteElements || Effect == TensorEffect::Accumulate) && Value == &Use))
      return false; // read on the host (`item`, `sizes`, `data_ptr`), moved, or written
    // Combined with another tensor into a new one (`t.matmul(x)`, as
    // `torch::matmul(t, x)`): where that operand is, whatever takes the result.
    if ((Effect == TensorEffect::Compute || Effect == TensorEffect::Select) &&
        llvm::any_of(Call->arguments(), [](const Expr *Arg) { return isTensorType(Arg->getType()); }))
      return true;
    Value = Call;
  }
  // `auto index_dev = index;` (or a view of it): needed on the device where
  // that alias is (r9_gridrl gathered with one).
  if (const VarDecl *Alias = initializedVariable(Ast, *Value);
      Alias && isTensorType(Alias->getType())) {
    if (isWrittenByHostCode(Ast, *Alias))
      return false; // a view the host writes through
    static thread_local int Depth = 0;
    if (Depth >= 3)
      return true;
    ++Depth;
    const bool Needed = anyUseIn(bodyOf(*Alias), *Alias,
                                 [&](const DeclRefExpr &Ref) { return isDeviceUse(Ast, Ref); });
    --Depth;
    return Needed;
  }
  const Stmt *User = userOf(Ast, *Value);
  if (!User || isa<ReturnStmt>(User))
    return false; // what the function returns is placed where it is received
  if (isa<LambdaExpr>(User))
    return false; // captured: the lambda's own uses are looked at where they are
  // The source of a copy into elements (`obs[i] = x`, `t.copy_(x)`) may be on any device.
  if (const auto *Copy = dyn_cast<CXXMemberCallExpr>(User);
      Copy && Copy->getMethodDecl() && Copy->getMethodDecl()->getIdentifier() &&
      Copy->getMethodDecl()->getName() == "copy_" &&
      Copy->getImplicitObjectArgument()->IgnoreImplicit() != Value->IgnoreImplicit())
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(User)) {
    if (Op->getOperator() == OO_LessLess)
      return false; // printed
    if (Op->isAssignmentOp() && Op->getArg(0)->IgnoreImplicit() == Value->IgnoreImplicit())
      return false; // written
    if (effectOf(*Op) == TensorEffect::WriteElements && Op->getNumArgs() == 2 &&
        Op->getArg(1)->IgnoreImplicit() == Value->IgnoreImplicit())
      return false; // copied into elements, from wherever it is
    if (const ValueDecl *Tensor = viewedTensor(Use);
        Tensor && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        referencedTensor(*Op->getArg(0)->IgnoreImplicit()) == Tensor &&
        isComputedFromItselfAlone(*Op->getArg(1), *Tensor))
      return false; // `t = t.transpose(0, 2)`: a new value of the tensor, still on the host
  }
  if (const auto *Declaration = dyn_cast<DeclStmt>(User))
    for (const Decl *D : Declaration->decls())
      if (const auto *Alias = dyn_cast<VarDecl>(D); Alias && isWrittenByHostCode(Ast, *Alias))
        return false; // a view the host writes through
  if (isBoundToNonConstReference(*User, *Value))
    return false; // `normalize(t)` changes the caller's tensor: no copy can stand in
  if (const auto *Address = dyn_cast<UnaryOperator>(User); Address && Address->getOpcode() == UO_AddrOf)
    return false; // `Bernoulli(&x)` keeps the caller's tensor: no copy can stand in
  return true;
}

/// Is `Init` made by LibTorch from no other tensor: a factory (`torch::zeros`,
/// `torch::from_blob`, `torch::tensor`), possibly followed by its own methods
/// with no other tensor (`.to(torch::kByte)`, `.clone()`)? Not a module's
/// output (`net(x)`) nor a tensor method on another tensor.
static bool isMadeFromNoTensor(const Expr &Init) {
  const Expr *E = ignoreConversions(&Init)->IgnoreImplicit()->IgnoreParens();
  auto IsTensor = [](const Expr *Arg) { return isTensorType(Arg->getType()); };
  while (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    if (!isTensorType(Call->getImplicitObjectArgument()->getType()) ||
        llvm::any_of(Call->arguments(), IsTensor))
      return false;
    E = ignoreConversions(Call->getImplicitObjectArgument())->IgnoreImplicit()->IgnoreParens();
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call && !isa<CXXOperatorCallExpr>(Call) ? Call->getDirectCallee() : nullptr;
  return Callee && isLibraryDecl(Callee) && llvm::none_of(Call->arguments(), IsTensor);
}

/// True if host code writes `Tensor`'s elements in a loop that is not also
/// around its declaration (`for (i...) t[i] = v`: a fill, cheaper on the host
/// and copied once, than one small write on the device per element).
static bool isFilledInLoop(ASTContext &Ast, const VarDecl &Tensor) {
  return anyUseIn(bodyOf(Tensor), Tensor, [&](const DeclRefExpr &Ref) {
    return isHostWrite(Ast, Ref, Tensor) && runsAgainWithSame(Ast, Ref, &Tensor);
  });
}

namespace {

/// The one value assigned to a local declared empty (`torch::Tensor z; ...
/// z = torch::empty(...);`), null if it is declared with a value or assigned
/// more than once.
const Expr *onlyAssignedValue(ASTContext &Ast, const VarDecl &Tensor) {
  const auto *Empty = dyn_cast_or_null<CXXConstructExpr>(Tensor.getInit());
  const Stmt *Body = bodyOf(Tensor);
  if (!Empty || Empty->getNumArgs() != 0 || !Body)
    return nullptr;
  using namespace clang::ast_matchers;
  auto Assignments = match(
      findAll(cxxOperatorCallExpr(hasOverloadedOperatorName("="),
                                  hasArgument(0, ignoringParenImpCasts(declRefExpr(to(varDecl(equalsNode(&Tensor)))))),
                                  hasArgument(1, expr().bind("value")))),
      *Body, Ast);
  return Assignments.size() == 1 ? Assignments[0].getNodeAs<Expr>("value") : nullptr;
}

} // namespace

const Expr *madeBy(ASTContext &Ast, const VarDecl &Tensor) {
  if (!Tensor.hasLocalStorage() || !isTensorType(Tensor.getType()) || !Tensor.getInit())
    return nullptr;
  if (const Expr *Assigned = onlyAssignedValue(Ast, Tensor))
    return Assigned;
  return Tensor.getInit();
}

bool isHostBuiltTensor(ASTContext &Ast, const VarDecl &Tensor) {
  const Expr *Made = madeBy(Ast, Tensor);
  if (!Made)
    return false;
  const auto *Init = dyn_cast<CallExpr>(ignoreConversions(Made)->IgnoreImplicit());
  // Host memory takes a write through data_ptr or an accessor: the tensor is
  // built on the host, and moved where the device computes with it, even when
  // later computed with others (`t = t.sub(mean)`). Elements written in a
  // loop (a fill) are too, unless it is computed with others: then the
  // device's. A few elements written once (`mask[0] = flag`) are written on
  // the device, where the tensor is made.
  return Init && isMadeFromNoTensor(*Init) &&
         (isWrittenThroughHostMemory(Ast, Tensor) ||
          (isFilledInLoop(Ast, Tensor) && !isModifiedOnDevice(Ast, Tensor)));
}

const VarDecl *initializedVariable(ASTContext &Ast, const Expr &E) {
  const DynTypedNodeList Parents = parentsPastConversions(Ast, E).first;
  const auto *Var = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
  return Var && Var->hasLocalStorage() && Var->getInit() &&
                 ignoreConversions(Var->getInit()) == ignoreConversions(&E)
             ? Var
             : nullptr;
}

/// The local that `E` makes (madeBy()): the one it initialises, or the one
/// declared empty that `E` is the only value assigned to.
static const VarDecl *madeVariable(ASTContext &Ast, const Expr &E) {
  if (const VarDecl *Var = initializedVariable(Ast, E))
    return Var;
  const DynTypedNodeList Parents = parentsPastConversions(Ast, E).first;
  const auto *Assign = Parents.empty() ? nullptr : Parents[0].get<CXXOperatorCallExpr>();
  if (!Assign || Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getArg(0)->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const Expr *Made = Var ? madeBy(Ast, *Var) : nullptr;
  return Made && ignoreConversions(Made) == ignoreConversions(&E) ? Var : nullptr;
}

bool buildsHostBuiltTensor(ASTContext &Ast, const Expr &Factory) {
  // Up a chain of the factory's own methods with no other tensor
  // (`torch::zeros(...).to(torch::kByte)`) to the variable it initialises.
  const Expr *Made = &Factory;
  while (const CXXMemberCallExpr *Call = methodCalledOn(Ast, *Made)) {
    if (!isTensorType(Call->getType()) || llvm::any_of(Call->arguments(), [](const Expr *Arg) {
          return isTensorType(Arg->getType());
        }))
      break;
    Made = Call;
  }
  const VarDecl *Var = madeVariable(Ast, *Made);
  return Var && isHostBuiltTensor(Ast, *Var);
}

bool returnsHostBuiltTensor(ASTContext &Ast, const FunctionDecl &F) {
  const FunctionDecl *Definition = F.getDefinition();
  if (!Definition || !Definition->hasBody() || !isTensorType(F.getReturnType()))
    return false;
  bool Found = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      const Expr *Value =
          Return->getRetValue() ? ignoreConversions(Return->getRetValue())->IgnoreParenImpCasts() : nullptr;
      // `return preprocess(t);` where the program's `Tensor &preprocess(Tensor &t)`
      // hands back the tensor it was given.
      if (const auto *Call = dyn_cast_or_null<CallExpr>(Value);
          Call && Call->getDirectCallee() && !isLibraryDecl(Call->getDirectCallee()) &&
          Call->getNumArgs() == 1 &&
          Call->getDirectCallee()->getReturnType()->isLValueReferenceType() &&
          isTensorType(Call->getDirectCallee()->getReturnType().getNonReferenceType()))
        Value = ignoreConversions(Call->getArg(0))->IgnoreParenImpCasts();
      if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Value))
        if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
          Found = isHostBuiltTensor(Ast, *Var);
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Definition->getBody());
  return Found;
}

bool isHostDataArgument(const Expr &Arg) {
  if (isHostDataCopy(Arg))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(ignoreConversions(&Arg)->IgnoreImplicit());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && holdsHostData(*Var);
}

namespace {

/// A tensor taken by value or by const reference.
bool isTensorInput(const ParmVarDecl &Param) {
  const QualType Type = Param.getType();
  return isTensorType(Type.getNonReferenceType()) &&
         (!Type->isReferenceType() || Type.getNonReferenceType().isConstQualified());
}

} // namespace

bool isInputParameter(ASTContext &Ast, const ParmVarDecl &Param) {
  if (!isTensorInput(Param))
    return false;
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Param.getParentFunctionOrMethod());
  // Taken by device code in a loop, a move where it is used would be made
  // at every turn: the caller makes it where it is needed, once.
  return Function && Function->getBody() &&
         !anyUseIn(Function->getBody(), Param, [&](const DeclRefExpr &Ref) {
           return isReturned(Ast, Ref) || isDeviceModification(Ast, Ref, Param) ||
                  (isDeviceUse(Ast, outermostView(Ast, Ref, Param)) && runsAgainWithSame(Ast, Ref, &Param));
         });
}

const CXXMemberCallExpr *methodCalledOn(ASTContext &Ast, const Expr &Object) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(userOf(Ast, Object));
  return Member ? dyn_cast_or_null<CXXMemberCallExpr>(userOf(Ast, *Member)) : nullptr;
}

std::optional<HandedTo> handedTo(ASTContext &Ast, const Expr &Arg) {
  const auto *Call = dyn_cast_or_null<CallExpr>(userOf(Ast, Arg));
  if (!Call || isa<CXXOperatorCallExpr>(Call))
    return std::nullopt;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || isLibraryDecl(Callee))
    return std::nullopt;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
    if (Call->getArg(I)->IgnoreImplicit() == Arg.IgnoreImplicit() ||
        ignoreConversions(Call->getArg(I)) == ignoreConversions(&Arg))
      return isTensorInput(*Callee->getParamDecl(I)) ? std::optional<HandedTo>({Callee, I})
                                                     : std::nullopt;
  return std::nullopt;
}

bool isOnlyHandedAsHostData(ASTContext &Ast, const Expr &Copy,
                            llvm::function_ref<bool(const HandedTo &)> ReceivesHostData) {
  auto IsReceivedAsHostData = [&](const Expr &Use) {
    std::optional<HandedTo> To = handedTo(Ast, Use);
    return To && ReceivesHostData(*To);
  };
  const Expr &Chain = endOfChain(Ast, Copy);
  const VarDecl *Var = initializedVariable(Ast, Chain);
  if (!Var)
    return IsReceivedAsHostData(Chain);
  if (!holdsHostData(*Var))
    return false;
  bool Handed = false;
  const bool Other = anyUseIn(bodyOf(*Var), *Var, [&](const DeclRefExpr &Ref) {
    const Expr &Use = outermostView(Ast, Ref, *Var);
    if (&Use == &Ref && IsReceivedAsHostData(Ref))
      return !(Handed = true);
    return isDeviceUse(Ast, Use) || isReturned(Ast, Use);
  });
  return Handed && !Other;
}

bool isQueriedOnHost(ASTContext &Ast, const Expr &Call) {
  const Expr *Current = &Call;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    const auto *Parent = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Parent || !isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                        ParenExpr, MemberExpr>(Parent))
      return false;
    if (isa<MemberExpr>(Parent)) {
      DynTypedNodeList Calls = Ast.getParents(*Parent);
      const auto *Method = Calls.empty() ? nullptr : Calls[0].get<CXXMemberCallExpr>();
      return Method && !isTensorType(Method->getType());
    }
    Current = Parent;
  }
}

} // namespace to_device_migrate
