// --comments: each warning also becomes a comment above its line in the
// migrated output, for whoever finishes the migration by hand.
#pragma once

#include "MigrationContext.h"

namespace to_device_migrate {

/// Adds to `Result.Edits` a line `// to-device-migrate: warning: ... [rule]`
/// above each warning's line, indented like it. A line that already has the
/// comment above it gets none, so a second run changes nothing.
void addWarningComments(FileResult &Result);

} // namespace to_device_migrate
