// Where edits and findings enter the engine: the guards every site passes
// (the macro policy, keep-cpu comments) in one place, and the one stream of
// findings (lib/Finding.h) that every output reads.
#include "MigrationContext.h"
#include "Rule.h"
#include "SourceLines.h"

#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace to_device_migrate {

bool MigrationContext::isRewritable(SourceRange Range) const {
  const SourceManager &SM = sources();
  if (Range.isInvalid() || Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return false;
  return isWrittenInFile(Range.getBegin()) && isWrittenInFile(Range.getEnd());
}

bool MigrationContext::rewritableOrReported(SourceRange Range, StringRef Rule) {
  if (isRewritable(Range))
    return true;
  const SourceManager &SM = sources();
  // A site produced by a macro used in the main file: changing the macro's body
  // would change every use, so the site is reported for a hand edit instead.
  // (report() leaves out a line marked keep-cpu.)
  if (Range.isValid() && Range.getBegin().isMacroID() &&
      isWrittenInFile(SM.getExpansionLoc(Range.getBegin())))
    report(SM.getExpansionLoc(Range.getBegin()), Finding::Level::Warning,
           "this site comes from a macro expansion and is not rewritten (changing the macro "
           "would change every use); place it on the device by hand",
           Rule);
  return false;
}

// Every edit enters here. A line the user marked keep-cpu is never changed,
// even by a rule that forgot to ask mayRewrite() (as clang-tidy filters NOLINT
// where diagnostics enter, not in each check).
void MigrationContext::addEdit(unsigned Offset, unsigned Length, StringRef Text, StringRef Rule) {
  if (isKeptOnCpuAt(Offset))
    return;
  recordEdit(Finding::Level::Rewrite, Offset, Length, Text, Rule);
}

void MigrationContext::recordEdit(Finding::Level Kind, unsigned Offset, unsigned Length,
                                  StringRef Text, StringRef Rule) {
  // An offset computed from another file's location would land anywhere in
  // this one: never recorded (found with a macro from <math.h>).
  if (Offset + Length > Result.Original.size())
    return;
  Edit E{Offset, Length, withFileNewlines(Text), Rule.str()};
  if (Result.hasEdit(E))
    return; // one template seen through two instantiations, or asked for twice
  Finding F;
  F.File = Result.Path;
  std::tie(F.Line, F.Column) = lineAndColumn(Result.Original, Offset);
  F.Offset = Offset;
  F.Severity = Kind;
  F.SourceLine = lineAt(Result.Original, Offset).str();
  F.Message = Kind == Finding::Level::Rewrite
                  ? ("not on the device yet: " + ruleSummary(Rule)).str()
                  : ruleSummary(Rule).str();
  F.Rule = Rule.str();
  F.Fixes.push_back(std::move(E));
  Result.Findings.push_back(std::move(F));
}

void MigrationContext::insert(unsigned Offset, StringRef Text, StringRef Rule) {
  addEdit(Offset, 0, Text, Rule);
}

void MigrationContext::insertSupportCode(unsigned Offset, StringRef Text, StringRef Rule) {
  recordEdit(Finding::Level::SupportCode, Offset, 0, Text, Rule);
}

void MigrationContext::replace(SourceRange TokenRange, StringRef Text, StringRef Rule) {
  unsigned Begin = offsetOf(TokenRange.getBegin());
  unsigned End = offsetAfterToken(TokenRange.getEnd());
  addEdit(Begin, End - Begin, Text, Rule);
}

void MigrationContext::addReplacement(const tooling::Replacement &R, StringRef Rule) {
  addEdit(R.getOffset(), R.getLength(), R.getReplacementText(), Rule);
}

bool MigrationContext::isKeptOnCpu(SourceLocation Loc) const {
  const SourceManager &SM = sources();
  Loc = SM.getExpansionLoc(Loc);
  if (!isWrittenInFile(Loc))
    return false;
  return isKeptOnCpuAt(SM.getFileOffset(Loc));
}

bool MigrationContext::isKeptOnCpuAt(unsigned Offset) const {
  StringRef Code = Result.Original;
  StringRef Line = lineAt(Code, Offset);
  if (Line.contains("to-device: keep-cpu") && !Line.contains("to-device: keep-cpu-next-line"))
    return true;
  return lineBefore(Code, Offset).contains("to-device: keep-cpu-next-line");
}

bool MigrationContext::mayRewrite(SourceRange Range, StringRef Rule) {
  return rewritableOrReported(Range, Rule) && !isKeptOnCpu(Range.getBegin());
}

void MigrationContext::report(SourceLocation Loc, Finding::Level Level, StringRef Message,
                              StringRef Rule) {
  if (isKeptOnCpu(Loc))
    return; // the user asked for this line to be left alone: no finding either (NOLINT-like)
  const SourceManager &SM = sources();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  Finding F;
  F.File = P.isValid() ? P.getFilename() : Result.Path;
  F.Line = P.isValid() ? P.getLine() : 0;
  F.Column = P.isValid() ? P.getColumn() : 0;
  F.Severity = Level;
  if (P.isValid()) {
    F.Offset = SM.getFileOffset(SM.getExpansionLoc(Loc));
    bool Invalid = false;
    StringRef Buffer = SM.getBufferData(SM.getFileID(SM.getExpansionLoc(Loc)), &Invalid);
    if (!Invalid)
      F.SourceLine = lineAt(Buffer, F.Offset).str();
  }
  F.Message = Message.str();
  F.Rule = Rule.str();
  Result.Findings.push_back(std::move(F));
}

} // namespace to_device_migrate
