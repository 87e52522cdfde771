#include "engine/Rule.h"

using namespace clang;

namespace to_device_migrate {

DiagnosticBuilder Rule::diag(SourceLocation Loc, StringRef Message, DiagnosticIDs::Level Level) const {
  return Ctx.diagnostics().diag(Name, Loc, Message, Level);
}

DiagnosticBuilder Rule::rewrite(SourceRange Site, const FixItHint &Fix) const {
  DiagnosticBuilder Builder =
      diag(Fix.RemoveRange.getBegin(), ("not on the device yet: " + ruleSummary(Name)).str());
  if (Site.isValid())
    Builder << Site;
  Builder << Fix;
  return Builder;
}

DiagnosticBuilder Rule::supportCode(const FixItHint &Fix) const {
  DiagnosticBuilder Builder = diag(Fix.RemoveRange.getBegin(), ruleSummary(Name), DiagnosticIDs::Remark);
  Builder << Fix;
  return Builder;
}

namespace {

/// The last token of a control statement's header, before its body: the `)`
/// of `if (...)`, `for (...)`, `while (...)`; `else`; `do`.
SourceLocation headerEnd(const Stmt &Control, const Stmt &Body) {
  if (const auto *If = dyn_cast<IfStmt>(&Control))
    return &Body == If->getElse() ? If->getElseLoc() : If->getRParenLoc();
  if (const auto *For = dyn_cast<ForStmt>(&Control))
    return For->getRParenLoc();
  if (const auto *While = dyn_cast<WhileStmt>(&Control))
    return While->getRParenLoc();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(&Control))
    return Range->getRParenLoc();
  if (const auto *Do = dyn_cast<DoStmt>(&Control))
    return Do->getDoLoc();
  return SourceLocation();
}

} // namespace

void Rule::insertAfterStatement(SourceRange Site, const MigrationContext::StatementPlace &Place,
                                llvm::function_ref<std::string(StringRef Indent)> Statements) const {
  const Stmt &After = *Place.Statement;
  const SourceManager &SM = Ctx.sources();
  if (!Place.Control) {
    // `{ model = Model(w); }` on one line: the statements go on that line too.
    if (Place.Block && SM.getSpellingLineNumber(After.getEndLoc()) ==
                           SM.getSpellingLineNumber(Place.Block->getRBracLoc())) {
      std::string Inline = Statements("");
      std::replace(Inline.begin(), Inline.end(), '\n', ' ');
      rewrite(Site, insertion(Ctx.offsetAfterStatement(After), Inline));
      return;
    }
    rewrite(Site, insertion(Ctx.offsetAfterStatement(After),
                            Statements(Ctx.indentationOf(After.getBeginLoc()))));
    return;
  }
  // `if (c) net = Net();` -> `if (c) { net = Net(); <Statements> }`, the
  // statements on lines of their own.
  const std::string Outer = Ctx.indentationOf(Place.Control->getBeginLoc());
  const SourceLocation Header = headerEnd(*Place.Control, After);
  const bool OwnLine = SM.getSpellingLineNumber(After.getBeginLoc()) !=
                       SM.getSpellingLineNumber(Header);
  const std::string Inner = OwnLine ? Ctx.indentationOf(After.getBeginLoc()) : Outer + "  ";
  rewrite(Site, insertion(Ctx.offsetAfterToken(Header), " {"))
      << insertion(Ctx.offsetAfterStatement(After), Statements(Inner) + "\n" + Outer + "}");
}

FixItHint Rule::insertion(unsigned Offset, StringRef Text) const {
  return FixItHint::CreateInsertion(Ctx.locationAt(Offset), Text);
}

FixItHint Rule::replacement(SourceRange TokenRange, StringRef Text) const {
  return replacement(Ctx.offsetOf(TokenRange.getBegin()), Ctx.offsetAfterToken(TokenRange.getEnd()),
                     Text);
}

FixItHint Rule::replacement(unsigned Begin, unsigned End, StringRef Text) const {
  return FixItHint::CreateReplacement(
      CharSourceRange::getCharRange(Ctx.locationAt(Begin), Ctx.locationAt(End)), Text);
}

} // namespace to_device_migrate
