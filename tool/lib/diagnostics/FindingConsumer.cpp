#include "diagnostics/FindingConsumer.h"
#include "facts/SourceLines.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace to_device_migrate {

FindingConsumer::FindingConsumer(const SourceManager &SM, const LangOptions &LangOpts,
                                 FileID File, std::string Path, std::string Original)
    : SM(SM), LangOpts(LangOpts), File(File) {
  Result.Path = std::move(Path);
  Result.Original = std::move(Original);
}

void FindingConsumer::HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  SmallString<256> Message;
  Info.FormatDiagnostic(Message);
  const bool HasFixes = Info.getNumFixItHints() > 0;
  const bool SupportCode = HasFixes && Level == DiagnosticsEngine::Remark;
  if (!SupportCode && isKeptOnCpu(Info))
    return; // the user asked for this line to be left alone: no finding either (NOLINT-like)
  if (!HasFixes) {
    // A finding about a site (its range streamed in) that a macro's body wrote,
    // or that lies in a file this run does not migrate, goes with that site:
    // the macro's use is reported by the edits refused there.
    if (!Info.getRanges().empty() && (macroBodyUse(Info) || !isInFile(Info)))
      return;
    accept(Level == DiagnosticsEngine::Warning ? FindingKind::Warning : FindingKind::Note,
           Info.getLocation(), Message);
    return;
  }
  if (std::optional<SourceLocation> Use = macroBodyUse(Info)) {
    if (SM.getFileID(*Use) == File && MacroUses.emplace(SM.getFileOffset(*Use), Rule).second)
      accept(FindingKind::Warning, *Use,
             "this site comes from a macro expansion and is not rewritten (changing the macro "
             "would change every use); place it on the device by hand");
    return;
  }
  if (isInFile(Info))
    acceptEdits(Level, Info, Message);
}

bool FindingConsumer::isKeptOnCpuAt(unsigned Offset) const {
  StringRef Code = Result.Original;
  if (Offset > Code.size())
    return false;
  StringRef Line = lineAt(Code, Offset);
  if (Line.contains("to-device: keep-cpu") && !Line.contains("to-device: keep-cpu-next-line"))
    return true;
  return lineBefore(Code, Offset).contains("to-device: keep-cpu-next-line");
}

bool FindingConsumer::isKeptOnCpu(const Diagnostic &Info) const {
  auto KeptAt = [&](SourceLocation Loc) {
    Loc = SM.getExpansionLoc(Loc);
    return Loc.isValid() && SM.getFileID(Loc) == File && isKeptOnCpuAt(SM.getFileOffset(Loc));
  };
  if (KeptAt(Info.getLocation()))
    return true;
  for (const CharSourceRange &Site : Info.getRanges())
    if (KeptAt(Site.getBegin()))
      return true;
  for (const FixItHint &Fix : Info.getFixItHints())
    if (KeptAt(Fix.RemoveRange.getBegin()))
      return true;
  return false;
}

bool isWrittenByMacroBody(const SourceManager &SM, SourceLocation Loc) {
  while (Loc.isMacroID()) {
    if (!SM.isMacroArgExpansion(Loc))
      return true;
    Loc = SM.getImmediateSpellingLoc(Loc);
  }
  return false;
}

std::optional<SourceLocation> FindingConsumer::macroBodyUse(const Diagnostic &Info) const {
  for (const CharSourceRange &Site : Info.getRanges())
    for (SourceLocation End : {Site.getBegin(), Site.getEnd()})
      if (End.isValid() && isWrittenByMacroBody(SM, End))
        return SM.getExpansionLoc(Site.getBegin());
  for (const FixItHint &Fix : Info.getFixItHints())
    for (SourceLocation End : {Fix.RemoveRange.getBegin(), Fix.RemoveRange.getEnd()})
      if (isWrittenByMacroBody(SM, End))
        return SM.getExpansionLoc(Fix.RemoveRange.getBegin());
  return std::nullopt;
}

bool FindingConsumer::isInFile(const Diagnostic &Info) const {
  auto Written = [&](SourceLocation Loc) {
    return Loc.isValid() && SM.getFileID(SM.getFileLoc(Loc)) == File;
  };
  for (const CharSourceRange &Site : Info.getRanges())
    if (!Written(Site.getBegin()) || !Written(Site.getEnd()))
      return false;
  for (const FixItHint &Fix : Info.getFixItHints())
    if (!Written(Fix.RemoveRange.getBegin()) || !Written(Fix.RemoveRange.getEnd()))
      return false;
  return true;
}

