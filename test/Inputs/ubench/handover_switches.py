"""Runs phaseprobe-ubench-kernels (argv[1]) on one line (argv[2]) with the
environment as given and prints its ready line, then whether the process
switched away from the CPU at least once for every two of the sweeps its
threads yield after: the handover (ubench_kernels.c, HANDOVER) yields
after every sweep of a line of 2^18 iterations or more per thread, each
yield a context switch when another thread shares the CPU. Other load
only adds switches, so a handover that never yields is what fails here."""
import os
import resource
import subprocess
import sys

program, line = sys.argv[1], sys.argv[2].replace("\\n", "\n")
before = resource.getrusage(resource.RUSAGE_CHILDREN)
p = subprocess.run([program], input=line, capture_output=True, text=True)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
out = p.stdout.splitlines()
if p.returncode != 0 or len(out) != 2 or out[1].split()[1] != "ok":
    sys.exit("handover_switches.py: %s: %s" % (program, (p.stdout + p.stderr).strip()))
print(out[0])
answer = out[1].split()
sweeps = int(answer[3])              # R, per repetition
reps = len(answer[5].split(","))
threads = int(os.environ.get("OMP_NUM_THREADS", "1"))
# Per thread: one calibration sweep, R warm-up sweeps, R per repetition.
yields = threads * (1 + sweeps * (1 + reps))
switches = (after.ru_nvcsw - before.ru_nvcsw) + (after.ru_nivcsw - before.ru_nivcsw)
print("switches >= yields / 2: %s" % ("yes" if switches >= yields / 2 else
                                       "no (%d switches, %d yields)" % (switches, yields)))
