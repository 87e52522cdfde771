"""make-compile-db.py DIR TORCH_API_INCLUDE FILE...: writes DIR/compile_commands.json
for FILEs (relative to DIR) with the flags a CMake project using LibTorch records.
$EXTRA_FLAGS is added to every command; $CXX_STANDARD (default 17) is the
standard CMake records, the one that LibTorch requires."""
import json
import os
import sys

directory, include, files = sys.argv[1], sys.argv[2], sys.argv[3:]
extra = os.environ.get("EXTRA_FLAGS", "")
standard = os.environ.get("CXX_STANDARD", "17")
commands = [{
    "directory": directory,
    "file": f,
    "command": "/usr/bin/c++ -DNDEBUG %s -isystem %s -O2 -std=gnu++%s -o %s.o -c %s"
               % (extra, include, standard, f, f),
} for f in files]
with open(os.path.join(directory, "compile_commands.json"), "w") as out:
    json.dump(commands, out, indent=1)
