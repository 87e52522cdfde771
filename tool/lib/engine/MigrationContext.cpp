#include "engine/MigrationContext.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace to_device_migrate {

void MigrationContext::startTranslationUnit(ASTContext &Context, FileID Target,
                                            std::vector<IncludeLine> Lines,
                                            const ParseFacts &ParseFacts) {
  Facts = &ParseFacts;
  Ast = &Context;
  File = Target;
  Includes = std::move(Lines);
  Path = compat::fileName(sources(), File);
  Diagnostics.emplace(sources(), Ast->getLangOpts(), File, Path, code().str());
  Device.reset(Context);
  Registry.reset();
}

FileResult MigrationContext::finishTranslationUnit() {
  FileResult Done = Diagnostics->finish();
  Diagnostics.reset();
  return Done;
}

bool MigrationContext::isWrittenInFile(SourceLocation Loc) const {
  return Loc.isValid() && sources().getFileID(sources().getSpellingLoc(Loc)) == File;
}

bool MigrationContext::isWrittenInFile(SourceRange Range) const {
  if (Range.isInvalid() || Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return false;
  return isWrittenInFile(Range.getBegin()) && isWrittenInFile(Range.getEnd());
}

bool MigrationContext::isInMacroBody(SourceRange Range) const {
  return isWrittenByMacroBody(sources(), Range.getBegin()) ||
         isWrittenByMacroBody(sources(), Range.getEnd());
}

SourceLocation MigrationContext::locationAt(unsigned Offset) const {
  return sources().getLocForStartOfFile(File).getLocWithOffset(Offset);
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

StringRef MigrationContext::text(SourceRange TokenRange) const {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(TokenRange), sources(),
                              Ast->getLangOpts());
}

std::string MigrationContext::indentationOf(SourceLocation Loc) const {
  return Lexer::getIndentationForLine(sources().getSpellingLoc(Loc), sources()).str();
}

unsigned MigrationContext::offsetAfterStatement(const Stmt &S) const {
  // A statement's range ends at its last token, which is not its `;` for an
  // expression statement, nor for a control statement whose body is one
  // (`for (...) layers.push_back(x);`), nor for a return: the `;` follows.
  SourceLocation Semicolon = S.getEndLoc();
  Token Last;
  // A `}` closes a block or a body, not an expression or a return that ends
  // in a braced initialiser (`model = MaxUnpool1d{options};`).
  const bool Closed =
      !Lexer::getRawToken(sources().getSpellingLoc(Semicolon), Last, sources(), Ast->getLangOpts(),
                          /*IgnoreWhiteSpace=*/true) &&
      (Last.is(tok::semi) || (Last.is(tok::r_brace) && !isa<Expr, ReturnStmt>(S)));
  if (!Closed)
    if (auto Next = Lexer::findNextToken(Semicolon, sources(), Ast->getLangOpts());
        Next && Next->is(tok::semi))
      Semicolon = Next->getLocation();
  unsigned After = offsetAfterToken(Semicolon);
  StringRef Code = code();
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

/// True if `Body` is the body (then, else, loop body) of the control statement `Control`.
bool isBodyOf(const Stmt *Body, const Stmt &Control) {
  if (const auto *If = dyn_cast<IfStmt>(&Control))
    return Body == If->getThen() || Body == If->getElse();
  if (const auto *For = dyn_cast<ForStmt>(&Control))
    return Body == For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(&Control))
    return Body == While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(&Control))
    return Body == Do->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(&Control))
    return Body == Range->getBody();
  return false;
}

} // namespace

MigrationContext::StatementPlace MigrationContext::placeOf(const Stmt &S) const {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ast->getParents(Node);
    if (Parents.empty() || (Parents[0].get<Decl>() && !Parents[0].get<VarDecl>()))
      return {};
    if (const auto *Block = Parents[0].get<CompoundStmt>())
      return {Node.get<Stmt>(), Block, nullptr};
    if (const auto *Control = Parents[0].get<Stmt>(); Control && isBodyOf(Node.get<Stmt>(), *Control))
      return {Node.get<Stmt>(), nullptr, Control};
    Node = Parents[0];
  }
}

MigrationContext::StatementPlace MigrationContext::placeOf(const VarDecl &Var) const {
  DynTypedNodeList Parents = Ast->getParents(Var);
  const auto *Declaration = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  return Declaration ? placeOf(*Declaration) : StatementPlace();
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

} // namespace to_device_migrate
