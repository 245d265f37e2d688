#!/usr/bin/env python3
"""Prints a phase file's program.threads_share_cpus and threads
(Shared_cpus_exec.c); with --expect-by-affinity, checks it against this
process's CPUs instead (an unbound team shares where there are fewer CPUs
than threads)."""
import json
import os
import sys

prog = json.load(open(sys.argv[1]))["program"]
share = prog.get("threads_share_cpus")
if "--expect-by-affinity" in sys.argv:
    want = len(os.sched_getaffinity(0)) < prog["threads"]
    if share is not want:
        sys.exit("threads_share_cpus=%r, expected %r with %d CPUs and %d threads"
                 % (share, want, len(os.sched_getaffinity(0)), prog["threads"]))
    print("as the process's CPUs say")
else:
    print("threads_share_cpus=%s threads=%d" % (json.dumps(share), prog["threads"]))
