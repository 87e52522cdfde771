#!/usr/bin/env python3
"""Runs to-device-migrate over a corpus of real C++ (test/corpus/corpus.txt) and
checks, for every file:
  - the tool neither crashes nor hangs (a time limit per run);
  - a file that compiles still compiles after migration (the second run parses
    it; clang++ -fsyntax-only says why when it does not), and a file that does
    not compile is refused with an error and no output, not half-migrated
    (clang++ confirms it does not compile);
  - a file without LibTorch code comes out byte-identical;
  - a second run over the output changes nothing.
Prints `N files, N migrated, N unchanged, N failed` and writes the failures,
one per line with the reason, to <work>/failures.txt. Exit status 1 if any.

  run_corpus.py --tool T --clangxx C --syntax-flags "..." --pch P --work DIR
                [--jobs 2] [--timeout 300] [--only SUBSTRING]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shlex
import subprocess
import sys
import tarfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
GOOGLETEST = "/usr/src/googletest"


def pytorch_root(work):
    """LibTorch's C++ API tests from Debian's pytorch source package, fetched with
    apt-get once into the work directory (a Debian package, nothing else)."""
    root = os.path.join(work, "pytorch")
    tests = os.path.join(root, "test", "cpp", "api")
    if os.path.isdir(tests):
        return root
    tarballs = glob.glob(os.path.join(work, "pytorch_*.orig.tar.*"))
    if not tarballs:
        fetch = subprocess.run(["apt-get", "source", "--tar-only", "pytorch"], cwd=work,
                               capture_output=True, text=True)
        tarballs = glob.glob(os.path.join(work, "pytorch_*.orig.tar.*"))
        if not tarballs:
            sys.exit("corpus: `apt-get source --tar-only pytorch` failed (is there a bookworm "
                     "deb-src line? .ci/install-deps adds one):\n" + fetch.stderr)
    with tarfile.open(tarballs[0]) as tar:
        members = [m for m in tar.getmembers()
                   if "/test/cpp/api/" in m.name or "/test/cpp/common/" in m.name]
        tar.extractall(work, members)
    top = members[0].name.split("/")[0]
    os.rename(os.path.join(work, top), root)
    return root


def roots(work):
    """Where each corpus root lives, and the flags its files compile with."""
    pytorch = pytorch_root(work)
    gtest, gmock = os.path.join(GOOGLETEST, "googletest"), os.path.join(GOOGLETEST, "googlemock")
    return {
        # <test/cpp/api/support.h> is included from the source tree's root.
        "pytorch": (pytorch, ["-I" + pytorch]),
        "googletest": (GOOGLETEST, ["-I" + gtest, "-I" + gtest + "/include",
                                    "-I" + gmock, "-I" + gmock + "/include"]),
        "examples": (os.path.join(SOURCE_ROOT, "examples"),
                     ["-I" + os.path.join(SOURCE_ROOT, "examples")]),
    }


def read_corpus(path):
    entries = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                root, rel = line.split(None, 1)
                entries.append((root, rel))
    return entries


def uses_libtorch(text, directory, depth=2):
    """Whether the file, or a local header it includes ("x.h", next to it), uses LibTorch."""
    if any(h in text for h in ("<torch/", "<ATen/", "<c10/", "\"torch/")):
        return True
    if depth == 0:
        return False
    for header in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
        path = os.path.join(directory, header)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                if uses_libtorch(f.read(), os.path.dirname(path), depth - 1):
                    return True
    return False


class Corpus:
    def __init__(self, args):
        self.args = args
        self.roots = roots(args.work)
        self.syntax_flags = shlex.split(args.syntax_flags)
        self.lock = threading.Lock()

    def run(self, command):
        start = time.monotonic()
        try:
            done = subprocess.run(command, capture_output=True, text=True, errors="replace",
                                  timeout=self.args.timeout)
            return done.returncode, done.stderr, time.monotonic() - start
        except subprocess.TimeoutExpired:
            return None, "", time.monotonic() - start

    def migrate(self, source, output, flags):
        if os.path.exists(output):
            os.remove(output)
        return self.run([self.args.tool, "-o", output, source, "--"] + flags)

    def compiles(self, path, flags, text):
        # The precompiled <torch/torch.h> only for files that include it: it
        # would declare what a file including less must include itself.
        pch = ["-include-pch", self.args.pch] if "#include <torch/torch.h>" in text else []
        code, err, _ = self.run([self.args.clangxx, "-fsyntax-only"] + self.syntax_flags +
                                flags + pch + [path])
        return code == 0, err

    def check(self, root_name, rel):
        """(status, reason, seconds): status is migrated, unchanged, refused or failed."""
        root, flags = self.roots[root_name]
        source = os.path.join(root, rel)
        # The output lives elsewhere: its "local.h" includes are found next to the source.
        flags = flags + ["-I" + os.path.dirname(source)]
        with open(source, encoding="utf-8", errors="surrogateescape") as f:
            original = f.read()
        out_dir = os.path.join(self.args.work, "out", root_name)
        first = os.path.join(out_dir, rel)
        second = os.path.join(out_dir + ".again", rel)
        for d in (os.path.dirname(first), os.path.dirname(second)):
            os.makedirs(d, exist_ok=True)

        code, err, seconds = self.migrate(source, first, flags)
        if code is None:
            return "failed", "hang: no result within %d s" % self.args.timeout, seconds
        if code < 0 or code > 1:
            return "failed", "crash: exit status %d\n%s" % (code, err[-2000:]), seconds
        if code == 1:
            if os.path.exists(first):
                return "failed", "refused the file but wrote an output anyway", seconds
            ok, _ = self.compiles(source, flags, original)
            if ok:
                return "failed", "the file compiles, but the tool failed on it:\n" + err[-2000:], seconds
            return "refused", "does not compile as it is (left alone, as it must be)", seconds

        with open(first, encoding="utf-8", errors="surrogateescape") as f:
            migrated = f.read()
        status = "unchanged" if migrated == original else "migrated"
        if status == "migrated" and not uses_libtorch(original, os.path.dirname(source)):
            return "failed", "a file without LibTorch code was changed", seconds
        # The second run is also the check that the output compiles: the tool
        # parses it as clang++ would (the precompiled <torch/torch.h> only for a
        # file that includes it) and refuses it, with status 1, if it does not.
        # Only then is clang++ asked, to tell the two failures apart.
        code, err, more = self.migrate(first, second, flags)
        seconds += more
        if code != 0 and status == "migrated" and not self.compiles(first, flags, migrated)[0]:
            return "failed", "compiled before, not after migration:\n" + err[-3000:], seconds
        if code != 0:
            return "failed", "second run failed (status %s):\n%s" % (code, err[-2000:]), seconds
        with open(second, encoding="utf-8", errors="surrogateescape") as f:
            if f.read() != migrated:
                return "failed", "not idempotent: a second run changed the output", seconds
        return status, "", seconds

    def report(self, index, total, name, result):
        status, reason, seconds = result
        with self.lock:
            print("[%d/%d] %-9s %s (%.1f s)%s" % (index, total, status, name, seconds,
                                                  "" if status != "failed" else ": " + reason.splitlines()[0]),
                  flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("--clangxx", required=True)
    parser.add_argument("--syntax-flags", required=True)
    parser.add_argument("--pch", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--corpus", default=os.path.join(HERE, "corpus.txt"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per tool or compiler run")
    parser.add_argument("--only", default="", help="only files whose path contains this")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    args.work = os.path.abspath(args.work)
    os.environ.setdefault("TO_DEVICE_MIGRATE_CACHE", os.path.join(args.work, "pch-cache"))

    corpus = Corpus(args)
    entries = [e for e in read_corpus(args.corpus) if args.only in e[1]]
    names = ["%s/%s" % e for e in entries]
    results = [None] * len(entries)
    start = time.monotonic()
    done = [0]

    def one(i):
        results[i] = corpus.check(*entries[i])
        with corpus.lock:
            done[0] += 1
            n = done[0]
        corpus.report(n, len(entries), names[i], results[i])

    # The first LibTorch file alone: it builds the precompiled header the others use.
    first = next((i for i, e in enumerate(entries) if e[0] != "googletest"), None)
    if first is not None:
        one(first)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(one, [i for i in range(len(entries)) if i != first]))

    count = lambda s: sum(1 for r in results if r[0] == s)
    failures = [(names[i], r[1]) for i, r in enumerate(results) if r[0] == "failed"]
    with open(os.path.join(args.work, "failures.txt"), "w") as f:
        for name, reason in failures:
            f.write("%s: %s\n" % (name, reason))
    print("%d files, %d migrated, %d unchanged, %d failed" %
          (len(entries), count("migrated"), count("unchanged") + count("refused"), count("failed")))
    print("(%d of the unchanged do not compile as they are and were refused, untouched; "
          "%.0f s in all; failures: %s)" % (count("refused"), time.monotonic() - start,
                                            os.path.join(args.work, "failures.txt")))
    for name, reason in failures:
        print("FAILED %s: %s" % (name, reason))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
