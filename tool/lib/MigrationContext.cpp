#include "MigrationContext.h"
#include "HostWrites.h"
#include "TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace to_device_migrate {

namespace {

/// Whether `torch::Device`, `torch::device()`, `torch::kCUDA` name ATen's: in
/// <torch/types.h> (brought by <torch/torch.h>, <torch/script.h>...), namespace
/// torch has `using namespace at;`. A file that only includes ATen may still
/// see a `torch` namespace (ATen declares torch::jit pieces) without it, and
/// must be spelled with `at::` (found by the corpus run in tensor_cuda.cpp).
bool torchSpellsAten(ASTContext &Context) {
  IdentifierInfo &Torch = Context.Idents.get("torch");
  for (NamedDecl *D : Context.getTranslationUnitDecl()->lookup(DeclarationName(&Torch)))
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(D))
      for (const UsingDirectiveDecl *Using : Namespace->using_directives())
        if (const NamespaceDecl *Nominated = Using->getNominatedNamespace();
            Nominated && Nominated->getName() == "at")
          return true;
  return false;
}

} // namespace

void MigrationContext::startTranslationUnit(ASTContext &Context, FileID Target,
                                            std::vector<IncludeLine> Lines,
                                            const ParseFacts &ParseFacts) {
  Facts = &ParseFacts;
  Ast = &Context;
  File = Target;
  Includes = std::move(Lines);
  const SourceManager &SM = sources();
  Result = FileResult();
  Result.Path = compat::fileName(SM, File);
  Result.Original = SM.getBufferData(File).str();
  Registrations.clear();
  RequiredIncludes.clear();
  Scope.reset();
  InsertedDeviceName.clear();
  FirstInsertedDeviceUse = ~0u;

  TorchNamespace = torchSpellsAten(Context) ? "torch" : "at";
}

FileResult MigrationContext::finishTranslationUnit() {
  FileResult Done = std::move(Result);
  Result = FileResult();
  return Done;
}

bool MigrationContext::isWrittenInFile(SourceLocation Loc) const {
  return Loc.isValid() && sources().getFileID(sources().getSpellingLoc(Loc)) == File;
}

bool MigrationContext::isExpansionInFile(SourceLocation Loc) const {
  return Loc.isValid() && sources().getFileID(sources().getExpansionLoc(Loc)) == File;
}

// A location inside a macro's body stands for the macro's use in the file (a
// factory whose last argument is `-INFINITY` gets its options after
// `INFINITY`, not in <math.h>); a macro argument, for where it is written.
unsigned MigrationContext::offsetOf(SourceLocation Loc) const {
  return sources().getFileOffset(sources().getFileLoc(Loc));
}

unsigned MigrationContext::offsetAfterToken(SourceLocation Loc) const {
  const SourceManager &SM = sources();
  if (Loc.isMacroID() && !SM.isMacroArgExpansion(Loc))
    Loc = SM.getExpansionRange(Loc).getEnd();
  SourceLocation End = Lexer::getLocForEndOfToken(SM.getFileLoc(Loc), 0, SM, Ast->getLangOpts());
  return SM.getFileOffset(End);
}

namespace {

/// Where `D` begins with every template header in front of it: an out-of-line
/// member template of a class template (`template <class M> template <class L>
/// void Trainer<M>::fit(...)`) begins, for Clang, at its own (inner) header.
SourceLocation outerBegin(const Decl &D, const SourceManager &SM) {
  SourceLocation Begin = D.getBeginLoc();
  const Decl *Inner = &D;
  if (const auto *Template = dyn_cast<TemplateDecl>(&D); Template && Template->getTemplatedDecl())
    Inner = Template->getTemplatedDecl();
  SourceLocation Outer;
  if (const auto *Declarator = dyn_cast<DeclaratorDecl>(Inner))
    Outer = Declarator->getOuterLocStart();
  else if (const auto *Tag = dyn_cast<TagDecl>(Inner))
    Outer = Tag->getOuterLocStart();
  if (Outer.isValid() && SM.isBeforeInTranslationUnit(Outer, Begin))
    Begin = Outer;
  return Begin;
}

} // namespace

