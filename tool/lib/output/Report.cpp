#include "output/Report.h"
#include "Config.h"
#include "engine/Rule.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cassert>
#include <map>

namespace to_device_migrate {
namespace {

/// One line of the report: a rewrite the tool made, or a finding it printed.
struct Site {
  unsigned Line = 0, Column = 0;
  std::string Rule;
  std::string Kind; ///< "rewrite", "warning" or "note"
  std::string Text; ///< what was done (rewrite) or why not (finding)
};

struct RuleCounts {
  unsigned Rewrites = 0, Warnings = 0, Notes = 0;
};

std::vector<Site> sitesOf(const FileResult &Result) {
  std::vector<Site> Sites;
  for (const Finding &F : Result.Findings) {
    if (!F.isEdit()) {
      Sites.push_back({F.Line, F.Column, F.rule(), F.severityName(), F.message()});
      continue;
    }
    // A rewrite or support code is one edit, recorded at its own place.
    const clang::tooling::Replacements *Fixes = F.fixes();
    assert(Fixes && Fixes->size() == 1 && "the rules make one edit per edit finding");
    std::string Inserted = Fixes->begin()->getReplacementText().trim().str();
    std::replace(Inserted.begin(), Inserted.end(), '\n', ' '); // one site, one line
    Sites.push_back({F.Line, F.Column, F.rule(), "rewrite",
                     ruleSummary(F.rule()).str() + (Inserted.empty() ? std::string(" (removed text)")
                                                                   : ": `" + Inserted + "`")});
  }
  // What was done at a point before what was left there.
  std::stable_sort(Sites.begin(), Sites.end(), [](const Site &A, const Site &B) {
    return std::make_tuple(A.Line, A.Column, A.Kind != "rewrite") <
           std::make_tuple(B.Line, B.Column, B.Kind != "rewrite");
  });
  return Sites;
}

const char *statusOf(const FileOutcome &Outcome) {
  if (!Outcome.Result)
    return "failed";
  return Outcome.Result->editCount() == 0 ? "unchanged" : "migrated";
}

void count(RuleCounts &Counts, const Site &S) {
  if (S.Kind == "rewrite")
    ++Counts.Rewrites;
  else if (S.Kind == "warning")
    ++Counts.Warnings;
  else
    ++Counts.Notes;
}

/// Per-rule and overall counts of every outcome.
struct Totals {
  std::map<std::string, RuleCounts> PerRule;
  RuleCounts All;
  std::map<std::string, unsigned> Files; ///< by status
};

Totals totalsOf(llvm::ArrayRef<FileOutcome> Outcomes) {
  Totals T;
  for (const char *Status : {"migrated", "unchanged", "failed"})
    T.Files[Status] = 0;
  for (const FileOutcome &O : Outcomes) {
    ++T.Files[statusOf(O)];
    if (O.Result)
      for (const Site &S : sitesOf(*O.Result))
        count(T.PerRule[S.Rule], S), count(T.All, S);
  }
  return T;
}

void countsAttributes(llvm::json::OStream &J, const RuleCounts &C) {
  J.attribute("rewrites", C.Rewrites);
  J.attribute("warnings", C.Warnings);
  J.attribute("notes", C.Notes);
}

} // namespace

void writeJsonReport(llvm::raw_ostream &OS, llvm::ArrayRef<FileOutcome> Outcomes) {
  llvm::json::OStream J(OS, /*IndentSize=*/2);
  const Totals T = totalsOf(Outcomes);
  J.object([&] {
    J.attribute("tool", "to-device-migrate");
    J.attribute("version", TO_DEVICE_MIGRATE_VERSION);
    J.attributeArray("files", [&] {
      for (const FileOutcome &O : Outcomes)
        J.object([&] {
          J.attribute("path", O.Result ? O.Result->Path : O.Input);
          J.attribute("status", statusOf(O));
          J.attributeArray("sites", [&] {
            if (O.Result)
              for (const Site &S : sitesOf(*O.Result))
                J.object([&] {
                  J.attribute("line", S.Line);
                  J.attribute("column", S.Column);
                  J.attribute("rule", S.Rule);
                  J.attribute("kind", S.Kind);
                  J.attribute(S.Kind == "rewrite" ? "done" : "why_not", S.Text);
                });
          });
        });
    });
    J.attributeObject("rules", [&] {
      for (const auto &[Rule, Counts] : T.PerRule)
        J.attributeObject(Rule, [&, &Counts = Counts] { countsAttributes(J, Counts); });
    });
    J.attributeObject("totals", [&] {
      J.attribute("files", static_cast<int64_t>(Outcomes.size()));
      for (const auto &[Status, N] : T.Files)
        J.attribute(Status, N);
      countsAttributes(J, T.All);
    });
  });
  OS << "\n";
}

void writeMarkdownReport(llvm::raw_ostream &OS, llvm::ArrayRef<FileOutcome> Outcomes) {
  const Totals T = totalsOf(Outcomes);
  OS << "# to-device-migrate report\n\n"
     << "| files | migrated | unchanged | failed | rewrites | warnings | notes |\n"
     << "|---|---|---|---|---|---|---|\n"
     << llvm::formatv("| {0} | {1} | {2} | {3} | {4} | {5} | {6} |\n\n", Outcomes.size(),
                      T.Files.at("migrated"), T.Files.at("unchanged"), T.Files.at("failed"),
                      T.All.Rewrites, T.All.Warnings, T.All.Notes);
  if (!T.PerRule.empty()) {
    OS << "| rule | rewrites | warnings | notes |\n|---|---|---|---|\n";
    for (const auto &[Rule, C] : T.PerRule)
      OS << llvm::formatv("| `{0}` | {1} | {2} | {3} |\n", Rule, C.Rewrites, C.Warnings, C.Notes);
    OS << "\n";
  }
  for (const FileOutcome &O : Outcomes) {
    OS << "## " << (O.Result ? O.Result->Path : O.Input) << " (" << statusOf(O) << ")\n\n";
    if (!O.Result) {
      OS << "Did not parse; left unchanged.\n\n";
      continue;
    }
    std::vector<Site> Sites = sitesOf(*O.Result);
    if (Sites.empty()) {
      OS << "Nothing to do.\n\n";
      continue;
    }
    OS << "| line:col | rule | kind | done / why not |\n|---|---|---|---|\n";
    for (const Site &S : Sites) {
      std::string Text = S.Text;
      for (size_t P = 0; (P = Text.find('|', P)) != std::string::npos; P += 2)
        Text.replace(P, 1, "\\|"); // a pipe would end the table cell
      OS << llvm::formatv("| {0}:{1} | `{2}` | {3} | {4} |\n", S.Line, S.Column, S.Rule, S.Kind, Text);
    }
    OS << "\n";
  }
}

} // namespace to_device_migrate
