#include "facts/SourceLines.h"

namespace to_device_migrate {

std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef Code, unsigned Offset) {
  llvm::StringRef Before = Code.take_front(Offset);
  size_t LastNewline = Before.rfind('\n');
  return {1 + Before.count('\n'),
          LastNewline == llvm::StringRef::npos ? Offset + 1 : Offset - LastNewline};
}

size_t lineStart(llvm::StringRef Code, unsigned Line) {
  size_t Offset = 0;
  for (unsigned L = 1; L < Line && Offset != llvm::StringRef::npos; ++L) {
    Offset = Code.find('\n', Offset);
    if (Offset != llvm::StringRef::npos)
      ++Offset;
  }
  return Offset == llvm::StringRef::npos ? Code.size() : Offset;
}

/// [start, end) of the line holding `Offset`, the line break excluded.
static std::pair<size_t, size_t> lineBounds(llvm::StringRef Code, size_t Offset) {
  Offset = std::min(Offset, Code.size());
  size_t Start = Offset == 0 ? llvm::StringRef::npos : Code.rfind('\n', Offset - 1);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  size_t End = std::min(Code.find('\n', Offset), Code.size());
  if (End > Start && Code[End - 1] == '\r')
    --End;
  return {Start, End};
}

llvm::StringRef lineAt(llvm::StringRef Code, size_t Offset) {
  auto [Start, End] = lineBounds(Code, Offset);
  return Code.slice(Start, End);
}

llvm::StringRef lineBefore(llvm::StringRef Code, size_t Offset) {
  size_t Start = lineBounds(Code, Offset).first;
  return Start == 0 ? llvm::StringRef() : lineAt(Code, Start - 1);
}

} // namespace to_device_migrate
