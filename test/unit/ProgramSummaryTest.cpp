// The whole program's account of its devices (facts/ProgramSummary): which
// device parameters every call hands the CPU alone, to a fixed point
// through forwarded parameters, which device members are only ever given
// those, and the getter summaries a file's own parse left to the merge.
#include "facts/ProgramSummary.h"

#include <gtest/gtest.h>

namespace to_device_migrate {
namespace {

DeviceArgument cpu(std::string Into, unsigned Index = 0) {
  return {std::move(Into), Index, DeviceArgument::Cpu};
}
DeviceArgument other(std::string Into, unsigned Index = 0) {
  return {std::move(Into), Index, DeviceArgument::Other};
}
DeviceArgument forwarded(std::string Into, unsigned Index, std::string From, unsigned FromIndex) {
  return {std::move(Into), Index, DeviceArgument::Forwarded, std::move(From), FromIndex};
}

TEST(ProgramSummaryTest, ParameterEveryCallHandsTheCpu) {
  TranslationUnitSummary Main, Tests;
  Main.DeviceArguments = {cpu("c:@S@Buffer@F@Buffer#$@N@c10@S@Device#", 0)};
  Tests.DeviceArguments = {cpu("c:@S@Buffer@F@Buffer#$@N@c10@S@Device#", 0)};
  const ProgramSummary Program = ProgramSummary::merge({Main, Tests});
  EXPECT_TRUE(Program.isCpuOnlyParameter("c:@S@Buffer@F@Buffer#$@N@c10@S@Device#", 0));
  EXPECT_FALSE(Program.isCpuOnlyParameter("c:@S@Buffer@F@Buffer#$@N@c10@S@Device#", 1));
}

TEST(ProgramSummaryTest, OneOtherCallIsEnoughToSayNo) {
  TranslationUnitSummary Main, Tests;
  Main.DeviceArguments = {other("buffer", 0)};
  Tests.DeviceArguments = {cpu("buffer", 0)};
  EXPECT_FALSE(ProgramSummary::merge({Main, Tests}).isCpuOnlyParameter("buffer", 0));
}

TEST(ProgramSummaryTest, ForwardedThroughParametersToAFixedPoint) {
  TranslationUnitSummary Unit;
  // main: Runner(kCPU); Runner(d): Trainer(d); Trainer(d): Buffer(d).
  Unit.DeviceArguments = {forwarded("buffer", 0, "trainer", 1), forwarded("trainer", 1, "runner", 0),
                          cpu("runner", 0)};
  const ProgramSummary Program = ProgramSummary::merge({Unit});
  EXPECT_TRUE(Program.isCpuOnlyParameter("runner", 0));
  EXPECT_TRUE(Program.isCpuOnlyParameter("trainer", 1));
  EXPECT_TRUE(Program.isCpuOnlyParameter("buffer", 0));
}

TEST(ProgramSummaryTest, ACycleWithNoCpuAtItsStartIsNotTheCpu) {
  TranslationUnitSummary Unit;
  Unit.DeviceArguments = {forwarded("a", 0, "b", 0), forwarded("b", 0, "a", 0)};
  const ProgramSummary Program = ProgramSummary::merge({Unit});
  EXPECT_FALSE(Program.isCpuOnlyParameter("a", 0));
  EXPECT_FALSE(Program.isCpuOnlyParameter("b", 0));
}

TEST(ProgramSummaryTest, MemberGivenOnlyCpuParametersAndGettersThroughIt) {
  TranslationUnitSummary Buffer, Main;
  Buffer.DeviceMemberValues = {forwarded("device_", 0, "buffer", 0)};
  PlacementSummary Getter;
  Getter.Returns = {ReturnSummary::ThroughMember, 0, "device_"};
  Buffer.Placements["observations"] = Getter;
  Main.DeviceArguments = {cpu("buffer", 0)};
  const ProgramSummary Program = ProgramSummary::merge({Buffer, Main});
  EXPECT_TRUE(Program.isCpuOnlyMember("device_"));
  ASSERT_NE(Program.placementOf("observations"), nullptr);
  EXPECT_EQ(Program.placementOf("observations")->Returns.What, ReturnSummary::HostBuilt);

  Main.DeviceArguments.push_back(other("buffer", 0)); // a construction given a device choice
  const ProgramSummary Chosen = ProgramSummary::merge({Buffer, Main});
  EXPECT_FALSE(Chosen.isCpuOnlyMember("device_"));
  EXPECT_EQ(Chosen.placementOf("observations")->Returns.What, ReturnSummary::Device);
}

TEST(ProgramSummaryTest, MemberFilledOnACpuOnlyDevice) {
  TranslationUnitSummary Storage, Main;
  // observations_ = zeros(n, TensorOptions(device)) in the constructor, and
  // zeros(n, TensorOptions(device_)) in clear(), device_(device).
  Storage.FieldDevices = {forwarded("observations_", 0, "storage", 1),
                          {"observations_", 0, DeviceArgument::Member, "device_"}};
  Storage.DeviceMemberValues = {forwarded("device_", 0, "storage", 1)};
  Main.DeviceArguments = {cpu("storage", 1)};
  EXPECT_TRUE(ProgramSummary::merge({Storage, Main}).isHostChosenField("observations_"));
  Main.DeviceArguments = {other("storage", 1)};
  EXPECT_FALSE(ProgramSummary::merge({Storage, Main}).isHostChosenField("observations_"));
}

TEST(ProgramSummaryTest, DevicesSurviveTheSummaryCache) {
  TranslationUnitSummary Unit;
  Unit.DeviceArguments = {forwarded("buffer", 0, "runner", 2), cpu("runner", 2)};
  Unit.DeviceMemberValues = {other("device_")};
  Unit.FieldDevices = {{"observations_", 0, DeviceArgument::Member, "device_"}};
  PlacementSummary Getter;
  Getter.Returns = {ReturnSummary::ThroughMember, 0, "device_"};
  Unit.Placements["observations"] = Getter;
  std::optional<TranslationUnitSummary> Read = TranslationUnitSummary::fromJSON(Unit.toJSON());
  ASSERT_TRUE(Read);
  ASSERT_EQ(Read->DeviceArguments.size(), 2u);
  EXPECT_EQ(Read->DeviceArguments[0].What, DeviceArgument::Forwarded);
  EXPECT_EQ(Read->DeviceArguments[0].From, "runner");
  EXPECT_EQ(Read->DeviceArguments[0].FromIndex, 2u);
  ASSERT_EQ(Read->DeviceMemberValues.size(), 1u);
  EXPECT_EQ(Read->DeviceMemberValues[0].What, DeviceArgument::Other);
  EXPECT_EQ(Read->Placements.at("observations").Returns, Getter.Returns);
  ASSERT_EQ(Read->FieldDevices.size(), 1u);
  EXPECT_EQ(Read->FieldDevices[0].What, DeviceArgument::Member);
  EXPECT_EQ(Read->FieldDevices[0].From, "device_");
}

} // namespace
} // namespace to_device_migrate
