#include "WarningComments.h"
#include "SourceLines.h"
#include "compat/LlvmCompat.h"

namespace to_device_migrate {
void addWarningComments(FileResult &Result) {
  llvm::StringRef Code = Result.Original;
  for (Finding &F : Result.Findings) {
    if (F.Severity != Finding::Level::Warning || F.File != Result.Path || F.Line == 0)
      continue;
    const size_t Start = lineStart(Code, F.Line);
    llvm::StringRef Line = Code.substr(Start).take_until([](char C) { return C == '\n'; });
    const std::string Newline = compat::endsWith(Line, "\r") ? "\r\n" : "\n";
    llvm::StringRef Indent = Line.take_while([](char C) { return C == ' ' || C == '\t'; });
    const std::string Comment =
        "// to-device-migrate: warning: " + F.Message + " [" + F.Rule + "]";
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
    Edit CommentLine{static_cast<unsigned>(Start), 0, Indent.str() + Comment + Newline, F.Rule};
    if (!Present && !Result.hasEdit(CommentLine))
      F.Fixes.push_back(std::move(CommentLine));
  }
}

} // namespace to_device_migrate
