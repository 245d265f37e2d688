#!/usr/bin/env python3
"""bench/accuracy/cpu_turns.py — a program on one thread pinned to each CPU
in turn, wall time side by side.

    bench/accuracy/cpu_turns.py --program '/tmp/pubn/npb-bt.W/plain' \\
        [--cpus 0,1] [--pairs 6] [--out FILE]

Per pair: the program once on every CPU of --cpus, in that order
(OMP_NUM_THREADS=1, OMP_PLACES={cpu}, OMP_PROC_BIND=close), so a drift of
the machine moves them alike. Prints per CPU the median wall time over the
pairs and its spread (min-max). Tells one slow CPU from a slow minute: on
the AMD EPYC VM NPB BT W's one-thread runs moved by 20-40% within an
accuracy run, all of them pinned to the first vCPU.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
from apps import clean_env, wall_s  # noqa: E402  (bench/apps.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROG = "cpu_turns.py"


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", required=True, help="the program's path and arguments")
    ap.add_argument("--cpus", default="0,1", help="CPUs to pin it to in turn (default 0,1)")
    ap.add_argument("--pairs", type=int, default=6, help="runs on each CPU (default 6)")
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    argv = args.program.split()
    if not os.access(argv[0], os.X_OK):
        fail("--program %r: %s: not an executable" % (args.program, argv[0]))
    try:
        cpus = [int(c) for c in args.cpus.split(",")]
    except ValueError:
        fail("--cpus %r: a comma-separated list of CPU numbers" % args.cpus)
    if args.pairs < 1:
        fail("--pairs %d: one or more" % args.pairs)
    times = {c: [] for c in cpus}
    for _ in range(args.pairs):
        for c in cpus:
            env = clean_env({"OMP_NUM_THREADS": "1", "OMP_PLACES": "{%d}" % c, "OMP_PROC_BIND": "close"})
            times[c].append(wall_s(argv, env, PROG, "%s on CPU %d" % (argv[0], c)))
    lines = ["phaseprobe CPU turns: one thread pinned to each CPU in turn, wall time",
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(ROOT, ["bench/accuracy"]),
             "command : %s" % " ".join(sys.argv),
             "runs    : %d on each CPU, alternating" % args.pairs,
             ""]
    rows = [[str(c), "%.3f" % statistics.median(v), "%.3f-%.3f" % (min(v), max(v)),
             " ".join("%.3f" % t for t in v)] for c, v in times.items()]
    lines += textout.table(["cpu", "median_s", "spread_s", "runs_s (in order)"], rows)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
