#!/usr/bin/env python3
"""bench/ubench/load_latency.py — the caches a node's threads really get: one
dependent load's time at each footprint (a pointer chase over a random
permutation of the footprint's lines, bench/ubench/load_latency.c), on one
CPU alone and on every CPU of --cpus at once (each its own chase).

    bench/ubench/load_latency.py [--rounds 5] [--loads 2000000]
        [--kib 256,1024,2048,4096,8192,16384,32768,65536] [--cpus 0,1]
        [--cc clang-14] [--out FILE]

lscpu tells the caches a VM is given, not the ones it gets: on 2026-12-01
the AMD EPYC VM reported a 32 MiB L3 and took 36 ns a dependent load at 4
MiB, 131 ns at 8 MiB and 154-174 ns from 16 MiB up, DRAM latency
(bench/results/load-latency-2026-12-01-epyc.txt), where the uBs'
prefetched walks ran as four days before; NPB BT W's phases, whose
accesses a prefetcher follows less well, ran 2.6-4.0x their Xeon time,
estimated from their clones 1.9-2.5x
(bench/results/accuracy-2026-12-01-cross-ia-*/NOTE.md). A node's NPPDB
profiles hold its state of that hour; this reading says which state it was.

Prints, per footprint, the median ns per load over the rounds and its
spread (min-max), alone and together (the slowest CPU of each round), and
their ratio. Rounds alternate alone and together, so a drift of the
machine moves both alike.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_KIB = "256,1024,2048,4096,8192,16384,32768,65536"


def fail(msg):
    print("load_latency.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def int_list(text, what, least, kind):
    """The comma-separated whole numbers of option \p what, each at least
    \p least, or bad input."""
    try:
        vals = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        vals = []
    if not vals or min(vals) < least:
        fail("%s takes a comma-separated list of %s numbers, not '%s'" % (what, kind, text))
    return vals


def parse(out):
    """{KiB: ns} from the chase's lines."""
    res = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[0] == "ok":
            res[int(f[1])] = float(f[2])
    return res


def chase(exe, cpus, loads, kib):
    """One chase of every footprint on each CPU of cpus at once: the slowest
    CPU's ns per load for each footprint."""
    procs = []
    home = os.sched_getaffinity(0)
    for cpu in cpus:
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError as ex:
            fail("CPU %d: cannot run there: %s" % (cpu, ex.strerror))
        # The child inherits the affinity set just before it starts.
        procs.append(subprocess.Popen([exe, str(loads)] + [str(k) for k in kib],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    os.sched_setaffinity(0, home)
    results = []
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            fail("load_latency: %s" % (err.strip() or "exit %d" % p.returncode))
        results.append(parse(out))
    return {k: max(r[k] for r in results) for k in kib}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--loads", type=int, default=2000000, help="dependent loads per footprint and run")
    ap.add_argument("--kib", default=DEFAULT_KIB, help="footprints, KiB (default %s)" % DEFAULT_KIB)
    ap.add_argument("--cpus", default="0,1", help="CPUs of the together column; the first runs alone")
    ap.add_argument("--cc", default="clang-14")
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    if args.rounds < 1 or args.loads < 1:
        fail("--rounds and --loads take positive numbers")
    kib = int_list(args.kib, "--kib", 1, "positive")
    cpus = int_list(args.cpus, "--cpus", 0, "CPU")
    allowed = os.sched_getaffinity(0)
    missing = [c for c in cpus if c not in allowed]
    if missing:
        fail("--cpus: CPU %s is not one this process may run on (%s)"
             % (",".join(map(str, missing)), ",".join(map(str, sorted(allowed)))))
    problem = textout.out_dir_problem(args.out)
    if problem:
        fail(problem)

    alone = {k: [] for k in kib}
    together = {k: [] for k in kib}
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "load_latency")
        subprocess.run([args.cc, "-O2", os.path.join(HERE, "load_latency.c"), "-o", exe], check=True)
        for _ in range(args.rounds):
            for k, v in chase(exe, cpus[:1], args.loads, kib).items():
                alone[k].append(v)
            if len(cpus) > 1:
                for k, v in chase(exe, cpus, args.loads, kib).items():
                    together[k].append(v)

    lines = provenance.header("dependent-load latency per footprint (pointer chase, one line per load)",
                              ROOT, ["bench/ubench"])
    lines.append("rounds  : %d, %d loads per footprint and run; alone on CPU %d, together on CPUs %s"
                 % (args.rounds, args.loads, cpus[0], ",".join(map(str, cpus))))
    lines.append("")
    head = ["KiB", "alone ns", "spread"]
    if len(cpus) > 1:
        head += ["together ns", "spread", "together/alone"]
    cells = lambda v: ["%.2f" % statistics.median(v), "%.2f-%.2f" % (min(v), max(v))]
    rows = []
    for k in kib:
        row = [k] + cells(alone[k])
        if len(cpus) > 1:
            row += cells(together[k]) + ["%.2f" % (statistics.median(together[k]) / statistics.median(alone[k]))]
        rows.append(row)
    lines += textout.table(head, rows)
    textout.emit("load_latency.py", lines, args.out)


if __name__ == "__main__":
    main()
