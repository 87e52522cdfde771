#include "output/WarningComments.h"
#include "facts/SourceLines.h"
#include "compat/LlvmCompat.h"

namespace to_device_migrate {
void addWarningComments(FileResult &Result) {
  llvm::StringRef Code = Result.Original;
  std::set<std::pair<size_t, std::string>> Commented;
  for (Finding &F : Result.Findings) {
    if (F.Kind != FindingKind::Warning || F.file() != Result.Path || F.Line == 0)
      continue;
    const size_t Start = lineStart(Code, F.Line);
    llvm::StringRef Line = Code.substr(Start).take_until([](char C) { return C == '\n'; });
    const std::string Newline = compat::endsWith(Line, "\r") ? "\r\n" : "\n";
    llvm::StringRef Indent = Line.take_while([](char C) { return C == ' ' || C == '\t'; });
    const std::string Comment =
        "// to-device-migrate: warning: " + F.message() + " [" + F.rule() + "]";
    // The lines just above: a comment already there (from an earlier run) is kept as is.
    llvm::StringRef Above = Code.take_front(Start);
    bool Present = false;
    for (int Back = 0; Back < 8 && !Above.empty(); ++Back) {
      Above = Above.drop_back(); // its newline
      size_t Begin = Above.rfind('\n');
      llvm::StringRef Previous = Above.substr(Begin == llvm::StringRef::npos ? 0 : Begin + 1).trim();
      if (!compat::startsWith(Previous, "// to-device-migrate:"))
        break;
      Present |= Previous == Comment;
      Above = Above.take_front(Begin == llvm::StringRef::npos ? 0 : Begin + 1);
    }
    const std::string Text = Indent.str() + Comment + Newline;
    if (Present || !Commented.insert({Start, Text}).second)
      continue; // one comment for the same warning twice on a line
    const clang::tooling::Replacement Inserted(Result.Path, Start, 0, Text);
    if (Result.overlappingEdit(Inserted))
      continue; // the line starts inside a rule's edit: the warning is printed only
    llvm::consumeError(F.Diag.Message.Fix[Result.Path].add(Inserted));
    Result.mergeEdit(Inserted);
  }
}

} // namespace to_device_migrate
