#!/usr/bin/env python3
"""bench/overhead/fault_count.py — what one read of the process's page-fault
count costs (getrusage(RUSAGE_SELF), which the runtime calls at every
counted fork and join of a region; bench/overhead/fault_count.c).

    bench/overhead/fault_count.py [--threads 1,2] [--rounds 9] [--calls 200000] [--cc clang-14]

Builds fault_count.c and runs it in rounds that alternate the thread
counts, so a drift of the machine moves all of them alike; per thread count
it prints the median time per call over the rounds and its spread (min-max).
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--calls", type=int, default=200000, help="getrusage calls per run")
    ap.add_argument("--cc", default="clang-14")
    args = ap.parse_args()
    try:
        counts = [int(t) for t in args.threads.split(",")]
        if min(counts) < 1 or args.rounds < 1 or args.calls < 1:
            raise ValueError
    except ValueError:
        print("fault_count.py: --threads takes positive integers (1,2), --rounds and --calls "
              "positive numbers", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "fault_count")
        subprocess.run([args.cc, "-O2", "-fopenmp", os.path.join(HERE, "fault_count.c"), "-o", exe],
                       check=True)
        res = {t: [] for t in counts}
        for _ in range(args.rounds):
            for t in counts:
                env = dict(os.environ, OMP_NUM_THREADS=str(t), OMP_PROC_BIND="spread", OMP_PLACES="cores")
                out = subprocess.run([exe, str(args.calls)], env=env, check=True, capture_output=True,
                                     text=True).stdout.split()
                res[t].append(float(out[2]))
    print("cost of one read of the page-fault count: getrusage(RUSAGE_SELF) by thread 0 of a team")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["bench/overhead", "runtime"]))
    print("command : %s" % " ".join(shlex.quote(a) for a in sys.argv))
    print("rounds  : %d, %d calls a run, thread counts alternating" % (args.rounds, args.calls))
    print()
    print("%-7s %12s %16s" % ("threads", "ns/call", "spread"))
    for t in counts:
        v = res[t]
        print("%-7d %12.0f %16s" % (t, statistics.median(v), "%.0f-%.0f" % (min(v), max(v))))


if __name__ == "__main__":
    main()
