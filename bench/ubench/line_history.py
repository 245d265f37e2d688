#!/usr/bin/env python3
"""bench/ubench/line_history.py — whether a uB's time depends on what its
kernel process ran before it.

    bench/ubench/line_history.py [--ubench spmv3] [--streams K:S;K:S;K:S]
        [--placement NAME:THREADS:PLACES ...] [--rounds 5] [--build DIR]

phaseprobe-ubench keeps one kernel process per configuration for a whole
grid, so every profile is measured after the lines before it. Per round and
placement this starts one kernel process (phaseprobe-ubench-kernels, the
default grid's repetition policy) and feeds it the same line twice, then a
64 MiB sum, then the line again; it prints each run's median time per
iteration, the second and fourth against the first, and per placement
pair the ratio of the first runs and of the second runs. Measures only.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POLICY = ubenchkernels.POLICIES["default"]


def fail(msg):
    print("line_history.py: " + msg, file=sys.stderr)
    sys.exit(2)


def line(i, ubench, streams):
    try:
        return ubenchkernels.ubench_line(i, ubench, streams, POLICY)
    except ValueError as e:
        fail("--streams %r: %s" % (streams, e))


def run(kernels, lines, threads, places):
    try:
        return ubenchkernels.median_tpis_ns(kernels, lines, threads, places)
    except ubenchkernels.RunError as e:
        fail(str(e))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ubench", default="spmv3", choices=sorted(ubenchkernels.UBENCHES))
    ap.add_argument("--streams", default="14408.578125:8;7204.2890625:4;109.375:8",
                    help="K:S per stream (default: NPB CG A's spmv3 of the accuracy runs)")
    ap.add_argument("--placement", action="append",
                    help="NAME:THREADS:PLACES (default 1t:1:{0} and 2t-1core:2:{0})")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    if args.rounds < 1:
        fail("--rounds must be 1 or more")
    kernels = os.path.join(args.build, "bin", "phaseprobe-ubench-kernels")
    if not os.access(kernels, os.X_OK):
        fail("%s: not built" % kernels)
    places = []
    for p in args.placement or ["1t:1:{0}", "2t-1core:2:{0}"]:
        f = p.split(":", 2)
        if len(f) != 3 or not f[1].isdigit():
            fail("--placement %r: expected NAME:THREADS:PLACES" % p)
        places.append((f[0], int(f[1]), f[2]))
    if len(places) < 2:
        fail("--placement: two or more, to compare")
    target = line(1, args.ubench, args.streams)
    lines = [target, target, line(2, "mbw1p", "65536:8"), target]

    print("phaseprobe uB line history: %s %s run twice in one kernel process, then a 64 MiB sum, "
          "then again" % (args.ubench, args.streams))
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["ubench"]))
    print("command : %s" % " ".join(["bench/ubench/line_history.py"] + sys.argv[1:]))
    print("policy  : %s (min reps, max reps, CV %%, cap s, min repetition s); tpi = median repetition / "
          "iterations, ns" % " ".join("%g" % v for v in POLICY))
    print()
    print("%-5s %-10s %8s %8s %8s %8s %9s %9s" % ("round", "placement", "first", "second", "sum64M", "after",
                                                 "2nd/1st", "after/1st"))
    first = {n: [] for n, _, _ in places}
    second = {n: [] for n, _, _ in places}
    for r in range(args.rounds):
        for name, threads, pl in places:
            t = run(kernels, lines, threads, pl)
            first[name].append(t[0])
            second[name].append(t[1])
            print("%-5d %-10s %8.3f %8.3f %8.3f %8.3f %9.3f %9.3f" % (r + 1, name, t[0], t[1], t[2], t[3],
                                                                    t[1] / t[0], t[3] / t[0]))
    print()
    names = [n for n, _, _ in places]
    for name in names:
        ratios = [b / a for a, b in zip(first[name], second[name])]
        print("%-10s second/first median %.3f (%.3f..%.3f)" % (name, statistics.median(ratios), min(ratios),
                                                              max(ratios)))
    for other in names[1:]:
        for label, runs in (("first", first), ("second", second)):
            ratios = [b / a for a, b in zip(runs[names[0]], runs[other])]
            print("%s / %s, %s runs: median %.3f (%.3f..%.3f)" % (other, names[0], label, statistics.median(ratios),
                                                                 min(ratios), max(ratios)))


if __name__ == "__main__":
    main()
