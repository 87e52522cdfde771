#!/usr/bin/env python3
"""Times to-device-migrate against `clang++ -fsyntax-only` on the same file with
the same flags (both with the build's precompiled <torch/torch.h>), alternating
runs in one process, and prints the ratio of the medians: the tool as it runs
by default (its compile check parses a migrated file once more before writing
it) and with --no-compile-check (one parse, the rules' own cost). The compiler,
the standard and the include flags are the build's (test/lit.site.cfg.py).

usage: bench/tool_vs_syntax_only.py BUILD_DIR [FILE ...] [--reps N]
"""
import argparse
import os
import re
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
    site = open(os.path.join(args.build, "test", "lit.site.cfg.py")).read()
    clangxx = re.search(r'config.clangxx = "(.*)"', site).group(1)
    flags = re.search(r'config.syntax_flags = "(.*)"', site).group(1).split() + ["-Qunused-arguments"]
    if args.no_pch:
        tool_cmd = [tool, "--no-pch"]
    else:
        flags += ["-include-pch", os.path.join(args.build, "pch", "torch.pch")]
        tool_cmd = [tool]

    worst = worst_checked = 0.0
    for f in files:
        clang_times, tool_times, checked_times = [], [], []
        for _ in range(args.reps):
            clang_times.append(timed([clangxx, "-fsyntax-only", *flags, f]))
            tool_times.append(timed([*tool_cmd, "--no-compile-check", f]))
            checked_times.append(timed([*tool_cmd, f]))
        c = statistics.median(clang_times)
        t, k = statistics.median(tool_times), statistics.median(checked_times)
        worst, worst_checked = max(worst, t / c), max(worst_checked, k / c)
        print(f"{os.path.relpath(f, ROOT)}: clang++ -fsyntax-only {c:.3f}s, "
              f"to-device-migrate --no-compile-check {t:.3f}s (ratio {t / c:.3f}), "
              f"with the compile check {k:.3f}s (ratio {k / c:.3f}) (medians of {args.reps})")
    print(f"worst ratio {worst:.3f} without the compile check (target <= 1.15), "
          f"{worst_checked:.3f} with it (one more parse of a changed file; "
          f"measured 2026-11-27: 0.130 and 0.245, 0.85 and 1.85 with --no-pch)")


if __name__ == "__main__":
    main()
