# lit configuration for the tool's tests. Every test parses the real LibTorch
# headers (through the precompiled header the build makes) — no mocks.
import os
import sys
import lit.formats

config.name = "to-device-migrate"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.test_source_root = os.path.join(config.source_root, "test", "tool")
config.test_exec_root = os.path.join(config.binary_root, "test", "tool")
config.excludes = ["Inputs"]

# A test's second run, `%migrate %t.cpp | diff %t.cpp -`, checks both that the
# tool is idempotent and that its output compiles: the tool parses the file as
# clang++ would (with the precompiled <torch/torch.h> only when the file
# includes it) and refuses a file that does not compile, printing nothing and
# exiting 1 (driver/rerun-is-compile-check.test). Tests without that line check
# compilation with %syntax-check. So the first run of a test with that line
# skips the tool's own compile check (--no-compile-check): the second parse of
# the same text would be the rerun's, each ~1.5 s on 2 cores. The host-access
# and host-built-tensor tests keep it: it also asserts that no write was
# redirected to a .cpu() copy.
syntax = "%s -fsyntax-only %s -include-pch %s" % (config.clangxx, config.syntax_flags, config.pch)
# Without the PCH, for files that include less than <torch/torch.h>: the PCH
# would declare what their includes do not.
syntax_no_pch = "%s -fsyntax-only %s" % (config.clangxx, config.syntax_flags)

# `// CHECK` lines of the input are copied into the output; drop them before
# FileCheck so a pattern can never match itself.
strip = r"sed -E '/^[[:space:]]*\/\/[[:space:]]*(RUN|CHECK[A-Z-]*|NOTE)[: ]/d'"

config.substitutions += [
    ("%migrate", config.tool),
    ("%syntax-check-no-pch", syntax_no_pch),
    ("%syntax-check", syntax),
    ("%strip", strip),
    ("%inputs", os.path.join(config.test_source_root, "Inputs")),
    # Where the build writes the migrated examples (cmake/ToDeviceMigrate.cmake).
    ("%{examples-build}", os.path.join(config.binary_root, "examples", "to_device")),
    ("%python", sys.executable),
    ("%{torch-include}", config.syntax_flags.split()[2]),
    ("%FileCheck", config.filecheck),
    # The versions the build found (CMake's LLVM and Torch packages).
    ("%{clang-version}", config.clang_version),
    ("%{torch-version}", config.torch_version),
    ("%{make-compile-db}", "%s %s" % (sys.executable, os.path.join(config.test_source_root, "driver", "Inputs", "make-compile-db.py"))),
]
# The standard the build's LibTorch requires, for compile databases the tests
# write (as CMake would record it for that LibTorch).
config.environment["CXX_STANDARD"] = config.cxx_standard
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.filecheck), config.environment.get("PATH", "")])

# The tool's cache of precompiled headers for -p and extra-flag runs: one per
# build tree, shared by every test (and never the user's ~/.cache).
config.environment["TO_DEVICE_MIGRATE_CACHE"] = os.path.join(config.binary_root, "test", "pch-cache")

# `script` gives a command a terminal (for the progress lines).
import shutil
if shutil.which("script"):
    config.available_features.add("script")

# The examples as the build migrated them (a full build; CI's Debian unstable
# step builds the tool alone and runs this suite against it).
if os.path.isdir(os.path.join(config.binary_root, "examples", "to_device")):
    config.available_features.add("examples-built")
