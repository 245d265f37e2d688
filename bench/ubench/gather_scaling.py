#!/usr/bin/env python3
"""bench/ubench/gather_scaling.py — a CSR gather loop, flat and in rows,
against the dependent sum uB it stands in for, from two cores to one
(bench/ubench/gather_scaling.c).

    bench/ubench/gather_scaling.py [--rounds 9] [--n 1850000] [--nx 14000] [--reps 101]

NPB CG A's main region takes 2.32x its two-core time on one core, the
padded mbw1p it is matched to 2.0x (run cd). This builds gather_scaling.c
with the project's clang and runs it in rounds that alternate two threads
on two cores and one thread on one, each run timing both loops side by
side over the same arrays (defaults: CG A's 14.4 MB of a and 7.2 MB of
column indices, its 109 KB vector). Per loop it prints the median time per
element of one thread on each configuration and the ratio of the same
total work, one core / two (2 x ns_1t / ns_2t): the median over the
rounds of each round's ratio, and their range.
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
# One place per vCPU: libomp reads this VM's two vCPUs as one core, so
# OMP_PLACES=cores would let the two threads float (run hk).
CONFIGS = (("2t-2cores", {"OMP_NUM_THREADS": "2", "OMP_PLACES": "{0},{1}", "OMP_PROC_BIND": "close"}),
           ("1t", {"OMP_NUM_THREADS": "1", "OMP_PLACES": "{0}", "OMP_PROC_BIND": "close"}))
LOOPS = ("gather", "sum", "rows")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--n", type=int, default=1850000, help="elements of a and idx")
    ap.add_argument("--nx", type=int, default=14000, help="elements of the gathered vector")
    ap.add_argument("--reps", type=int, default=101, help="timed repetitions per run (median)")
    ap.add_argument("--cc", default="clang-14")
    args = ap.parse_args()
    if min(args.rounds, args.n, args.nx, args.reps) < 1:
        print("gather_scaling.py: --rounds, --n, --nx and --reps take positive numbers", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "gather_scaling")
        subprocess.run([args.cc, "-O2", "-fopenmp", os.path.join(HERE, "gather_scaling.c"), "-o", exe],
                       check=True)
        ns = {(c, k): [] for c, _ in CONFIGS for k in LOOPS}
        for _ in range(args.rounds):
            for label, env in CONFIGS:
                out = subprocess.run([exe, str(args.n), str(args.nx), str(args.reps)],
                                     env=dict(os.environ, **env), check=True,
                                     capture_output=True, text=True).stdout.split()
                for i, k in enumerate(LOOPS):
                    ns[(label, k)].append(float(out[1 + i]))
    print("gather vs sum, two cores to one: CSR gather s += a[i]*x[idx[i]] (one sum; rows of N/NX, "
          "each summed on its own) against mbw1p's s += a[i]")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["bench/ubench"]))
    print("command : %s" % " ".join(shlex.quote(a) for a in sys.argv))
    print("arrays  : a %.1f MB, idx %.1f MB, x %.1f KB; %d rounds alternating the configurations, "
          "median of %d repetitions a run" % (args.n * 8 / 1e6, args.n * 4 / 1e6, args.nx * 8 / 1e3,
                                              args.rounds, args.reps))
    print()
    print("%-7s %12s %12s %14s %14s" % ("loop", "ns_2t-2cores", "ns_1t", "1core/2cores", "range"))
    for k in LOOPS:
        two, one = ns[("2t-2cores", k)], ns[("1t", k)]
        ratios = [2 * o / t for o, t in zip(one, two)]
        print("%-7s %12.3f %12.3f %14.3f %14s" % (k, statistics.median(two), statistics.median(one),
                                                  statistics.median(ratios),
                                                  "%.3f-%.3f" % (min(ratios), max(ratios))))


if __name__ == "__main__":
    main()
