#!/usr/bin/env python3
"""bench/ubench/handover_cost.py — what a line handed over between threads
costs, and what walking the hand-over uBs' blocks costs without one.

    bench/ubench/handover_cost.py --build build-test [--rounds 5] [--n 1048576]
        [--blocks 512,8192] [--pair-rounds 3] [--program INSTR --phase ID ...]

Part 1, per round (the node's shape probed before and after:
bench/accuracy/handoff_probe.py): dealt_blocks.c at two threads ({0},{1})
and one ({0}) for each block size: ns per element of a thread's share of a
sweep walked in contiguous parts, dealt out the same way every sweep (keep)
and dealt out to the next thread every sweep (flip), then the medians near,
far and over all rounds. Part 2: the uB pair ho1p / hk1p run side by side
on 1t, 2t and 2t-1core (phaseprobe-ubench run --quick --interleave, a
temporary NPPDB) and each footprint's cost per line, (ho1p - hk1p tpi) x 8
elements a line. Part 3, with --program (an instrumented build) and --phase:
per round the program once sampled at two threads (each phase's lines
handed over per invocation: handover_share x footprint / 64 B, summed over
its streams) and timing-only (PHASEPROBE_SAMPLING=off) at one and two
threads; the ns a line a phase would have to pay for its two-thread time
beyond half its one-thread time: (T2 - T1 / 2) / (lines x invocations / 2).
"""
import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(1, os.path.join(HERE, "..", "accuracy"))
import handoff_probe  # noqa: E402
import provenance  # noqa: E402  (bench/provenance.py)

ROOT = os.path.dirname(os.path.dirname(HERE))
CONFIGS = (("2t", {"OMP_NUM_THREADS": "2", "OMP_PLACES": "{0},{1}", "OMP_PROC_BIND": "close"}),
           ("1t", {"OMP_NUM_THREADS": "1", "OMP_PLACES": "{0}", "OMP_PROC_BIND": "close"}))
NODES = ("vm-1t:1:{0}:close", "vm-2t:2:{0},{1}:spread", "vm-2t-1core:2:{0}:close")


