#!/usr/bin/env python3
"""bench/ubench/handover.py — what the kernels' handover (a yield after a
sweep where threads outnumber their CPUs) changes in the profiles of a
shared core.

    bench/ubench/handover.py [--line UB=K:S;K:S;K:S ...] [--rounds 5]
        [--policy quick|default] [--threads 2] [--place '{0}'] [--build DIR]

Per round, side by side: one kernel process (phaseprobe-ubench-kernels)
at one thread on PLACE, then one at THREADS threads on PLACE with the
handover on, then one with it off (PHASEPROBE_UBENCH_HANDOVER=off), each
running every line once under the grid's repetition policy. Per line it
prints the median (and range) over the rounds of

  ratio on    tpi on the shared core / tpi at one thread, handover on
  ratio off   the same, handover off
  on / off    tpi on the shared core, handover on over off

A program that synchronizes between its loops hands the core over at
every barrier, so its own time per thread on a shared core is the one
thread's time x THREADS (NPB CG A's code: 1.01x its one-thread time,
bench/results/shared-core-split-2026-11-24.txt); a ratio under THREADS
is a profile that found data in the cache because one thread ran several
sweeps in a row. Measures only.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# CG A's sparse mat-vec; dependent sums from L1 to memory; the small
# update / store / copy streams like those NPB BT W's clones walk (0.5 and 4 MiB).
DEFAULT_LINES = ["spmv3=14408.578125:8;7204.2890625:4;109.375:8", "mbw1p=32768:8", "mbw1p=8192:8",
                 "mbw1p=1024:8", "mbw1p=64:8", "upd1p=512:8", "st1p=512:8", "cpy2p=512:8;512:8",
                 "upd1p=4096:8"]


def fail(msg):
    print("handover.py: " + msg, file=sys.stderr)
    sys.exit(2)


def parse_line(i, text, policy):
    name, sep, streams = text.partition("=")
    if not sep or name not in ubenchkernels.UBENCHES:
        fail("--line %r: expected UB=K:S[;K:S...] with UB one of %s"
             % (text, ", ".join(sorted(ubenchkernels.UBENCHES))))
    try:
        return ubenchkernels.ubench_line(i, name, streams, policy)
    except ValueError as e:
        fail("--line %r: %s" % (text, e))


def run(kernels, lines, threads, place, handover):
    try:
        return ubenchkernels.median_tpis_ns(kernels, lines, threads, place,
                                            env={"PHASEPROBE_UBENCH_HANDOVER": handover})
    except ubenchkernels.RunError as e:
        fail(str(e))


def spread(values):
    return "%.3f (%.3f..%.3f)" % (statistics.median(values), min(values), max(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--line", action="append", help="UB=K:S;... (default: %s)" % " ".join(DEFAULT_LINES))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--policy", choices=sorted(ubenchkernels.POLICIES), default="quick")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--place", default="{0}", help="OMP_PLACES of both placements (default {0}: one CPU)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    if args.rounds < 1:
        fail("--rounds must be 1 or more")
    if args.threads < 2:
        fail("--threads must be 2 or more (the shared placement)")
    kernels = os.path.join(args.build, "bin", "phaseprobe-ubench-kernels")
    if not os.access(kernels, os.X_OK):
        fail("%s: not built" % kernels)
    texts = args.line or DEFAULT_LINES
    lines = [parse_line(i + 1, t, ubenchkernels.POLICIES[args.policy]) for i, t in enumerate(texts)]

    print("phaseprobe uB handover: tpi at %d threads on OMP_PLACES=%s against 1 thread there, "
          "handover on and off" % (args.threads, args.place))
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["ubench"]))
    print("command : %s" % " ".join(["bench/ubench/handover.py"] + sys.argv[1:]))
    print("policy  : %s %s (min reps, max reps, CV %%, cap s, min repetition s); tpi = median repetition / "
          "iterations, ns" % (args.policy, " ".join("%g" % v for v in ubenchkernels.POLICIES[args.policy])))
    print()
    one, on, off = [], [], []
    print("%-5s %-6s %s" % ("round", "line", "tpi 1t / shared on / shared off (ns)"))
    for r in range(args.rounds):
        one.append(run(kernels, lines, 1, args.place, "on"))
        on.append(run(kernels, lines, args.threads, args.place, "on"))
        off.append(run(kernels, lines, args.threads, args.place, "off"))
        for i in range(len(lines)):
            print("%-5d %-6d %.3f / %.3f / %.3f" % (r + 1, i + 1, one[r][i], on[r][i], off[r][i]))
    print()
    width = max(len(t) for t in texts)
    print("%-*s  %-22s %-22s %s" % (width, "line", "ratio on", "ratio off", "on / off"))
    for i, t in enumerate(texts):
        print("%-*s  %-22s %-22s %s" % (width, t, spread([on[r][i] / one[r][i] for r in range(args.rounds)]),
                                        spread([off[r][i] / one[r][i] for r in range(args.rounds)]),
                                        spread([on[r][i] / off[r][i] for r in range(args.rounds)])))


if __name__ == "__main__":
    main()