std::optional<unsigned> MigrationContext::topLevelDeclarationLineStart(unsigned Offset) const {
  const SourceManager &SM = sources();
  for (const Decl *D : Ast->getTraversalScope()) {
    SourceLocation Begin = SM.getExpansionLoc(outerBegin(*D, SM));
    if (isWrittenInFile(Begin) && SM.getFileOffset(Begin) <= Offset &&
        Offset <= SM.getFileOffset(SM.getExpansionLoc(D->getEndLoc())))
      return SM.getFileOffset(Begin) - SM.getSpellingColumnNumber(Begin) + 1;
  }
  return std::nullopt;
}

/// Rules write "\n"; a file with CRLF line endings gets CRLF in every inserted
/// line too, so the output never mixes the two.
std::string MigrationContext::withFileNewlines(StringRef Text) const {
  if (!StringRef(Result.Original).contains("\r\n"))
    return Text.str();
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n' && (I == 0 || Text[I - 1] != '\r'))
      Out += '\r';
    Out += Text[I];
  }
  return Out;
}

StringRef MigrationContext::text(SourceRange TokenRange) const {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(TokenRange), sources(),
                              Ast->getLangOpts());
}

std::string MigrationContext::indentationOf(SourceLocation Loc) const {
  return Lexer::getIndentationForLine(sources().getSpellingLoc(Loc), sources()).str();
}

unsigned MigrationContext::offsetAfterStatement(const Stmt &S) const {
  SourceLocation Semicolon = S.getEndLoc();
  if (isa<Expr>(S)) // an expression statement ends before its `;`
    if (auto Next = Lexer::findNextToken(Semicolon, sources(), Ast->getLangOpts());
        Next && Next->is(tok::semi))
      Semicolon = Next->getLocation();
  unsigned After = offsetAfterToken(Semicolon);
  StringRef Code = Result.Original;
  size_t LineEnd = Code.find('\n', After);
  if (LineEnd == StringRef::npos)
    LineEnd = Code.size();
  StringRef Rest = Code.slice(After, LineEnd).trim();
  // Keep a trailing `// comment` with the statement it describes.
  if (Rest.empty() || compat::startsWith(Rest, "//"))
    return LineEnd > After && Code[LineEnd - 1] == '\r' ? LineEnd - 1 : LineEnd;
  return After;
}

std::pair<const DeclStmt *, const CompoundStmt *>
MigrationContext::declarationInBlock(const VarDecl &Var) const {
  DynTypedNodeList Parents = Ast->getParents(Var);
  const auto *Declaration = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!Declaration)
    return {nullptr, nullptr};
  DynTypedNodeList Grand = Ast->getParents(*Declaration);
  const auto *Block = Grand.empty() ? nullptr : Grand[0].get<CompoundStmt>();
  return {Block ? Declaration : nullptr, Block};
}

std::pair<const Stmt *, const CompoundStmt *> MigrationContext::statementInBlock(const Stmt &S) const {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ast->getParents(Node);
    if (Parents.empty() || (Parents[0].get<Decl>() && !Parents[0].get<VarDecl>()))
      return {nullptr, nullptr};
    if (const auto *Block = Parents[0].get<CompoundStmt>())
      return {Node.get<Stmt>(), Block};
    Node = Parents[0];
  }
}

namespace {

/// Finds `<registry>.add(..., var, ...)` on a todevice::Registry.
class RegistrationFinder : public RecursiveASTVisitor<RegistrationFinder> {
public:
  explicit RegistrationFinder(const VarDecl &Var) : Var(Var) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method || !Method->getIdentifier() || Method->getName() != "add" ||
        !isNamed(Method->getParent(), "todevice::Registry"))
      return true;
    for (const Expr *Arg : Call->arguments())
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
        Found |= Ref->getDecl() == &Var;
    return !Found;
  }
  bool Found = false;

private:
  const VarDecl &Var;
};

} // namespace

bool MigrationContext::registerInstead(const VarDecl &Var) {
  if (!Options.RegistryMode || !Var.hasLocalStorage() || Var.getType()->isReferenceType())
    return false;
  for (const Registration &R : Registrations)
    if (R.Var == &Var)
      return true;
  auto [Declaration, Body] = declarationInBlock(Var);
  if (!Body)
    return false;
  DynTypedNodeList Owner = Ast->getParents(*Body);
  const auto *Function = Owner.empty() ? nullptr : Owner[0].get<FunctionDecl>();
  if (!Function || Function->getBody() != Body || !isRewritable(Declaration->getSourceRange()))
    return false;
  RegistrationFinder Existing(Var);
  Existing.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (!Existing.Found) // registered by an earlier run: nothing more to do
    Registrations.push_back({&Var, Declaration, Body});
  return true;
}

