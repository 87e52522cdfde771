#include "diagnostics/Finding.h"

namespace to_device_migrate {

std::vector<Edit> Finding::fixes() const {
  std::vector<Edit> Edits;
  auto Own = Diag.Message.Fix.find(file());
  if (Own == Diag.Message.Fix.end())
    return Edits;
  for (const clang::tooling::Replacement &R : Own->second)
    Edits.push_back({R.getOffset(), R.getLength(), R.getReplacementText().str(), rule()});
  return Edits;
}

void Finding::renameFile(const std::string &Path) {
  clang::tooling::Replacements Renamed;
  for (const Edit &E : fixes())
    llvm::consumeError(
        Renamed.add(clang::tooling::Replacement(Path, E.Offset, E.Length, E.Text)));
  Diag.Message.Fix.clear();
  if (!Renamed.empty())
    Diag.Message.Fix[Path] = std::move(Renamed);
  Diag.Message.FilePath = Path;
}

const char *Finding::severityName() const {
  if (Kind == FindingKind::Error)
    return "error";
  return isWarning() ? "warning" : "note";
}

EditSet FileResult::edits() const {
  EditSet Set;
  for (bool RulesEdits : {true, false})
    for (const Finding &F : Findings)
      if (F.isEdit() == RulesEdits && F.file() == Path)
        for (const Edit &Fix : F.fixes())
          Set.add(Fix);
  return Set;
}

std::vector<const Finding *> FileResult::inSourceOrder() const {
  std::vector<const Finding *> Sorted;
  for (const Finding &F : Findings)
    Sorted.push_back(&F);
  std::stable_sort(Sorted.begin(), Sorted.end(), [](const Finding *A, const Finding *B) {
    return std::make_pair(A->Line, A->Column) < std::make_pair(B->Line, B->Column);
  });
  return Sorted;
}

const Finding *FileResult::error() const {
  for (const Finding &F : Findings)
    if (F.Kind == FindingKind::Error)
      return &F;
  return nullptr;
}

} // namespace to_device_migrate
