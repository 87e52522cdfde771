#!/usr/bin/env python3
"""Runs build/bench/allreduce_bench as N ranks on 127.0.0.1 (default 2) and
prints rank 0's figures: average_gradients against one allreduce per
parameter and against one flat buffer, measured in the same run.

  bench/distributed_bench.py build [--ranks 2] [--repetitions 30]
"""
import argparse
import os
import socket
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--repetitions", type=int, default=30)
    args = parser.parse_args()
    program = os.path.join(args.build, "bench", "allreduce_bench")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    processes = []
    for rank in range(args.ranks):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(args.ranks), LOCAL_RANK=str(rank),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        processes.append(subprocess.Popen([program, str(args.repetitions)], env=env,
                                          stdout=subprocess.PIPE, text=True))
    outputs = [p.communicate()[0] for p in processes]
    print(outputs[0], end="")
    return max(p.returncode for p in processes)


if __name__ == "__main__":
    sys.exit(main())
