// --comments: each warning also becomes a comment above its line in the
// migrated output, for whoever finishes the migration by hand.
#pragma once

#include "diagnostics/Finding.h"

#include <set>

namespace to_device_migrate {

/// Gives each warning of the file a fix: a line `// to-device-migrate:
/// warning: ... [rule]` above its line, indented like it. A line that already has the
/// comment above it gets none, so a second run changes nothing.
void addWarningComments(FileResult &Result);

} // namespace to_device_migrate
