#!/usr/bin/env python3
"""Prints a phase file's program.threads_share_cpus, threads_float and
threads (Shared_cpus_exec.c). With --expect-by-affinity, checks them against
this process's CPUs instead: a team whose threads may all run on every CPU
(unbound) or on one place of CPUs 0 and 1 shares where there are fewer such
CPUs than threads, and floats where there are enough. With --expect-pinned
(OMP_PLACES={0},{1}): neither shares nor floats where CPUs 0 and 1 are
both the process's; else libomp drops the missing place and the team shares
the other."""
import json
import os
import sys

prog = json.load(open(sys.argv[1]))["program"]
share, flt, threads = prog.get("threads_share_cpus"), prog.get("threads_float"), prog["threads"]
cpus = os.sched_getaffinity(0)
if "--expect-by-affinity" in sys.argv:
    usable = len(cpus & {0, 1}) if "span" in sys.argv[1] else len(cpus)
    want = usable < threads
    if share is not want or flt is not (not want):
        sys.exit("threads_share_cpus=%r threads_float=%r, expected %r and %r with %d CPUs and %d threads"
                 % (share, flt, want, not want, usable, threads))
    print("as the process's CPUs say")
elif "--expect-pinned" in sys.argv:
    both = {0, 1} <= cpus
    if flt is not False or share is not (not both):
        sys.exit("threads_share_cpus=%r threads_float=%r with CPUs %s" % (share, flt, sorted(cpus)))
    print("pinned, as the process's CPUs allow")
else:
    print("threads_share_cpus=%s threads_float=%s threads=%d"
          % (json.dumps(share), json.dumps(flt), threads))
