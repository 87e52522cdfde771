#include "Finding.h"

namespace to_device_migrate {

bool FileResult::hasEdit(const Edit &E) const {
  for (const Finding &F : Findings)
    for (const Edit &Fix : F.Fixes)
      if (Fix.sameChange(E))
        return true;
  return false;
}

EditSet FileResult::edits() const {
  EditSet Set;
  for (bool RulesEdits : {true, false})
    for (const Finding &F : Findings)
      if (F.isEdit() == RulesEdits)
        for (const Edit &Fix : F.Fixes)
          Set.add(Fix);
  return Set;
}

} // namespace to_device_migrate
