#!/usr/bin/env python3
"""Times to-device-migrate against `clang++ -fsyntax-only` on the same file with
the same flags (both with the build's precompiled <torch/torch.h>), alternating
runs in one process, and prints the ratio of the medians.

usage: bench/tool_vs_syntax_only.py BUILD_DIR [FILE ...] [--reps N]
"""
import argparse
import os
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("files", nargs="*")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--no-pch", action="store_true", help="compare full parses")
    args = parser.parse_args()
    files = args.files or [os.path.join(ROOT, "examples", "train.cpp")]
    tool = os.path.join(args.build, "tool", "to-device-migrate")
    resource = subprocess.check_output(["clang++-14", "-print-resource-dir"], text=True).strip()
    flags = ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include",
             "-isystem", os.path.join(ROOT, "runtime", "include"),
             "-resource-dir=" + resource, "-w", "-Qunused-arguments"]
    if args.no_pch:
        tool_cmd = [tool, "--no-pch"]
    else:
        flags += ["-include-pch", os.path.join(args.build, "pch", "torch.pch")]
        tool_cmd = [tool]

    worst = 0.0
    for f in files:
        clang_times, tool_times = [], []
        for _ in range(args.reps):
            clang_times.append(timed(["clang++-14", "-fsyntax-only", *flags, f]))
            tool_times.append(timed([*tool_cmd, f]))
        c, t = statistics.median(clang_times), statistics.median(tool_times)
        worst = max(worst, t / c)
        print(f"{os.path.relpath(f, ROOT)}: clang++ -fsyntax-only {c:.3f}s, "
              f"to-device-migrate {t:.3f}s, ratio {t / c:.3f} (median of {args.reps})")
    print(f"worst ratio {worst:.3f} (target <= 1.15)")


if __name__ == "__main__":
    main()
