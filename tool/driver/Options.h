// What the driver was asked to do with each file's result, as plain values
// (main.cpp owns the command-line options; the driver's helpers take these).
#ifndef TO_DEVICE_MIGRATE_DRIVER_OPTIONS_H
#define TO_DEVICE_MIGRATE_DRIVER_OPTIONS_H

#include <string>

namespace to_device_migrate::driver {

struct OutputOptions {
  bool InPlace = false;     // -i
  bool Diff = false;        // --diff
  bool Check = false;       // --check
  bool Comments = false;    // --comments
  std::string OutputFile;   // -o
  std::string OutRoot;      // --out-root
  std::string ExportFixes;  // --export-fixes
  std::string ReportFile;   // --report
  std::string HeaderFilter; // --header-filter
  std::string FormatStyle;  // --format-style
};

} // namespace to_device_migrate::driver

#endif
