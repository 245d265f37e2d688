#!/usr/bin/env python3
"""bench/ubench/quick_noise.py — how stable the --quick grid's profiles are
under repetition policies, measured side by side.

    bench/ubench/quick_noise.py [--build DIR] [--threads 2] [--passes 2]
        [--policy NAME=MIN,MAX,CV,CAP,MINREP ...] [--out FILE]

Drives the kernel program (phaseprobe-ubench-kernels) directly with every
configuration of `phaseprobe-ubench list --grid quick`, once per policy and
pass, interleaved (config 1 under every policy, then config 2, ...; the
policy order rotates) so that a drift of the machine's load hits every policy
alike. Per policy it prints the time the grid took, the CV of the tpi over
the repetitions (median, 90th percentile, max, how many over 20% / 100%),
how many profiles kept 2 repetitions, and the repeatability: the relative
difference of the mean tpi between two passes (median, 90th percentile) —
what a user sees when the grid is re-run. Default policies: the quick policy
of the current commit ("current", from repPolicy) and the candidates given.
On a shared machine the numbers measure the other jobs too: compare policies
within one table, re-run on a quiet machine before quoting absolute values.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import textout  # noqa: E402  (bench/textout.py)
import ubenchlist  # noqa: E402  (bench/ubenchlist.py)


def catalogue(ub):
    out = subprocess.run([ub, "list"], stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    return ubenchlist.parse(out)


def grid(ub):
    out = subprocess.run([ub, "list", "--grid", "quick"], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    cfgs = []
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, streams = line.split()
        ks = [tuple(float(x) for x in s.split(":")) for s in streams.split(";")]
        cfgs.append((name, ks))
    return cfgs


class Kernels:
    def __init__(self, prog, threads):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="close",
                   OMP_PLACES="cores", OMP_DYNAMIC="false")
        self.p = subprocess.Popen([prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                  universal_newlines=True, bufsize=1)
        self.p.stdout.readline()
        self.id = 0

    def measure(self, d, ks, pol):
        self.id += 1
        kernel, typ, acc, pat = d
        ks = ks + [(0.0, 0.0)] * (3 - len(ks))
        fields = [str(self.id), kernel, typ, str(len(acc)), acc, pat]
        for k, s in ks:
            fields += [repr(k), repr(s)]
        fields += [str(pol[0]), str(pol[1]), repr(pol[2]), repr(pol[3]), repr(pol[4])]
        self.p.stdin.write(" ".join(fields) + "\n")
        ans = self.p.stdout.readline().split()
        if len(ans) < 6 or ans[1] != "ok":
            return None
        iters = float(ans[2])
        times = [float(t) for t in ans[5].split(",")]
        tpi = [t / iters * 1e6 for t in times]
        m = statistics.mean(tpi)
        cv = statistics.stdev(tpi) / m * 100 if len(tpi) > 1 and m > 0 else 0.0
        return m, cv, len(tpi)


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--policy", action="append", default=[],
                    help="NAME=MIN_REPS,MAX_REPS,CV_PCT,CAP_S,MIN_REP_S")
    ap.add_argument("--out")
    a = ap.parse_args()
    ub = os.path.join(a.build, "bin", "phaseprobe-ubench")
    prog = os.path.join(a.build, "bin", "phaseprobe-ubench-kernels")
    pols = []
    for p in a.policy or ["old-quick=3,10,5,0.25,0.001", "new-quick=5,20,5,1.0,0.005"]:
        name, v = p.split("=")
        f = v.split(",")
        pols.append((name, (int(f[0]), int(f[1]), float(f[2]), float(f[3]), float(f[4]))))
    defs, cfgs = catalogue(ub), grid(ub)
    k = Kernels(prog, a.threads)
    res = {n: {"time": 0.0, "cv": [], "two": 0, "means": {}} for n, _ in pols}
    load0 = os.getloadavg()
    for ps in range(a.passes):
        for ci, (name, ks) in enumerate(cfgs):
            order = pols[(ci + ps) % len(pols):] + pols[:(ci + ps) % len(pols)]
            for pn, pol in order:
                t0 = time.time()
                r = k.measure(defs[name], ks, pol)
                res[pn]["time"] += time.time() - t0
                if r is None:
                    continue
                res[pn]["cv"].append(r[1])
                res[pn]["two"] += r[2] <= 2
                res[pn]["means"].setdefault(ci, []).append(r[0])
    load1 = os.getloadavg()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                            universal_newlines=True).stdout.strip()
    lines = ["# quick-grid noise by repetition policy",
             "",
             "machine: %s, %d CPUs, load %.2f → %.2f; commit %s" % (
                 platform.node(), os.cpu_count(), load0[0], load1[0], commit),
             "command: %s" % " ".join(sys.argv),
             "%d configurations × %d passes at %d threads, policies interleaved" % (
                 len(cfgs), a.passes, a.threads),
             "",
             "| policy (min,max reps, CV%, cap s, min rep s) | s per pass | CV median | CV p90 | CV max "
             "| CV>20% | CV>100% | 2 reps | pass-to-pass diff median | p90 | max |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for pn, pol in pols:
        r = res[pn]
        diffs = [abs(v[0] - v[1]) / v[0] * 100 for v in r["means"].values() if len(v) >= 2 and v[0] > 0]
        n = max(1, a.passes)
        lines.append("| %s %s | %.1f | %.1f%% | %.1f%% | %.0f%% | %d | %d | %d | %.1f%% | %.1f%% | %.0f%% |" % (
            pn, ",".join(str(x) for x in pol), r["time"] / n, pct(r["cv"], 0.5), pct(r["cv"], 0.9),
            max(r["cv"] or [0]), sum(c > 20 for c in r["cv"]) / n, sum(c > 100 for c in r["cv"]) / n,
            r["two"] / n, pct(diffs, 0.5), pct(diffs, 0.9), max(diffs or [0])))
    textout.emit("quick_noise.py", lines, a.out)


if __name__ == "__main__":
    main()
