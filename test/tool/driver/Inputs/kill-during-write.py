"""kill-during-write.py TOOL INPUT SCRATCH: runs `TOOL -i` on copies of INPUT and
kills it (SIGKILL) after increasing delays, from the start of the run to past
its end. After each kill the file must be byte-identical to the original or to
the complete migration (computed first, with -o)."""
import os
import shutil
import signal
import subprocess
import sys
import time

tool, source, scratch = sys.argv[1:4]
os.makedirs(scratch, exist_ok=True)
original = open(source, "rb").read()
migrated_path = os.path.join(scratch, "migrated.cpp")
start = time.monotonic()
subprocess.run([tool, source, "-o", migrated_path], check=True)
full_run = time.monotonic() - start
migrated = open(migrated_path, "rb").read()
assert migrated != original, "the input needs migrating for this test to mean anything"

seen = {"original": 0, "migrated": 0}
steps = 6
# From the start of a run to its end, then one delay well past it.
delays = [full_run * i / steps for i in range(steps + 1)] + [full_run * 3]
for i, delay in enumerate(delays):
    target = os.path.join(scratch, "target-%d.cpp" % i)
    shutil.copy(source, target)
    proc = subprocess.Popen([tool, "-i", target], stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    content = open(target, "rb").read()
    if content == original:
        seen["original"] += 1
    elif content == migrated:
        seen["migrated"] += 1
    else:
        sys.exit("killed after %.2fs: %s is neither the original nor the migration" % (delay, target))
print("after %d kills: %d original, %d migrated" % (len(delays), seen["original"], seen["migrated"]))
if seen["migrated"] == 0:
    # The last delay is three whole runs: at least that one must have finished.
    sys.exit("no run finished: the delays never reached the end of a run")
