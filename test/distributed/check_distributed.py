#!/usr/bin/env python3
"""Runs data-parallel programs as real processes on 127.0.0.1, the way torchrun
starts them (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT), and checks:

  train          examples/distributed_train.cpp migrated with --distributed, on
                 --world ranks: every rank succeeds, each epoch the ranks see
                 disjoint shards that cover the dataset, every rank ends with
                 the same parameters, equal (1e-5 relative) to the same global
                 batches trained in one process (reference_train), and only
                 rank 0 writes the checkpoint.
  killed-rank    two workers; rank 1 is killed mid-training: rank 0 exits
                 non-zero within the timeout, with an error saying what failed.
  hung-rank      the same with rank 1 stopped (SIGSTOP), not killed: rank 0
                 must not hang past the timeout.
  bad-environment  one run per bad variable: a one-line error naming it, and a
                 non-zero exit, within the timeout.
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(program, world, work, args=(), extra_env=None, ranks=None):
    """Starts the ranks, each in a directory of its own; returns the processes."""
    port = free_port()
    processes = []
    for rank in (range(world) if ranks is None else ranks):
        cwd = os.path.join(work, "rank%d" % rank)
        os.makedirs(cwd, exist_ok=True)
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(world), LOCAL_RANK=str(rank),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        env.update(extra_env or {})
        processes.append(subprocess.Popen([program] + list(args), cwd=cwd, env=env,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          text=True))
    return processes


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def parameters(text):
    """{name: [values]} from the `name v1 v2 ...` lines the programs print last."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and not parts[0] == "epoch" and all(re.match(r"^-?[0-9.e+-]+$", p) for p in parts[1:]):
            out[parts[0]] = [float(p) for p in parts[1:]]
    return out


def check_train(args):
    shutil.rmtree(args.work, ignore_errors=True)
    processes = launch(args.program, args.world, args.work,
                       extra_env={"TODEVICE": args.todevice} if args.todevice else None)
    outputs, errors = [], []
    for rank, p in enumerate(processes):
        out, err = p.communicate(timeout=args.timeout)
        if p.returncode != 0:
            fail("rank %d exited with %d:\n%s" % (rank, p.returncode, err))
        outputs.append(out)
        errors.append(err)
    reference = subprocess.run([args.reference, str(args.world)], capture_output=True, text=True,
                               timeout=args.timeout, check=True).stdout
    expected = parameters(reference)
    if not expected:
        fail("the reference printed no parameters:\n" + reference)

    samples = int(args.samples)
    for epoch in range(2):
        seen = []
        for rank, out in enumerate(outputs):
            line = [l for l in out.splitlines() if l.startswith("epoch %d " % epoch)]
            if not line:
                fail("rank %d printed no line for epoch %d:\n%s" % (rank, epoch, out))
            seen.append([int(x) for x in line[0].split("samples")[1].split()])
        everything = sorted(x for shard in seen for x in shard)
        if everything != list(range(samples)):
            fail("epoch %d: the shards %s are not a partition of the %d samples" % (epoch, seen, samples))
        print("epoch %d: %d ranks saw disjoint shards of %s samples covering the dataset" %
              (epoch, args.world, [len(s) for s in seen]))

    for rank, out in enumerate(outputs):
        actual = parameters(out)
        if actual.keys() != expected.keys():
            fail("rank %d printed parameters %s, the reference %s" % (rank, list(actual), list(expected)))
        worst = 0.0
        for name, values in expected.items():
            for a, e in zip(actual[name], values):
                error = abs(a - e) / max(abs(e), 1e-6)
                worst = max(worst, error)
                if error > 1e-5:
                    fail("rank %d: %s = %r, the single-process run over the same global batches "
                         "gives %r (relative error %.2g)" % (rank, name, a, e, error))
        print("rank %d: parameters equal the single-process run's (worst relative error %.2g)" %
              (rank, worst))

    written = [r for r in range(args.world)
               if os.path.exists(os.path.join(args.work, "rank%d" % r, "model.pt"))]
    if written != [0]:
        fail("the checkpoint was written by ranks %s, not by rank 0 alone" % written)
    print("only rank 0 wrote the checkpoint")
    for rank, p in enumerate(processes):
        for line in errors[rank].splitlines():
            if line.startswith("todevice: rank"):
                print(line)  # the process group it used (TODEVICE_AUDIT=1)


def start_two_ranks_to_step_5(args, timeout):
    """Two ranks of a 400-step run with a `timeout` s collective timeout,
    returned once rank 1 has done 5 steps."""
    shutil.rmtree(args.work, ignore_errors=True)
    processes = launch(args.program, 2, args.work, args=["400"],
                       extra_env={"TODEVICE_DIST_TIMEOUT": str(timeout)})
    for line in processes[1].stdout:
        if line.startswith("step 5 "):
            break
    return processes


