"""make-compile-db.py DIR TORCH_API_INCLUDE FILE...: writes DIR/compile_commands.json
for FILEs (relative to DIR) with the flags a CMake project using LibTorch records.
$EXTRA_FLAGS is added to every command."""
import json
import os
import sys

directory, include, files = sys.argv[1], sys.argv[2], sys.argv[3:]
extra = os.environ.get("EXTRA_FLAGS", "")
commands = [{
    "directory": directory,
    "file": f,
    "command": "/usr/bin/c++ -DNDEBUG %s -isystem %s -O2 -std=gnu++17 -o %s.o -c %s"
               % (extra, include, f, f),
} for f in files]
with open(os.path.join(directory, "compile_commands.json"), "w") as out:
    json.dump(commands, out, indent=1)
