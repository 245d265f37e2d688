#!/usr/bin/env python3
"""bench/ubench/search_cost.py — what a search (a random stream walked with a
mean jump) costs per access against a uniform draw, and what the searches
add to a grid's time.

    bench/ubench/search_cost.py [--build DIR] [--kib 32768] [--jumps 1024,16384,21616]
                                [--threads 1,2] [--rounds 5] [--grid default]

Part 1 runs the uB kernel program (phaseprobe-ubench-kernels) on mbw1cr at
one footprint, uniform (stride = one element) and with each mean jump, in
rounds that alternate the configurations, so a drift of the machine moves
all of them alike; per thread count and configuration it prints the
declared mean jump, the median time per access over the rounds, its spread
(min-max) and the ratio to the uniform draw's median. Part 2 times
`phaseprobe-ubench run --ubench mbw1cr,mbw1pr` over a grid into a scratch
NPPDB and counts its configurations, searches (stride above one element)
among them.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    print("search_cost.py: " + msg, file=sys.stderr)
    sys.exit(2)


def numbers(text, what, kind=float):
    try:
        return [kind(x) for x in text.split(",") if x]
    except ValueError:
        fail("%s: '%s' is not a comma-separated list of numbers" % (what, text))


def run_kernel(program, threads, kib, stride):
    """One configuration in a fresh kernel process: (declared stride, tpi us)."""
    line = ubenchkernels.line(1, "sum", "double", "c", "r", [(kib, stride)], (5, 9, 3, 3, 0.1))
    try:
        [answer] = ubenchkernels.run(program, [line], threads, "cores", "spread" if threads > 1 else "close")
    except ubenchkernels.RunError as e:
        fail(str(e))
    return float(answer[1].split(":")[1]), ubenchkernels.median_tpi(answer) * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--kib", type=float, default=32768, help="footprint (KiB), default 32768")
    ap.add_argument("--jumps", default="1024,16384,21616", help="mean jumps (bytes)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--grid", default="default", choices=["quick", "default", "full", "none"],
                    help="grid timed in part 2 ('none': skip it)")
    args = ap.parse_args()
    jumps = numbers(args.jumps, "--jumps")
    threads = numbers(args.threads, "--threads", int)
    kernels = os.path.join(args.build, "bin", "phaseprobe-ubench-kernels")
    ubench = os.path.join(args.build, "bin", "phaseprobe-ubench")
    for p in (kernels, ubench):
        if not os.access(p, os.X_OK):
            fail("%s: not built (cmake --build %s)" % (p, args.build))

    print("phaseprobe uB searches: cost per access against a uniform draw, and grid time")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["ubench"]))
    print("command : %s" % " ".join(["bench/ubench/search_cost.py"] + sys.argv[1:]))
    print()
    configs = [8.0] + jumps  # 8 B (one double): the uniform draw
    print("part 1: mbw1cr %g KiB shared, %d rounds alternating, tpi = median repetition / accesses"
          % (args.kib, args.rounds))
    print("%7s %10s %12s %11s %19s %9s" % ("threads", "asked_B", "declared_B", "tpi_us", "min-max", "x uniform"))
    for th in threads:
        tpi = {c: [] for c in configs}
        declared = {}
        for _ in range(args.rounds):
            for c in configs:
                declared[c], t = run_kernel(kernels, th, args.kib, c)
                tpi[c].append(t)
        uniform = statistics.median(tpi[8.0])
        for c in configs:
            m = statistics.median(tpi[c])
            print("%7d %10g %12g %11.4f %9.4f-%-9.4f %9.2f" % (
                th, c, declared[c], m, min(tpi[c]), max(tpi[c]), m / uniform))
    if args.grid == "none":
        return
    print()
    work = tempfile.mkdtemp(prefix="search_cost.")
    try:
        db = os.path.join(work, "nppdb.sqlite")
        cmd = [ubench, "run", "--db", db, "--node", "scratch", "--threads", args.threads,
               "--ubench", "mbw1cr,mbw1pr"] + ([] if args.grid == "default" else ["--" + args.grid])
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - t0
        if p.returncode != 0:
            fail("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()[-300:]))
        lst = subprocess.run([ubench, "list", "--grid", args.grid, "--ubench", "mbw1cr,mbw1pr"],
                             capture_output=True, text=True)
        rows = [l.split() for l in lst.stdout.splitlines()
                if l.startswith(("mbw1cr ", "mbw1pr "))]
        searches = sum(1 for r in rows if float(r[1].split(":")[1]) > 8)
        print("part 2: %s grid, mbw1cr and mbw1pr, threads %s: %d configurations per thread count "
              "(%d searches), %.1f s wall" % (args.grid, args.threads, len(rows), searches, wall))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
