// --report: what the tool did to each file, per rule and per site, with totals,
// as JSON (for scripts) or Markdown (for people and CI summaries).
#pragma once

#include "output/FileOutcome.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace to_device_migrate {

/// `Outcomes` as JSON: {"tool", "version", "files": [{"path", "status",
/// "sites": [{"line", "column", "rule", "kind", "done" | "why_not"}]}],
/// "rules": {name: {"rewrites", "warnings", "notes"}}, "totals": {...}}.
void writeJsonReport(llvm::raw_ostream &OS, llvm::ArrayRef<FileOutcome> Outcomes);

/// The same report as Markdown tables.
void writeMarkdownReport(llvm::raw_ostream &OS, llvm::ArrayRef<FileOutcome> Outcomes);

} // namespace to_device_migrate
