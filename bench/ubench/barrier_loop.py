#!/usr/bin/env python3
"""bench/ubench/barrier_loop.py — the bar1p uB's barrier against a plain
OpenMP barrier loop's, side by side, and the loop's by its length.

    bench/ubench/barrier_loop.py [--build DIR] [--config LABEL:THREADS:PLACES:BIND[:WAIT] ...]
        [--kib 16] [--sweeps 40] [--totals 400,2000,20000] [--policy quick|default]
        [--rounds 5] [--out FILE]

The estimator prices every barrier of a node at bar1p's cost (bar1p -
mbw1p per sweep, estimator/src/sync.cpp). With OMP_WAIT_POLICY=passive
programs' barriers cost more than that (bench/results/wait-policy-*).
Per round and configuration, one after the other:

  1. the uB kernel program (phaseprobe-ubench-kernels), fed the lines of
     bar1p and mbw1p at KIB directly (bench/ubenchkernels.py, the grid's
     repetition policy): the mean repetition time per sweep of each, the
     difference the cost of one barrier, as the NPPDB has it;
  2. barrier_loop.c (built here with clang-14 -O2 -fopenmp): each thread
     sums its half of a KIB-KiB array, SWEEPS sweeps a parallel region,
     with and without a barrier after every sweep, for each TOTAL sweeps
     in all; the difference per sweep the cost of one barrier.

Prints per configuration and item the median over the rounds (us) and its
range. Measures only.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "accuracy"))
import apps  # noqa: E402  (bench/apps.py)
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)
from handoff_probe import CC  # noqa: E402  (the project's compiler)
from run import InputError as ConfigError, parse_config  # noqa: E402  (bench/accuracy/run.py)

PROG = "barrier_loop.py"


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def loop_us(exe, cfg, kib, sweeps, total, barrier):
    """Wall us per sweep of one barrier_loop run."""
    argv = [exe, "%g" % kib, str(sweeps), str(max(1, total // sweeps)), "1" if barrier else "0"]
    p = subprocess.run(argv, env=apps.clean_env(cfg["env"]), capture_output=True, text=True)
    if p.returncode != 0:
        fail("barrier_loop on %s: %s" % (cfg["label"], (p.stderr.strip().splitlines() or
                                                        ["exit %d" % p.returncode])[-1]))
    return float(p.stdout.split()[0])


def kernel_cost_us(kernels, cfg, kib, policy):
    """bar1p - mbw1p per sweep in the uB kernel program: one barrier, us."""
    lines = [ubenchkernels.line(1, "sumb", "double", "p", "s", [(kib, 8)], policy),
             ubenchkernels.line(2, "sum", "double", "p", "s", [(kib, 8)], policy)]
    e = cfg["env"]
    extra = {k: v for k, v in e.items() if k not in ("OMP_PLACES", "OMP_PROC_BIND", "OMP_NUM_THREADS")}
    try:
        answers = ubenchkernels.run(kernels, lines, cfg["threads"], e.get("OMP_PLACES"), e.get("OMP_PROC_BIND"),
                                    env=extra)
    except ubenchkernels.RunError as ex:
        fail("the uB kernels on %s: %s" % (cfg["label"], ex))
    per_sweep = kib * 1024 / 8 / cfg["threads"]
    sync, plain = (statistics.mean(times) / iters * per_sweep * 1e6 for iters, _, times in answers)
    return sync - plain


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--config", action="append", default=[], metavar="LABEL:THREADS:PLACES:BIND[:WAIT]")
    ap.add_argument("--kib", type=float, default=16, help="the array, KiB (default 16)")
    ap.add_argument("--sweeps", type=int, default=40, help="the loop's sweeps a parallel region (default 40)")
    ap.add_argument("--totals", default="400,2000,20000", help="the loop's sweeps in all, comma-separated")
    ap.add_argument("--policy", choices=sorted(ubenchkernels.POLICIES), default="quick",
                    help="the uB's repetition policy (default quick, as the accuracy runs' grid)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    try:
        configs = [parse_config(s) for s in (args.config or ["2t-passive:2:cores:spread:passive"])]
    except ConfigError as ex:
        fail(str(ex))
    try:
        totals = [int(x) for x in args.totals.split(",")]
        if min(totals) < 1:
            raise ValueError
    except ValueError:
        fail("--totals %r: expected positive whole numbers, comma-separated" % args.totals)
    if args.rounds < 1 or args.sweeps < 1 or not args.kib > 0:
        fail("--rounds and --sweeps must be positive, --kib above 0")
    problem = textout.out_dir_problem(args.out)
    if problem:
        fail(problem)
    kernels = os.path.join(args.build, "bin", "phaseprobe-ubench-kernels")
    if not os.access(kernels, os.X_OK):
        fail("%s: not built (--build)" % kernels)
    policy = ubenchkernels.POLICIES[args.policy]

    items = ["uB kernels bar1p - mbw1p"] + ["loop, %d sweeps in all" % t for t in totals]
    got = {(c["label"], i): [] for c in configs for i in items}
    with tempfile.TemporaryDirectory(prefix="barrier-loop-") as work:
        exe = os.path.join(work, "barrier_loop")
        try:
            cc = subprocess.run([CC, "-O2", "-fopenmp", os.path.join(HERE, "barrier_loop.c"), "-o", exe],
                                capture_output=True, text=True)
        except OSError as ex:
            fail("%s: %s" % (CC, ex.strerror))
        if cc.returncode != 0:
            fail("%s could not build barrier_loop.c: %s" % (CC, (cc.stderr.strip().splitlines() or ["?"])[-1]))
        for r in range(args.rounds):
            sys.stderr.write("round %d/%d\n" % (r + 1, args.rounds))
            for cfg in configs:
                got[(cfg["label"], items[0])].append(kernel_cost_us(kernels, cfg, args.kib, policy))
                for t, item in zip(totals, items[1:]):
                    got[(cfg["label"], item)].append(
                        loop_us(exe, cfg, args.kib, args.sweeps, t, True) -
                        loop_us(exe, cfg, args.kib, args.sweeps, t, False))

    out = ["phaseprobe barrier loop: one barrier's cost in the uB (bar1p - mbw1p) and in a plain OpenMP loop",
           "machine : %s" % provenance.machine(),
           "commit  : %s" % provenance.commit(ROOT, ["ubench", "bench/ubench"]),
           "command : %s" % " ".join(["bench/ubench/barrier_loop.py"] + sys.argv[1:]),
           "rounds  : %d; per round and configuration the uB kernels, then the loop with and without "
           "barriers at each length; %g KiB, the loop %d sweeps a region, the uB's %s policy"
           % (args.rounds, args.kib, args.sweeps, args.policy), ""]
    rows = []
    for cfg in configs:
        for item in items:
            v = got[(cfg["label"], item)]
            rows.append([cfg["label"], item, "%.2f" % statistics.median(v), "%.2f-%.2f" % (min(v), max(v))])
    out += textout.table(["config", "item", "barrier_us", "spread"], rows)
    textout.emit(PROG, out, args.out)


if __name__ == "__main__":
    main()
