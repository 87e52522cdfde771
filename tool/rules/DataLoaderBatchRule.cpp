#include "DataLoaderBatchRule.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/PerSampleCode.h"
#include "facts/TorchTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "compat/LlvmCompat.h"

#include <map>
#include <set>
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// Does `S` mention `Var`?
bool mentions(const Stmt &S, const VarDecl &Var) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(&S); Ref && Ref->getDecl() == &Var)
    return true;
  return llvm::any_of(S.children(), [&](const Stmt *Child) { return Child && mentions(*Child, Var); });
}

/// Calls `Found` with every reference to `Var` in `S`.
template <typename Callback>
void forEachReference(const Stmt &S, const VarDecl &Var, Callback &&Found) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(&S); Ref && Ref->getDecl() == &Var)
    Found(*Ref);
  for (const Stmt *Child : S.children())
    if (Child)
      forEachReference(*Child, Var, Found);
}

/// `x.to(device)`: already a move to a device.
bool isDeviceMove(const Expr &E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(ignoreConversions(&E)->IgnoreParens());
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  return Method && Method->getIdentifier() && Method->getName() == "to" && Call->getNumArgs() &&
         isDeviceExpression(*ignoreConversions(Call->getArg(0)));
}

/// Is `S` a guard that skips or leaves the loop without the batch (`if (i >=
/// max_batches) continue;`, `if (done) break;`)?
bool isGuard(const Stmt &S, const VarDecl &Batch) {
  const auto *If = dyn_cast<IfStmt>(&S);
  if (!If || If->getElse() || If->hasInitStorage() || mentions(S, Batch))
    return false;
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then))
    Then = Block->body_empty() ? nullptr : Block->body_back();
  return isa_and_nonnull<ContinueStmt, BreakStmt, ReturnStmt, GotoStmt>(Then);
}

/// The member path from the batch variable to `E` (`data`, `data.first`,
/// `observations`), or "" when `E` is not a member access rooted at `Batch`.
/// In a template's own body (not instantiated) the accesses are dependent
/// member expressions, looked at by name.
std::string pathFromBatch(const VarDecl &Batch, const Expr *E) {
  std::string Path;
  E = E->IgnoreParenImpCasts();
  while (true) {
    llvm::StringRef Name;
    const Expr *Base = nullptr;
    if (const auto *Member = dyn_cast<MemberExpr>(E);
        Member && isa<FieldDecl>(Member->getMemberDecl()) && !Member->isArrow()) {
      Name = Member->getMemberDecl()->getName();
      Base = Member->getBase();
    } else if (const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(E);
               Dependent && !Dependent->isImplicitAccess() && !Dependent->isArrow()) {
      Name = Dependent->getMember().getAsIdentifierInfo()
                 ? Dependent->getMember().getAsIdentifierInfo()->getName()
                 : "";
      Base = Dependent->getBase();
    }
    if (Name.empty() || !Base)
      return "";
    Path = Path.empty() ? Name.str() : Name.str() + "." + Path;
    Base = Base->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
      return Ref->getDecl() == &Batch ? Path : "";
    E = Base;
  }
}

/// The tensors of a batch that a loop body uses — `batch.data`,
/// `batch.target`, `batch.data.first` of an Example holding a pair, the
/// tensor fields of a custom batch — each with its uses, and whether the body
/// already moves or replaces it.
class BatchTensors : public RecursiveASTVisitor<BatchTensors> {
public:
  BatchTensors(const VarDecl &Batch, bool Assumed) : Batch(Batch), Assumed(Assumed) {}

  bool VisitMemberExpr(MemberExpr *Member) {
    record(Member);
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *Member) {
    if (Member->getMember().getAsString() == "to") {
      if (std::string Path = pathFromBatch(Batch, Member->getBase()); !Path.empty())
        Handled.insert(Path); // `batch.data.to(...)` in a template: the user moves it
      return true;
    }
    record(Member);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->isAssignmentOp() && Op->getNumArgs())
      markHandled(Op->getArg(0)); // `batch.data = ...`
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) { // type-dependent `batch.data = ...`
    if (Op->isAssignmentOp())
      markHandled(Op->getLHS());
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    if (isDeviceMove(*Call))
      markHandled(Call->getImplicitObjectArgument()); // `batch.data.to(device)` somewhere
    return true;
  }

  /// Paths in the order first used, and the uses of each.
  std::vector<std::string> Paths;
  std::map<std::string, std::vector<const Expr *>> Uses;
  std::set<std::string> Handled;