def rank_0_error(processes, wait, why):
    """Rank 0's todevice::distributed error line, once it has exited non-zero
    within `wait` s; fails (`why` says what was done to rank 1) otherwise."""
    try:
        out, err = processes[0].communicate(timeout=wait)
    except subprocess.TimeoutExpired:
        processes[0].kill()
        fail("rank 0 still runs %d s after rank 1 %s" % (wait, why))
    message = [l for l in err.splitlines() if "todevice::distributed:" in l]
    if processes[0].returncode == 0 or not message:
        fail("rank 0 (status %d) did not fail with a todevice::distributed error after rank 1 %s:\n%s%s" %
             (processes[0].returncode, why, out, err))
    return message[0].strip()


def check_killed_rank(args):
    timeout = 10
    processes = start_two_ranks_to_step_5(args, timeout)
    # Kill rank 1 the way an OOM killer would.
    processes[1].send_signal(signal.SIGKILL)
    killed_at = time.monotonic()
    message = rank_0_error(processes, timeout + 30, "died")
    print("rank 1 killed at step 5: rank 0 exited with %d after %.1f s: %s" %
          (processes[0].returncode, time.monotonic() - killed_at, message))


def check_hung_rank(args):
    """A rank that stops answering (SIGSTOP: a hung machine, a partition) makes
    the others fail within the timeout, not hang."""
    timeout = 5
    processes = start_two_ranks_to_step_5(args, timeout)
    processes[1].send_signal(signal.SIGSTOP)
    stopped_at = time.monotonic()
    try:
        message = rank_0_error(processes, timeout * 3 + 10, "stopped")
    finally:
        processes[1].kill()
    print("rank 1 stopped at step 5: rank 0 exited with %d after %.1f s (timeout %d s): %s" %
          (processes[0].returncode, time.monotonic() - stopped_at, timeout, message))


def check_bad_environment(args):
    port = str(free_port())
    base = {"RANK": "0", "WORLD_SIZE": "2", "LOCAL_RANK": "0", "MASTER_ADDR": "127.0.0.1",
            "MASTER_PORT": port, "TODEVICE_DIST_TIMEOUT": "3"}
    cases = [
        ({"WORLD_SIZE": "0"}, "WORLD_SIZE=0"),
        ({"RANK": "2"}, "RANK=2"),
        ({"RANK": "-1"}, "RANK=-1"),
        ({"MASTER_PORT": "http"}, "MASTER_PORT='http'"),
        ({"MASTER_PORT": "70000"}, "MASTER_PORT=70000"),
        ({"WORLD_SIZE": None}, "RANK is set but WORLD_SIZE is not"),
        ({"TODEVICE_DIST_TIMEOUT": "soon"}, "TODEVICE_DIST_TIMEOUT='soon'"),
        # Rank 1 of 2 with nobody listening at the master's address.
        ({"RANK": "1"}, "MASTER_ADDR:MASTER_PORT=127.0.0.1:" + port),
    ]
    for change, expected in cases:
        env = dict(os.environ, **base)
        for key, value in change.items():
            if value is None:
                env.pop(key)
            else:
                env[key] = value
        start = time.monotonic()
        done = subprocess.run([args.program, "1"], env=env, capture_output=True, text=True,
                              timeout=60)
        seconds = time.monotonic() - start
        # Our error is one line, the last; c10d may log its own lines before it
        # (glog's "Logging before InitGoogleLogging", the socket's timeout).
        lines = [l for l in done.stderr.splitlines() if l.strip()]
        ours = [l for l in lines if "todevice::distributed:" in l]
        if done.returncode != 1 or len(ours) != 1 or ours[0] != lines[-1] or \
                expected not in ours[0] or not ours[0].startswith("todevice::distributed:"):
            fail("%s: expected status 1 and one line naming '%s', got status %d:\n%s" %
                 (change, expected, done.returncode, done.stderr))
        lines = ours
        if seconds > 3 + 10:
            fail("%s: took %.1f s, more than the 3 s timeout allows" % (change, seconds))
        print("%-40s -> status %d in %.1f s: %s" % (change, done.returncode, seconds, lines[0]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=["train", "killed-rank", "hung-rank", "bad-environment"])
    parser.add_argument("--program", required=True)
    parser.add_argument("--reference")
    parser.add_argument("--world", type=int, default=2)
    parser.add_argument("--samples", default="64")
    parser.add_argument("--todevice", default="")
    parser.add_argument("--work", default="distributed-work")
    parser.add_argument("--timeout", type=int, default=120)
    args = parser.parse_args()
    {"train": check_train, "killed-rank": check_killed_rank, "hung-rank": check_hung_rank,
     "bad-environment": check_bad_environment}[args.check](args)


if __name__ == "__main__":
    main()
