#!/usr/bin/env python3
"""Host<->device transfers per training step on the simulated accelerator, for
the tool's migration of each example and for the naive migration
(bench/naive_migrate.py: every tensor made on the CPU and then `.to(device)`).
Both run in this script with TODEVICE=sim TODEVICE_SIM_REPORT=1.

usage: bench/transfers.py BUILD_DIR
"""
import os
import re
import subprocess
import sys

# Training steps each example runs (its loop count), to report per step.
STEPS = {"train": 20, "random_dataset": 4, "loose_tensors": 30}
REPORT = re.compile(r"host->device: (\d+) copies, (\d+) bytes; device->host: (\d+) copies, (\d+) bytes")


def transfers(program):
    env = dict(os.environ, TODEVICE="sim", TODEVICE_SIM_REPORT="1")
    run = subprocess.run([program], env=env, capture_output=True, text=True, check=True)
    m = REPORT.search(run.stderr)
    if not m:
        sys.exit("no simulator report from %s:\n%s" % (program, run.stderr))
    return [int(g) for g in m.groups()]


def main():
    build = sys.argv[1]
    subprocess.run(["cmake", "--build", build, "--target"] +
                   ["naive_" + e for e in STEPS] + ["example_%s_runtime" % e for e in STEPS],
                   check=True, stdout=subprocess.DEVNULL)
    print("%-15s %-6s %6s | %12s %12s | %12s %12s" % (
        "example", "steps", "", "H2D copies", "H2D bytes", "D2H copies", "D2H bytes"))
    for example, steps in STEPS.items():
        rows = {"tool": transfers(os.path.join(build, "examples", "example_%s_runtime" % example)),
                "naive": transfers(os.path.join(build, "bench", "naive_" + example))}
        for name, (h2d, h2d_bytes, d2h, d2h_bytes) in rows.items():
            print("%-15s %-6d %6s | %12.2f %12.1f | %12.2f %12.1f   (totals: %d H2D, %d D2H)" % (
                example, steps, name, h2d / steps, h2d_bytes / steps, d2h / steps,
                d2h_bytes / steps, h2d, d2h))
    print("per training step (totals include one-time setup). The tool's H2D copies are the "
          "module parameters (LibTorch constructs modules on the CPU) and host data "
          "(torch::tensor literals, from_blob); tensors from randn/zeros/... are never copied.")


if __name__ == "__main__":
    main()
