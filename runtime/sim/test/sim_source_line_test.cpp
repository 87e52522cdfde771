// The simulator names the program's own source line: a placement error at the
// line that mixed the devices (file:line with debug info, the function
// without), and TODEVICE_SIM_REPORT=lines lists the lines that copy to the
// device. The programs are in programs/, built by CMake with -g and -g0.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

namespace {

/// The program's stderr and stdout, with `environment` set for it.
std::string output_of(const std::string& program, const std::string& environment = "") {
  std::string command = environment + " " + program + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> buffer;
  while (pipe && std::fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr)
    out += buffer.data();
  return out;
}

/// The 1-based line of `source` holding `marker`.
std::string line_of(const std::string& source, const std::string& marker) {
  std::ifstream in(source);
  std::string text;
  for (int line = 1; std::getline(in, text); ++line)
    if (text.find(marker) != std::string::npos)
      return std::to_string(line);
  ADD_FAILURE() << marker << " not in " << source;
  return "?";
}

TEST(SimSourceLine, PlacementErrorNamesTheLineWithDebugInfo) {
  const std::string line = line_of(PLACEMENT_BUG_SOURCE, "PLACEMENT-ERROR-HERE");
  const std::string out = output_of(PLACEMENT_BUG_G);
  EXPECT_NE(out.find("todevice_sim: placement error at "), std::string::npos) << out;
  EXPECT_NE(out.find("placement_bug.cpp:" + line + " in project: argument 'mat2' of aten::mm "
                     "is on cpu, 'self' on sim:0"),
            std::string::npos)
      << out;
  // The exception the program gets names the line too.
  EXPECT_NE(out.find("(when checking argument 'mat2' of aten::mm) at "), std::string::npos) << out;
}

TEST(SimSourceLine, PlacementErrorNamesTheFunctionWithoutDebugInfo) {
  const std::string out = output_of(PLACEMENT_BUG_G0);
  EXPECT_NE(out.find("todevice_sim: placement error in project: argument 'mat2' of aten::mm is "
                     "on cpu, 'self' on sim:0"),
            std::string::npos)
      << out;
}

/// The first line of `out` that holds `text` ("" if none).
std::string line_with(const std::string& out, const std::string& text) {
  const std::size_t at = out.find(text);
  if (at == std::string::npos)
    return "";
  const std::size_t begin = out.rfind('\n', at);
  const std::size_t end = out.find('\n', at);
  return out.substr(begin == std::string::npos ? 0 : begin + 1,
                    end == std::string::npos ? std::string::npos : end - begin - 1);
}

TEST(SimSourceLine, ReportListsTheLinesThatCopy) {
  const std::string once = line_of(COPIES_SOURCE, "COPIED-ONCE");
  const std::string loop = line_of(COPIES_SOURCE, "COPIED-IN-A-LOOP");
  const std::string out = output_of(COPIES_G, "TODEVICE_SIM_REPORT=lines");
  EXPECT_NE(out.find("host->device: 6 copies, 96 bytes"), std::string::npos) << out;
  EXPECT_NE(out.find("host->device copies by source line, most copies:"), std::string::npos) << out;
  const std::string in_loop = line_with(out, "copies_in_a_loop.cpp:" + loop + " in main");
  EXPECT_NE(in_loop.find(" 5 copies "), std::string::npos) << out;
  EXPECT_NE(in_loop.find(" 80 bytes "), std::string::npos) << out;
  EXPECT_NE(in_loop.find("(repeated: a loop)"), std::string::npos) << out;
  const std::string single = line_with(out, "copies_in_a_loop.cpp:" + once + " in main");
  EXPECT_NE(single.find(" 1 copies "), std::string::npos) << out;
  EXPECT_EQ(single.find("repeated"), std::string::npos) << out;
}

TEST(SimSourceLine, NoLinesWithoutTheReport) {
  const std::string out = output_of(COPIES_G, "TODEVICE_SIM_REPORT=1");
  EXPECT_NE(out.find("host->device: 6 copies"), std::string::npos) << out;
  EXPECT_EQ(out.find("by source line"), std::string::npos) << out;
}

TEST(SimSourceLine, HostReadNamesTheReadingLineAndWhereTheMemoryWasMade) {
  const std::string read = line_of(PIXEL_VIEW_SOURCE, "HOST-READ-HERE");
  const std::string made = line_of(HOST_READ_SOURCE, "ALLOCATED-HERE");
  const std::string out = output_of(HOST_READ_G);
  // Files are named as the program's debug info has them (absolute here).
  const std::string message = line_with(out, "todevice_sim: host code read simulated-device memory at ");
  EXPECT_NE(message.find("pixel_view.cpp:" + read + " in PixelView::sum: byte 0 of a 64-byte "
                         "allocation made at "),
            std::string::npos)
      << out;
  EXPECT_NE(message.find("host_read_elsewhere.cpp:" + made + " in main; call .cpu() first"),
            std::string::npos)
      << out;
}

TEST(SimSourceLine, HostReadNamesTheFunctionsWithoutDebugInfo) {
  const std::string out = output_of(HOST_READ_G0);
  EXPECT_NE(out.find("todevice_sim: host code read simulated-device memory in PixelView::sum: "
                     "byte 0 of a 64-byte allocation made in main; call .cpu() first"),
            std::string::npos)
      << out;
}

TEST(SimSourceLine, ReportListsTheLinesThatMoveAnUnchangedTensorAgain) {
  const std::string again = line_of(MOVES_UNCHANGED_SOURCE, "MOVED-AGAIN-UNCHANGED");
  const std::string out = output_of(MOVES_UNCHANGED_G, "TODEVICE_SIM_REPORT=lines");
  // 4 + 4 copies in the loop, one after a change, one after a host write.
  EXPECT_NE(out.find("host->device: 10 copies, 320 bytes;"), std::string::npos) << out;
  EXPECT_NE(out.find("moved again unchanged: 3 copies"), std::string::npos) << out;
  const std::string listed = out.substr(out.find("moved again, unchanged since its last copy"));
  EXPECT_NE(line_with(listed, "moves_unchanged.cpp:" + again + " in main").find(" 3 copies "),
            std::string::npos)
      << out;
  for (const char* other : {"COPIED-NEW-EACH-STEP", "COPIED-AFTER-A-CHANGE", "COPIED-AFTER-A-HOST-WRITE"})
    EXPECT_EQ(line_with(listed, "moves_unchanged.cpp:" + line_of(MOVES_UNCHANGED_SOURCE, other) + " "),
              "")
        << other << "\n" << out;
}

} // namespace
