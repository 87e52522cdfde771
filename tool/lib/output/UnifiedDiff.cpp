#include "output/UnifiedDiff.h"
#include "compat/LlvmCompat.h"

#include "llvm/Support/FormatVariadic.h"

#include <vector>

namespace to_device_migrate {
namespace {

constexpr unsigned Context = 3;

/// Start offsets of every line, plus the end of the text.
std::vector<unsigned> lineStarts(llvm::StringRef Code) {
  std::vector<unsigned> Starts{0};
  for (unsigned I = 0; I < Code.size(); ++I)
    if (Code[I] == '\n' && I + 1 < Code.size())
      Starts.push_back(I + 1);
  Starts.push_back(Code.size());
  return Starts;
}

/// The 0-based line containing `Offset`.
unsigned lineOf(const std::vector<unsigned> &Starts, unsigned Offset) {
  unsigned Line = std::upper_bound(Starts.begin(), Starts.end() - 1, Offset) - Starts.begin();
  return Line == 0 ? 0 : Line - 1;
}

void emitLines(std::string &Out, char Prefix, llvm::StringRef Text) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    bool HasNewline = Text.size() > Line.size();
    Out += Prefix;
    Out += Line.str();
    Out += '\n';
    if (!HasNewline)
      Out += "\\ No newline at end of file\n";
    Text = Rest;
    if (HasNewline && Rest.empty())
      break;
  }
}

std::vector<llvm::StringRef> splitLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    End = End == llvm::StringRef::npos ? Text.size() : End + 1;
    Lines.push_back(Text.take_front(End));
    Text = Text.drop_front(End);
  }
  return Lines;
}

/// The changed region line by line: lines both sides share (a longest common
/// subsequence, small inside one hunk) are context, the rest removed/added.
void emitChange(std::string &Out, llvm::StringRef Old, llvm::StringRef New) {
  std::vector<llvm::StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<std::vector<unsigned>> Common(A.size() + 1, std::vector<unsigned>(B.size() + 1, 0));
  for (size_t I = A.size(); I-- > 0;)
    for (size_t J = B.size(); J-- > 0;)
      Common[I][J] = A[I] == B[J] ? Common[I + 1][J + 1] + 1
                                  : std::max(Common[I + 1][J], Common[I][J + 1]);
  size_t I = 0, J = 0;
  while (I < A.size() || J < B.size()) {
    if (I < A.size() && J < B.size() && A[I] == B[J]) {
      emitLines(Out, ' ', A[I++]);
      ++J;
    } else if (I < A.size() && (J == B.size() || Common[I + 1][J] >= Common[I][J + 1])) {
      emitLines(Out, '-', A[I++]); // removals first, as diff(1) prints them
    } else {
      emitLines(Out, '+', B[J++]);
    }
  }
}

unsigned countLines(llvm::StringRef Text) {
  if (Text.empty())
    return 0;
  return Text.count('\n') + (compat::endsWith(Text, "\n") ? 0 : 1);
}

} // namespace

std::string unifiedDiff(llvm::StringRef Path, llvm::StringRef Code,
                        const clang::tooling::Replacements &Replaces) {
  if (Replaces.empty())
    return "";
  std::vector<unsigned> Starts = lineStarts(Code);
  unsigned LineCount = Starts.size() - 1;

  // Group replacements whose changed lines are close enough to share context.
  struct Hunk {
    unsigned FirstLine, LastLine; // changed lines of the original, inclusive
    std::vector<clang::tooling::Replacement> Edits;
  };
  std::vector<Hunk> Hunks;
  for (const clang::tooling::Replacement &R : Replaces) {
    unsigned First = lineOf(Starts, R.getOffset());
    unsigned Last = lineOf(Starts, R.getOffset() + (R.getLength() ? R.getLength() - 1 : 0));
    if (!Hunks.empty() && First <= Hunks.back().LastLine + 2 * Context + 1) {
      Hunks.back().LastLine = std::max(Hunks.back().LastLine, Last);
      Hunks.back().Edits.push_back(R);
    } else {
      Hunks.push_back({First, Last, {R}});
    }
  }

  std::string Out = llvm::formatv("--- a/{0}\n+++ b/{0}\n", Path).str();
  int Delta = 0; // lines added so far
  for (const Hunk &H : Hunks) {
    unsigned Begin = H.FirstLine >= Context ? H.FirstLine - Context : 0;
    unsigned End = std::min(LineCount - 1, H.LastLine + Context);
    unsigned ChangedBegin = Starts[H.FirstLine], ChangedEnd = Starts[H.LastLine + 1];
    llvm::StringRef Old = Code.slice(ChangedBegin, ChangedEnd);
    std::string New;
    unsigned Cursor = ChangedBegin;
    for (const clang::tooling::Replacement &R : H.Edits) {
      New += Code.slice(Cursor, R.getOffset()).str() + R.getReplacementText().str();
      Cursor = R.getOffset() + R.getLength();
    }
    New += Code.slice(Cursor, ChangedEnd).str();

    llvm::StringRef Before = Code.slice(Starts[Begin], ChangedBegin);
    llvm::StringRef After = Code.slice(ChangedEnd, Starts[End + 1]);
    unsigned OldLines = countLines(Before) + countLines(Old) + countLines(After);
    unsigned NewLines = countLines(Before) + countLines(New) + countLines(After);
    Out += llvm::formatv("@@ -{0},{1} +{2},{3} @@\n", Begin + 1, OldLines, Begin + 1 + Delta, NewLines);
    emitLines(Out, ' ', Before);
    emitChange(Out, Old, New);
    emitLines(Out, ' ', After);
    Delta += static_cast<int>(countLines(New)) - static_cast<int>(countLines(Old));
  }
  return Out;
}

} // namespace to_device_migrate
