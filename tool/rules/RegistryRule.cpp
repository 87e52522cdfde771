#include "RegistryRule.h"

#include <map>

using namespace clang;

namespace to_device_migrate {
namespace {

/// Registrations of one function body, grouped by declaration statement in
/// source order.
using BodyRegistrations = std::map<unsigned, std::pair<const DeclStmt *, std::vector<const VarDecl *>>>;

} // namespace

void RegistryRule::finishFile() {
  if (Ctx.registrations().empty())
    return;
  std::map<const CompoundStmt *, BodyRegistrations> Bodies;
  for (const Registration &R : Ctx.registrations()) {
    auto &Entry = Bodies[R.FunctionBody][Ctx.offsetOf(R.Declaration->getBeginLoc())];
    Entry.first = R.Declaration;
    Entry.second.push_back(R.Var);
  }
  std::string Registry = Ctx.freshName("registry", "device_registry");
  Ctx.requireRuntimeInclude();

  for (const auto &[Body, Declarations] : Bodies) {
    std::string Indent = Ctx.indentationOf(Body->body_front()->getBeginLoc());
    Ctx.insertSupportCode(Ctx.offsetAfterToken(Body->getLBracLoc()),
                          "\n" + Indent + "todevice::Registry " + Registry + ";", name());

    // Walk the body's statements: each registered declaration gets its add(),
    // and each run of them ends with one to().
    auto Next = Declarations.begin();
    const Stmt *LastOfRun = nullptr;
    auto endRun = [&] {
      if (!LastOfRun)
        return;
      Ctx.insert(Ctx.offsetAfterStatement(*LastOfRun),
                 "\n" + Indent + Registry + ".to(" + Ctx.deviceAt(*LastOfRun) + ");", name());
      LastOfRun = nullptr;
    };
    for (const Stmt *S : Body->body()) {
      if (Next == Declarations.end() || S != Next->second.first) {
        endRun();
        continue;
      }
      std::string Names;
      for (const VarDecl *Var : Next->second.second)
        Names += (Names.empty() ? "" : ", ") + Var->getName().str();
      Ctx.insert(Ctx.offsetAfterStatement(*S),
                 "\n" + Ctx.indentationOf(S->getBeginLoc()) + Registry + ".add(" + Names + ");",
                 name());
      LastOfRun = S;
      ++Next;
    }
    endRun();
  }
}

} // namespace to_device_migrate