std::pair<unsigned, unsigned> FindingConsumer::offsetsOf(const CharSourceRange &Range) const {
  unsigned Begin = SM.getFileOffset(SM.getFileLoc(Range.getBegin()));
  SourceLocation End = SM.getFileLoc(Range.getEnd());
  if (Range.isTokenRange())
    End = Lexer::getLocForEndOfToken(End, 0, SM, LangOpts);
  return {Begin, std::max(Begin, SM.getFileOffset(End))};
}

std::string FindingConsumer::withFileNewlines(StringRef Text) const {
  // Rules write "\n"; a file with CRLF line endings gets CRLF in every inserted
  // line too, so the output never mixes the two.
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

void FindingConsumer::acceptEdits(DiagnosticsEngine::Level Level, const Diagnostic &Info,
                                  StringRef Message) {
  tooling::Replacements Fixes;
  for (const FixItHint &Fix : Info.getFixItHints()) {
    auto [Begin, End] = offsetsOf(Fix.RemoveRange);
    tooling::Replacement New(Result.Path, Begin, End - Begin, withFileNewlines(Fix.CodeToInsert));
    if (Seen.count({Begin, End - Begin, New.getReplacementText().str()}))
      continue; // made already (one template seen through two instantiations)
    if (std::optional<tooling::Replacement> Other = Result.overlappingEdit(New)) {
      // Both cannot be made: as clang-tidy does, the first one accepted is
      // kept and this site stays where it is, said at its line.
      const Finding *Owner = Result.findingOf(*Other);
      const unsigned Line = lineAndColumn(Result.Original, Other->getOffset()).first;
      accept(FindingKind::Warning, Info.getLocation(),
             (Message + "; not rewritten: its edit overlaps the edit of rule '" +
              (Owner ? Owner->rule() : std::string("?")) + "' at line " + std::to_string(Line) +
              "; place it by hand")
                 .str());
      return;
    }
    llvm::consumeError(Fixes.add(New));
  }
  if (Fixes.empty())
    return; // every edit of it is made already
  for (const tooling::Replacement &Fix : Fixes) {
    Seen.insert({Fix.getOffset(), Fix.getLength(), Fix.getReplacementText().str()});
    Result.mergeEdit(Fix);
  }
  accept(Level == DiagnosticsEngine::Remark ? FindingKind::SupportCode : FindingKind::Rewrite,
         Info.getLocation(), Message);
  Result.Findings.back().Diag.Message.Fix[Result.Path] = std::move(Fixes);
}

void FindingConsumer::accept(FindingKind Kind, SourceLocation Loc, StringRef Message) {
  Finding F;
  F.Kind = Kind;
  F.Diag.DiagnosticName = Rule;
  F.Diag.Message.Message = Message.str();
  F.Diag.DiagLevel = F.isWarning() ? tooling::Diagnostic::Warning : tooling::Diagnostic::Remark;
  SourceLocation At = SM.getExpansionLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(At);
  F.Diag.Message.FilePath = P.isValid() ? P.getFilename() : Result.Path;
  if (P.isValid()) {
    F.Line = P.getLine();
    F.Column = P.getColumn();
    F.Diag.Message.FileOffset = SM.getFileOffset(At);
  }
  if (SM.getFileID(At) == File)
    F.Diag.Message.FilePath = Result.Path;
  Result.Findings.push_back(std::move(F));
}

FileResult FindingConsumer::takeResult() {
  FileResult Done = std::move(Result);
  Result = FileResult();
  return Done;
}

FileDiagnostics::FileDiagnostics(const SourceManager &SM, const LangOptions &LangOpts,
                                 FileID File, std::string Path, std::string Original)
    : Consumer(SM, LangOpts, File, std::move(Path), std::move(Original)), Diagnostics(Consumer) {
  // The engine reads locations through the parse's SourceManager; it changes nothing in it.
  Diagnostics.engine().setSourceManager(const_cast<SourceManager *>(&SM));
}

DiagnosticBuilder FileDiagnostics::diag(StringRef Rule, SourceLocation Loc, StringRef Message,
                                        DiagnosticIDs::Level Level) {
  // A standalone note would be dropped by the engine (a note follows a
  // diagnostic): notes are remarks here, and findings of kind Note.
  if (Level == DiagnosticIDs::Note)
    Level = DiagnosticIDs::Remark;
  DiagnosticsEngine &Engine = Diagnostics.engine();
  const unsigned ID = Engine.getDiagnosticIDs()->getCustomDiagID(Level, "%0");
  Consumer.setRule(Rule);
  return std::move(Engine.Report(Loc, ID) << Message);
}

} // namespace to_device_migrate