private:
  /// A tensor of the batch: the shortest path from it whose type is a tensor
  /// (in an uninstantiated template, `data` and `target`, taken for tensors).
  void record(const Expr *E) {
    std::string Path = pathFromBatch(Batch, E);
    if (Path.empty())
      return;
    const bool Tensor = Assumed ? (Path == "data" || Path == "target") : isTensorType(E->getType());
    if (!Tensor)
      return;
    // `batch.data.first` is met as `first` over `data`: a longer path over a
    // tensor already recorded is that tensor's use.
    if (!Uses.count(Path))
      Paths.push_back(Path);
    Uses[Path].push_back(E);
  }
  void markHandled(const Expr *E) {
    if (std::string Path = pathFromBatch(Batch, E); !Path.empty())
      Handled.insert(Path);
  }
  const VarDecl &Batch;
  bool Assumed;
};

/// Whether the template holding `Var` is instantiated in this file (then each
/// instantiation says what the loop variable really is).
bool isInstantiated(const VarDecl &Var) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  if (!Function)
    return false;
  if (const FunctionTemplateDecl *Template = Function->getDescribedFunctionTemplate())
    return !Template->specializations().empty();
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function))
    if (const ClassTemplateDecl *Template = Method->getParent()->getDescribedClassTemplate())
      return !Template->specializations().empty();
  return false;
}

bool isExampleType(QualType Type) {
  const auto *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  return isNamed(Record, "torch::data::Example");
}

/// A loop over a data loader (`for (auto &batch : *loader)`): each element is a
/// batch, whatever a custom collation made of it.
bool isLoaderLoop(const CXXForRangeStmt &Loop) {
  const Expr *Range = Loop.getRangeInit();
  if (!Range)
    return false;
  QualType Type = Range->getType().getNonReferenceType();
  if (const auto *Deref = dyn_cast<UnaryOperator>(Range->IgnoreParenImpCasts());
      Deref && Deref->getOpcode() == UO_Deref)
    Type = Deref->getSubExpr()->getType()->getPointeeType();
  const CXXRecordDecl *Record = Type.isNull() ? nullptr : Type->getAsCXXRecordDecl();
  return Record && isOrDerivesFrom(Record, "torch::data::DataLoaderBase");
}

/// Does `S` reach a module (a variable, member or expression whose type is,
/// points to or holds one)? A value computed with one is the model's output.
bool reachesModule(const Stmt &S) {
  if (const auto *E = dyn_cast<Expr>(&S);
      E && isa<DeclRefExpr, MemberExpr>(E) &&
      classifyModuleSlot(E->getType().getNonReferenceType()).holdsModules())
    return true;
  return llvm::any_of(S.children(),
                      [](const Stmt *Child) { return Child && reachesModule(*Child); });
}

/// Does `S` mention a tensor of the batch (`batch.data`): those are moved
/// as such (moveFields()).
bool mentionsBatchTensor(const Stmt &S, const VarDecl &Batch) {
  if (const auto *E = dyn_cast<Expr>(&S); E && isa<MemberExpr>(E) &&
                                           isTensorType(E->getType()) &&
                                           !pathFromBatch(Batch, E).empty())
    return true;
  return llvm::any_of(S.children(), [&](const Stmt *Child) {
    return Child && mentionsBatchTensor(*Child, Batch);
  });
}

} // namespace

void DataLoaderBatchRule::registerMatchers(MatchFinder *Finder) {
  // A sample taken from a data set by hand (`auto sample = dataset.get(i);`):
  // built per sample on the CPU, used like a batch.
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               varDecl(isExpansionInFile(Ctx.file()), hasLocalStorage(),
                       unless(hasType(referenceType())),
                       hasInitializer(ignoringImplicit(
                           cxxMemberCallExpr(callee(cxxMethodDecl().bind("method"))))))
                   .bind("sample")),
      this);
  auto Loop = cxxForRangeStmt(isExpansionInFile(Ctx.file()), hasBody(stmt().bind("body")));
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, Loop.bind("loop")), this);
  // `template <typename Loader> void train(Loader &loader)`: the batch's type
  // is known only in each instantiation, whose locations are the template's;
  // the first instantiation rewrites the loop once.
  Finder->addMatcher(
      traverse(TK_AsIs, cxxForRangeStmt(Loop, isInTemplateInstantiation()).bind("loop")), this);
}

void DataLoaderBatchRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Sample = Result.Nodes.getNodeAs<VarDecl>("sample")) {
    moveSample(*Sample, *Result.Nodes.getNodeAs<CXXMethodDecl>("method"));
    return;
  }
  const auto *Loop = Result.Nodes.getNodeAs<CXXForRangeStmt>("loop");
  const Stmt *Body = Result.Nodes.getNodeAs<Stmt>("body");
  // The body's statements: a block's, or the one statement of an unbraced
  // body (which gets braces around it and the moves).
  const auto *Block = dyn_cast<CompoundStmt>(Body);
  llvm::ArrayRef<const Stmt *> Statements =
      Block ? llvm::ArrayRef<const Stmt *>(Block->body_begin(), Block->body_end())
            : llvm::ArrayRef<const Stmt *>(Body);
  const VarDecl *Batch = Loop->getLoopVariable();
  if (!Batch || Statements.empty() || isa<NullStmt>(Statements.front()) || Ctx.isPerSampleCode(*Loop))
    return;
  // Uninstantiated template: a dependent loop variable whose `.data` or
  // `.target` is used is taken for a batch (moving a tensor already on the
  // device costs nothing), and a note says so.
  const bool Assumed = Batch->getType()->isDependentType() && !isInstantiated(*Batch);
  if (!Assumed && !isExampleType(Batch->getType()) && !isLoaderLoop(*Loop))
    return;
  if (!RewrittenLoops.insert(Ctx.offsetOf(Loop->getBeginLoc())).second)
    return; // another instantiation of the same loop
  if (!Assumed)
    moveDerivedTensors(*Batch, *Body, Statements);
  std::string Moves = moveFields(*Batch, *Body, Statements, Assumed);
  if (Moves.empty())
    return;
  if (!Block) { // `for (auto &b : *loader) f(b.data);` -> `for (...) {` moves `f(b.data);` `}`
    rewrite(Body->getSourceRange(), insertion(Ctx.offsetAfterToken(Loop->getRParenLoc()), " {" + Moves))
        << SourceRange(Loop->getBeginLoc());
    rewrite(Body->getSourceRange(), insertion(Ctx.offsetAfterStatement(*Body),
                                              "\n" + Ctx.indentationOf(Loop->getBeginLoc()) + "}"));
  } else {
    // After the guards that skip batches without using them: a batch the
    // loop skips (`if (i >= max_batches) continue;`) is not copied.
    const Stmt *const *FirstUse =
        llvm::find_if_not(Statements, [&](const Stmt *S) { return isGuard(*S, *Batch); });
    if (FirstUse == Statements.begin() || FirstUse == Statements.end())
      rewrite(Body->getSourceRange(), insertion(Ctx.offsetAfterToken(Block->getLBracLoc()), Moves))
          << SourceRange(Loop->getBeginLoc());
    else // Moves is "\n<indent>move;..." : before the statement, each on its line
      rewrite(Body->getSourceRange(),
              insertion(Ctx.offsetOf((*FirstUse)->getBeginLoc()),
                        llvm::StringRef(Moves).ltrim("\n").ltrim(" \t").str() + "\n" +
                            Ctx.indentationOf((*FirstUse)->getBeginLoc())))
          << SourceRange(Loop->getBeginLoc());
  }
  if (Assumed)
    diag(Batch->getLocation(),
         "'" + Batch->getName().str() +
             "' is taken for a data-loader batch (its type depends on a template "
             "parameter and the template is not instantiated in this file); its data "
             "and target are moved to the device",
         DiagnosticIDs::Note)
        << Body->getSourceRange();
}

void DataLoaderBatchRule::moveSample(const VarDecl &Sample, const CXXMethodDecl &Method) {
  if (!isPerSampleClass(Method.getParent()) || isTensorType(Sample.getType()) ||
      Sample.getType().isConstQualified() || Ctx.isPerSampleCode(Sample))
    return;
  MigrationContext::StatementPlace Place = Ctx.placeOf(Sample);
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Sample.getParentFunctionOrMethod());
  if (!Place.Statement || !Place.Block || !Function || !Function->getBody())
    return;
  BatchTensors Tensors(Sample, /*Assumed=*/false);
  Tensors.TraverseStmt(Function->getBody());
  std::vector<std::string> Moved;
  // A field gathered into rows the program stacks itself (`states.push_back(
  // sample.data)`, then `torch::stack(states)`) is moved with the stacked
  // batch, once (HostMemoryTensorRule), as in a loader's loop.
  for (const std::string &Path : Tensors.Paths)
    if (!Tensors.Handled.count(Path) &&
        llvm::any_of(Tensors.Uses[Path], [&](const Expr *Use) {
          return isDeviceUse(Ctx.ast(), *Use) && !isGatheredField(Ctx.ast(), *Use);
        }))
      Moved.push_back(Path);
  if (Moved.empty())
    return;
  const std::string Device = Ctx.device().at(*Place.Statement);
  insertAfterStatement(Sample.getSourceRange(), Place, [&](llvm::StringRef Indent) {
    std::string Text;
    for (const std::string &Path : Moved) {
      const std::string Source = Sample.getName().str() + "." + Path;
      Text += ("\n" + Indent + Source + " = " + Source + ".to(" + Device + ");").str();
    }
    return Text;
  });
}

