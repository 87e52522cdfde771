// The first pass of a run of several files: each translation unit parsed once
// and summarised (ParseFacts::summarize()), or its summary read from the cache
// when nothing it was made from changed; then the summaries merged into the
// program's (ProgramSummary.h), which the second pass migrates each file with.
#pragma once

#include "facts/ProgramSummary.h"
#include "run/FileRunner.h"

#include <memory>

namespace to_device_migrate {

/// The summary of the program `Files` make. A file that does not parse adds
/// nothing (the second pass reports it); clang's diagnostics are not printed
/// here, so the second pass prints each once.
std::shared_ptr<const ProgramSummary>
analyseProgram(const clang::tooling::CompilationDatabase &Database,
               const std::vector<std::string> &Files, const RunOptions &Options);

} // namespace to_device_migrate