bool MigrationContext::registerInstead(const Expr &Initializer) {
  if (!Options.RegistryMode)
    return false;
  const VarDecl *Var = initializedVariable(*Ast, Initializer);
  return Var && registerInstead(*Var);
}

bool MigrationContext::isMigratedInThisRun(SourceLocation Loc) const {
  const SourceManager &SM = sources();
  Loc = SM.getExpansionLoc(Loc);
  if (SM.isInMainFile(Loc) || SM.getFileID(Loc) == File)
    return true;
  if (!Options.IsMigratedHeader)
    return false;
  std::string Path = compat::filePath(SM, SM.getFileID(Loc));
  return !Path.empty() && Options.IsMigratedHeader(Path);
}

FileScope &MigrationContext::scope() {
  if (!Scope)
    Scope.emplace(*Ast);
  return *Scope;
}

std::string MigrationContext::deviceAt(const Stmt &Site) {
  return deviceAt(DynTypedNode::create(Site), Site.getBeginLoc());
}

std::string MigrationContext::deviceAt(const Decl &Site) {
  return deviceAt(DynTypedNode::create(Site), Site.getBeginLoc());
}

std::string MigrationContext::deviceAt(const DynTypedNode &Site, SourceLocation SiteLoc) {
  if (const VarDecl *VD = scope().findDeviceVariable(Site, SiteLoc))
    return VD->getName().str();
  return deviceForInsertedDeclaration(SiteLoc);
}

std::string MigrationContext::deviceForInsertedDeclaration(SourceLocation Site) {
  if (InsertedDeviceName.empty())
    InsertedDeviceName = freshTopLevelName("device", "target_device");
  unsigned Offset = offsetOf(sources().getExpansionLoc(Site));
  FirstInsertedDeviceUse = std::min(FirstInsertedDeviceUse, Offset);
  return InsertedDeviceName;
}

namespace {

/// Whether `torch::cuda::is_available` is declared: <torch/torch.h> declares
/// it, but a file may include only parts of LibTorch (<torch/script.h>,
/// <torch/types.h>), where `torch::cuda` is ATen's namespace without it.
bool declaresCudaAvailability(ASTContext &Ast) {
  const DeclContext *Context = Ast.getTranslationUnitDecl();
  for (StringRef Name : {"torch", "cuda"}) {
    const NamespaceDecl *Namespace = nullptr;
    for (NamedDecl *D : Context->lookup(DeclarationName(&Ast.Idents.get(Name))))
      if ((Namespace = dyn_cast<NamespaceDecl>(D)))
        break;
    if (!Namespace)
      return false;
    Context = Namespace;
  }
  return !Context->lookup(DeclarationName(&Ast.Idents.get("is_available"))).empty();
}

} // namespace

std::string MigrationContext::deviceExpression() {
  if (Options.DeviceExpr.empty() && TorchNamespace == "torch") {
    if (!declaresCudaAvailability(*Ast))
      requireInclude("torch/cuda.h");
    return "torch::cuda::is_available() ? torch::kCUDA : torch::kCPU";
  }
  if (Options.DeviceExpr.empty())
    return "at::hasCUDA() ? at::kCUDA : at::kCPU";
  if (StringRef(Options.DeviceExpr).contains("todevice::distributed::"))
    requireInclude("todevice/distributed.h");
  else if (StringRef(Options.DeviceExpr).contains("todevice::"))
    requireRuntimeInclude();
  return Options.DeviceExpr;
}

std::string MigrationContext::freshName(StringRef Preferred, StringRef Fallback) {
  return scope().freshName(Preferred, Fallback);
}

std::string MigrationContext::freshTopLevelName(StringRef Preferred, StringRef Fallback) {
  const std::string &Prefix = Options.HeaderPrefix;
  if (Prefix.empty())
    return freshName(Preferred, Fallback);
  return freshName(Prefix + "_" + Preferred.str(), Prefix + "_" + Fallback.str());
}

std::optional<std::pair<std::string, unsigned>> MigrationContext::insertedDeviceUse() const {
  if (InsertedDeviceName.empty())
    return std::nullopt;
  return std::make_pair(InsertedDeviceName, FirstInsertedDeviceUse);
}

} // namespace to_device_migrate
