#!/usr/bin/env python3
"""bench/overhead/clock_cost.py — what one read of each clock the probes may
use costs: clock_gettime(CLOCK_MONOTONIC) and the time-stamp counter
(runtime/src/clock.h; bench/overhead/clock_cost.c).

    bench/overhead/clock_cost.py [--rounds 9] [--reads 10000000] [--cc clang-14]

Builds clock_cost.c and runs it --rounds times (both clocks in every run,
one after the other, so a drift of the machine moves both alike); prints
per clock the median ns per read over the rounds and its spread (min-max),
and the median of the rounds' ratios.
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
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--reads", type=int, default=10000000, help="reads of each clock per run")
    ap.add_argument("--cc", default="clang-14")
    args = ap.parse_args()
    if args.rounds < 1 or args.reads < 1:
        print("clock_cost.py: --rounds and --reads take positive numbers", file=sys.stderr)
        sys.exit(2)
    mono, tsc = [], []
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "clock_cost")
        subprocess.run([args.cc, "-O2", os.path.join(HERE, "clock_cost.c"), "-o", exe], check=True)
        for _ in range(args.rounds):
            out = subprocess.run([exe, str(args.reads)], check=True, capture_output=True,
                                 text=True).stdout.split()
            mono.append(float(out[1]))
            tsc.append(float(out[2]))
    print("cost of one clock read: clock_gettime(CLOCK_MONOTONIC) and the time-stamp counter")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["bench/overhead", "runtime"]))
    print("command : %s" % " ".join(shlex.quote(a) for a in sys.argv))
    print("rounds  : %d, %d reads of each clock a run" % (args.rounds, args.reads))
    print()
    print("%-14s %10s %14s" % ("clock", "ns/read", "spread"))
    for name, v in (("clock_gettime", mono), ("rdtsc", tsc)):
        print("%-14s %10.2f %14s" % (name, statistics.median(v), "%.2f-%.2f" % (min(v), max(v))))
    if all(tsc):
        print("clock_gettime / rdtsc, median of the rounds: %.2f"
              % statistics.median(m / t for m, t in zip(mono, tsc)))


if __name__ == "__main__":
    main()
