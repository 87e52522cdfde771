// registry (only with --mode=registry), a finishing step: instead of rewriting each site, the
// variables that other rules would place are registered with one
// todevice::Registry per function and moved together:
//   auto net = std::make_shared<Net>();        todevice::Registry registry;   (top of the function)
//   auto x = torch::randn({2, 3});       ->    auto net = std::make_shared<Net>();
//   net->forward(x);                           registry.add(net);
//                                              auto x = torch::randn({2, 3});
//                                              registry.add(x);
//                                              registry.to(device);
// `registry.to(device)` follows each run of consecutive registered
// declarations, so it comes before any of their uses; moving what is already
// on the device is free. The rules decide what to place
// (RegistryPlan::registerInstead); this step writes the registry code.
#include "finish/FinishingSteps.h"

#include <map>

using namespace clang;

namespace to_device_migrate {
namespace {

/// Registrations of one function body, grouped by declaration statement in
/// source order.
using BodyRegistrations =
    std::map<unsigned, std::pair<const DeclStmt *, std::vector<const VarDecl *>>>;

} // namespace

void RegistryStep::onEndOfFile() {
  if (Ctx.registry().registrations().empty())
    return;
  std::map<const CompoundStmt *, BodyRegistrations> Bodies;
  for (const Registration &R : Ctx.registry().registrations()) {
    auto &Entry = Bodies[R.FunctionBody][Ctx.offsetOf(R.Declaration->getBeginLoc())];
    Entry.first = R.Declaration;
    Entry.second.push_back(R.Var);
  }
  std::string Registry = Ctx.device().freshName("registry", "device_registry");
  Ctx.device().requireRuntimeInclude();

  for (const auto &[Body, Declarations] : Bodies) {
    std::string Indent = Ctx.indentationOf(Body->body_front()->getBeginLoc());
    supportCode(insertion(Ctx.offsetAfterToken(Body->getLBracLoc()),
                          "\n" + Indent + "todevice::Registry " + Registry + ";"));

    // Walk the body's statements: each registered declaration gets its add(),
    // and each run of them ends with one to().
    auto Next = Declarations.begin();
    const Stmt *LastOfRun = nullptr;
    auto endRun = [&] {
      if (!LastOfRun)
        return;
      rewrite(LastOfRun->getSourceRange(),
              insertion(Ctx.offsetAfterStatement(*LastOfRun),
                        "\n" + Indent + Registry + ".to(" + Ctx.device().at(*LastOfRun) + ");"));
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
      rewrite(S->getSourceRange(),
              insertion(Ctx.offsetAfterStatement(*S), "\n" + Ctx.indentationOf(S->getBeginLoc()) +
                                                          Registry + ".add(" + Names + ");"));
      LastOfRun = S;
      ++Next;
    }
    endRun();
  }
}

} // namespace to_device_migrate