std::string DataLoaderBatchRule::moveFields(const VarDecl &Batch, const Stmt &Body,
                                            llvm::ArrayRef<const Stmt *> Statements, bool Assumed) {
  bool IsConst = Batch.getType().getNonReferenceType().isConstQualified();
  std::string Indent = Ctx.indentationOf(Statements.front()->getBeginLoc());
  BatchTensors Tensors(Batch, Assumed);
  Tensors.TraverseStmt(const_cast<Stmt *>(&Body));
  std::string Moves;
  for (const std::string &Path : Tensors.Paths) {
    // A path below one already handled or recorded is its use.
    if (llvm::any_of(Tensors.Paths, [&](const std::string &Other) {
          return Other != Path && compat::startsWith(Path, Other + ".");
        }) ||
        Tensors.Handled.count(Path))
      continue;
    // Examples of a batch the program stacks itself (`data.push_back(e.data)`
    // then `torch::stack(data)`): the stacked batch is moved, once
    // (HostMemoryTensorRule), not each example.
    if (llvm::all_of(Tensors.Uses[Path],
                     [&](const Expr *Use) { return isGatheredField(Ctx.ast(), *Use); }))
      continue;
    std::string Source = Batch.getName().str() + "." + Path;
    std::string Device = Ctx.device().at(*Statements.front());
    if (!IsConst) {
      Moves += "\n" + Indent + Source + " = " + Source + ".to(" + Device + ");";
      continue;
    }
    std::string Flat = Path;
    std::replace(Flat.begin(), Flat.end(), '.', '_');
    std::string Local =
        Ctx.device().freshName(Batch.getName().str() + "_" + Flat, Flat + "_on_device");
    Moves += "\n" + Indent + "auto " + Local + " = " + Source + ".to(" + Device + ");";
    for (const Expr *Use : Tensors.Uses[Path])
      rewrite(Use->getSourceRange(), replacement(Use->getSourceRange(), Local));
  }
  return Moves;
}

void DataLoaderBatchRule::moveDerivedTensors(const VarDecl &Batch, const Stmt &Body,
                                             llvm::ArrayRef<const Stmt *> Statements) {
  // Locals computed from the batch, in order: `auto parts = collate(batch);`,
  // then `torch::Tensor x = parts.at(0);`. No module takes part.
  llvm::SmallPtrSet<const VarDecl *, 8> Derived{&Batch};
  auto FromBatch = [&](const Expr &Init) {
    return llvm::any_of(Derived, [&](const VarDecl *Var) { return mentions(Init, *Var); }) &&
           !reachesModule(Init) && !mentionsBatchTensor(Init, Batch);
  };
  for (const Stmt *Statement : Statements) {
    const auto *Declaration = dyn_cast<DeclStmt>(Statement);
    if (!Declaration)
      continue;
    for (const Decl *D : Declaration->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      const Expr *Init = Var ? Var->getInit() : nullptr;
      // A number (`batch.size()`) carries no batch data: factories sized by
      // it are tensor-factory's.
      if (!Init || Var->getType()->isScalarType() || !FromBatch(*Init))
        continue;
      Derived.insert(Var);
      if (!isTensorType(Var->getType()) || Var->getType()->isReferenceType() ||
          isDeviceMove(*Init) || isBroughtToHost(*Init))
        continue;
      // Moved where it is made, when device code uses it.
      bool DeviceUse = false;
      forEachReference(Body, *Var, [&](const DeclRefExpr &Ref) {
        DeviceUse |= isDeviceUse(Ctx.ast(), Ref);
      });
      if (!DeviceUse)
        continue;
      const Expr *Value = ignoreConversions(Init)->IgnoreParens();
      const bool Postfix =
          isa<CallExpr, DeclRefExpr, MemberExpr, ArraySubscriptExpr>(Value) &&
          !isa<CXXOperatorCallExpr>(Value);
      if (!Postfix)
        rewrite(Value->getSourceRange(), insertion(Ctx.offsetOf(Value->getBeginLoc()), "("));
      rewrite(Value->getSourceRange(),
              insertion(Ctx.offsetAfterToken(Value->getEndLoc()),
                        (Postfix ? ".to(" : ").to(") + Ctx.device().at(*Value) + ")"));
    }
  }
}

} // namespace to_device_migrate
