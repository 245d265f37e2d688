#!/usr/bin/env python3
"""bench/ubench/search_shape.py — the uB kernel's search walk against a
binary search's, at the same mean jump (bench/ubench/search_shape.c).

    bench/ubench/search_shape.py [--threads 1,2] [--rounds 9] [--execs 2000000]
                                 [--jump 2702] [--log2-block 16]

Builds search_shape.c with the project's clang and runs both walks in
rounds that alternate them, so a drift of the machine moves both alike;
per thread count it prints each walk's median time per access over the
rounds, its spread (min-max), the mean jump it made and the ratio
walk / bisect (the median of the per-round ratios).
"""
import argparse
import os
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
    ap.add_argument("--execs", type=int, default=2000000, help="loop executions per thread")
    ap.add_argument("--jump", type=int, default=2702, help="the walk's mean jump, elements")
    ap.add_argument("--log2-block", type=int, default=16, help="the bisection's block, log2 elements")
    ap.add_argument("--cc", default="clang-14")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "search_shape")
        subprocess.run([args.cc, "-O2", "-fopenmp", os.path.join(HERE, "search_shape.c"), "-o", exe],
                       check=True)
        print("search walk shapes: the uB's uniform-step walk vs a binary search, same mean jump")
        print("machine : %s" % provenance.machine())
        print("commit  : %s" % provenance.commit(ROOT, ["bench/ubench"]))
        print("command : %s" % " ".join(sys.argv))
        print()
        print("%-7s %-7s %12s %16s %10s %12s" % ("threads", "walk", "ns/access", "spread", "mean_jump",
                                                 "walk/bisect"))
        for th in [int(t) for t in args.threads.split(",")]:
            env = dict(os.environ, OMP_NUM_THREADS=str(th), OMP_PROC_BIND="spread", OMP_PLACES="cores")
            res = {"walk": [], "bisect": []}
            jumps = {}
            for _ in range(args.rounds):
                for mode in ("walk", "bisect"):
                    out = subprocess.run([exe, mode, str(args.jump), str(args.execs),
                                          str(args.log2_block)], env=env, check=True,
                                         capture_output=True, text=True).stdout.split()
                    res[mode].append(float(out[2]))
                    jumps[mode] = float(out[3])
            ratio = statistics.median(w / b for w, b in zip(res["walk"], res["bisect"]))
            for mode in ("walk", "bisect"):
                v = res[mode]
                print("%-7d %-7s %12.2f %16s %10.0f %12s" % (
                    th, mode, statistics.median(v), "%.2f-%.2f" % (min(v), max(v)), jumps[mode],
                    "%.2f" % ratio if mode == "walk" else ""))


if __name__ == "__main__":
    main()
