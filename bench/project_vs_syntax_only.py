#!/usr/bin/env python3
"""A project of 8 LibTorch files: to-device-migrate on all of them (-p, --all,
in parallel, precompiled-header cache) against `clang++ -fsyntax-only` on each
file one after another with the same compile-database flags, in one run.
Prints the ratios for a cold cache (empty: the tool builds the PCH and
analyses every file first), a warm cache (PCH and the first pass's summaries
cached: the median of --reps runs), and the first pass's own cost: warm PCH
but no summaries (each file parsed twice: analysed, then migrated) against
the warm run.

usage: bench/project_vs_syntax_only.py BUILD_DIR [--reps N] [--jobs N]
"""
import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = [
    "examples/train.cpp",
    "examples/random_dataset.cpp",
    "examples/loose_tensors.cpp",
    "test/tool/model-placement/holder.cpp",
    "test/tool/loss-placement/loss.cpp",
    "test/tool/data-loader-batch/data-and-target.cpp",
    "test/tool/hardcoded-device/cuda-calls.cpp",
    "test/tool/checkpoint-load/tensor-and-optimizer.cpp",
]
# What CMake records for a target linking LibTorch (g++ flags clang accepts).
FLAGS = "-DNDEBUG -isystem /usr/include/torch/csrc/api/include -O2 -std=gnu++17"


def timed(cmd, **kwargs):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0, help="tool -j (0: one per core)")
    args = parser.parse_args()
    tool = os.path.join(os.path.abspath(args.build), "tool", "to-device-migrate")
    work = tempfile.mkdtemp(prefix="todevice-bench-")
    try:
        sources = []
        for i, f in enumerate(FILES):
            dest = os.path.join(work, "src", "%d_%s" % (i, os.path.basename(f)))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy(os.path.join(ROOT, f), dest)
            sources.append(dest)
        with open(os.path.join(work, "compile_commands.json"), "w") as out:
            json.dump([{"directory": work, "file": s,
                        "command": "/usr/bin/c++ %s -o %s.o -c %s" % (FLAGS, s, s)}
                       for s in sources], out, indent=1)
        cache = os.path.join(work, "cache")
        env = dict(os.environ, TO_DEVICE_MIGRATE_CACHE=cache)
        tool_cmd = [tool, "-p", work, "--all", "-j", str(args.jobs),
                    "--out-root", os.path.join(work, "out")]

        site = open(os.path.join(args.build, "test", "lit.site.cfg.py")).read()
        clangxx = re.search(r'config.clangxx = "(.*)"', site).group(1)

        def syntax_only():
            return sum(timed([clangxx, "-fsyntax-only", "-w", *shlex.split(FLAGS), s])
                       for s in sources)

        summaries = os.path.join(cache, "summaries")
        baseline = [syntax_only()]
        cold = timed(tool_cmd, env=env)
        warm, first_pass = [], []
        for _ in range(args.reps):
            warm.append(timed(tool_cmd, env=env))
            shutil.rmtree(summaries, ignore_errors=True)
            first_pass.append(timed(tool_cmd, env=env))
            baseline.append(syntax_only())
        base = statistics.median(baseline)
        w = statistics.median(warm)
        f = statistics.median(first_pass)
        print(f"{len(sources)} files; clang++ -fsyntax-only one after another: {base:.1f}s "
              f"(median of {len(baseline)})")
        print(f"to-device-migrate -p --all, cold cache: {cold:.1f}s, ratio {cold / base:.3f}")
        print(f"to-device-migrate -p --all, warm cache: {w:.1f}s, ratio {w / base:.3f} "
              f"(median of {args.reps}; target <= 0.5)")
        print(f"to-device-migrate -p --all, warm PCH, no summaries (the first pass parses every "
              f"file): {f:.1f}s, ratio {f / base:.3f}; the first pass costs {f - w:.1f}s "
              f"({(f - w) / w:.0%} of the warm run)")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