def fail(msg):
    print("handover_cost.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def pair_costs(build, rounds, tmp):
    """(node, footprint KiB, ho1p tpi, hk1p tpi, ns a line) of a fresh run."""
    db = os.path.join(tmp, "pair.sqlite")
    cmd = [os.path.join(build, "bin", "phaseprobe-ubench"), "run", "--db", db, "--quick",
           "--rounds", str(rounds), "--ubench", "ho1p,hk1p"]
    for n in NODES:
        cmd += ["--interleave", n]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail("phaseprobe-ubench: %s" % (r.stderr.strip().splitlines() or ["failed"])[-1])
    c = sqlite3.connect(db)
    tpi = {}
    for node, ub, k, t in c.execute(
            "select n.label, p.ubench, p.first_footprint_kib, p.tpi_us from profiles p "
            "join nodes n on n.id = p.node_id"):
        tpi[(node, k, ub)] = t
    out = []
    for (node, k, ub), t in sorted(tpi.items()):
        if ub == "ho1p" and (node, k, "hk1p") in tpi:
            keep = tpi[(node, k, "hk1p")]
            one = node == "vm-1t"
            out.append((node, k, t, keep, 0.0 if one else max(0.0, t - keep) * 8 * 1e3))
    return out


def phase_file(program, env, tmp, sampled):
    out = os.path.join(tmp, "phases.json")
    env = dict(os.environ, PHASEPROBE_OUT=out, **env)
    if not sampled:
        env["PHASEPROBE_SAMPLING"] = "off"
    r = subprocess.run([program], env=env, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(out):
        fail("%s: exit %d, no phase file" % (program, r.returncode))
    with open(out) as f:
        doc = json.load(f)
    os.unlink(out)
    return {p["id"]: p for p in doc["phases"]}


def phase_round(program, ids, tmp):
    """{id: (lines an invocation, invocations, T1, T2)} of one round."""
    two = dict(CONFIGS)["2t"]
    sampled = phase_file(program, two, tmp, True)
    t2 = phase_file(program, two, tmp, False)
    t1 = phase_file(program, dict(CONFIGS)["1t"], tmp, False)
    out = {}
    for i in ids:
        if i not in sampled or i not in t1 or i not in t2:
            fail("%s: no phase %s" % (program, i))
        lines = sum(s.get("handover_share", 0) * s["footprint_kib"] * 1024 / 64 for s in sampled[i]["streams"])
        out[i] = (lines, sampled[i]["invocations"], t1[i]["time_s"], t2[i]["time_s"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="build directory (its bin/phaseprobe-ubench)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--n", type=int, default=1 << 20, help="doubles in dealt_blocks' array")
    ap.add_argument("--blocks", default="512,8192", help="block sizes in doubles, comma-separated")
    ap.add_argument("--sweeps", type=int, default=50)
    ap.add_argument("--pair-rounds", type=int, default=3, help="--rounds of the uB pair (0: skip part 2)")
    ap.add_argument("--program", help="an instrumented program (part 3)")
    ap.add_argument("--phase", action="append", default=[], help="a phase id of --program (repeatable)")
    ap.add_argument("--cc", default="clang-14")
    a = ap.parse_args()
    if bool(a.program) != bool(a.phase):
        fail("--program and --phase come together")
    try:
        blocks = [int(b) for b in a.blocks.split(",")]
    except ValueError:
        fail("--blocks takes comma-separated integers, found '%s'" % a.blocks)
    if min([a.rounds, a.n, a.sweeps] + blocks) < 1 or max(blocks) > a.n or a.pair_rounds < 0:
        fail("--rounds, --n, --sweeps and --blocks take positive numbers, blocks at most --n")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            exe, probe = handoff_probe.program_and_probe(a.cc, os.path.join(HERE, "dealt_blocks.c"), tmp)
        except handoff_probe.ProbeError as ex:
            fail(str(ex))
        for _ in range(a.rounds):
            before = probe.ns()
            ns = {}
            for b in blocks:
                for label, env in CONFIGS:
                    out = subprocess.run([exe, str(a.n), str(b), str(a.sweeps)],
                                         env=dict(os.environ, **env), check=True,
                                         capture_output=True, text=True).stdout.split()
                    ns[(b, label)] = tuple(float(x) for x in out[1:4])
            rows.append((time.strftime("%H:%M:%S"), (before + probe.ns()) / 2, ns))
        pairs = pair_costs(a.build, a.pair_rounds, tmp) if a.pair_rounds else []
        phases = [phase_round(a.program, a.phase, tmp) for _ in range(a.rounds)] if a.program else []
    for line in provenance.header("hand-over: walks dealt out in blocks, and the uB pair ho1p / hk1p",
                                  ROOT, ["bench/ubench", "ubench"]):
        print(line)
    print("array   : %d doubles (%.1f MiB), %d sweeps a run, median of 5 runs" % (
        a.n, a.n * 8 / 2**20, a.sweeps))
    print("(handoff: ns of a cache line's round trip between CPUs 0 and 1, the mean of a probe before and "
          "after the round; near: under twice the fastest round's, far: the others; ns per element of "
          "a thread's share of a sweep: contiguous parts / dealt out the same way (keep) / to the next "
          "thread (flip))")
    print()
    keys = [(b, label) for b in blocks for label, _ in CONFIGS]
    cols = ["%-9s %8s" % ("time", "handoff")]
    for b, label in keys:
        cols.append("%26s" % ("B=%d %s: cont keep flip" % (b, label)))
    print("  ".join(cols))

    def line(name, h, ns):
        cells = ["%-9s %8.0f" % (name, h)]
        for k in keys:
            cells.append("%26s" % ("%.3f %.3f %.3f" % ns[k]))
        print("  ".join(cells))

    for t, h, ns in rows:
        line(t, h, ns)
    for name, group in handoff_probe.shape_groups(rows, lambda r: r[1]):
        med = {k: tuple(statistics.median(r[2][k][i] for r in group) for i in range(3)) for k in keys}
        line(name, statistics.median(r[1] for r in group), med)
    if pairs:
        print()
        print("uB pair (phaseprobe-ubench run --quick --rounds %d --ubench ho1p,hk1p, side by side on %s):"
              % (a.pair_rounds, ", ".join(n.split(":")[0] for n in NODES)))
        print("%-12s %10s %10s %10s %10s" % ("node", "KiB", "ho1p_us", "hk1p_us", "ns_a_line"))
        for node, k, ho, hk, c in pairs:
            print("%-12s %10.0f %10.5f %10.5f %10.2f" % (node, k, ho, hk, c))
    if phases:
        print()
        print("phases of %s (per round: lines handed over an invocation at two threads, invocations, "
              "timing-only T1 and T2 in s; ns_a_line = (T2 - T1/2) / (lines x invocations / 2)):" % a.program)
        print("%-18s %10s %6s %9s %9s %10s" % ("phase", "lines", "inv", "T1", "T2", "ns_a_line"))
        for i in a.phase:
            got = []
            for r in phases:
                lines, inv, t1, t2 = r[i]
                ns = (t2 - t1 / 2) / (lines * inv / 2) * 1e9 if lines > 0 else float("nan")
                got.append(ns)
                print("%-18s %10.0f %6d %9.4f %9.4f %10.2f" % (i, lines, inv, t1, t2, ns))
            print("%-18s %10s %6s %9s %9s %10.2f  (median)" % (i, "", "", "", "", statistics.median(got)))


if __name__ == "__main__":
    main()
