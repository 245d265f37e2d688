#!/usr/bin/env python3
"""bench/ubench/compute_throughput.py — a node's arithmetic as latency and as
throughput: the compute uBs of four dependent chains (cadd, cmul) beside
their throughput twins of sixteen independent ones (tadd, tmul), with the
divisions and square roots (cdiv, csqrt), at each node configuration.

    bench/ubench/compute_throughput.py [--build build] [--rounds 5]
        [--config 1t=1:{0} --config 2t=2:{0},{1} --config 2t-1core=2:{0}]
        [--out FILE]

The estimator prices a phase clone's padding by the phase's op mix with the
latency uBs (estimator/README.md, "Padding priced by the op mix"), or with
the throughput ones under --mix-pricing throughput. Between two CPU designs
the two families move apart where one design has shorter adders and the
other more pipes: miniBUDE's independent poses were priced -23...-33% and
+22...+33% off by latency between the Zen 4 and Emerald Rapids VMs (runs
ie, ig). This table says how far apart a node's two families are; two
nodes' tables side by side say what a mix of independent work is priced at
under each.

Each round measures every configuration in turn (phaseprobe-ubench run
--quick, one profile per uB), so a drift of the machine moves all of them
alike. Prints per configuration and uB the median ns per element (16
operations) over the rounds, its spread (min-max), and per operation kind
the latency over throughput ratio.
"""
import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
UBS = ("cadd", "tadd", "cmul", "tmul", "cdiv", "csqrt")
PAIRS = (("add", "cadd", "tadd"), ("mul", "cmul", "tmul"))
DEFAULT_CONFIGS = ["1t=1:{0}", "2t=2:{0},{1}", "2t-1core=2:{0}"]


def fail(msg):
    print("compute_throughput.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def parse_config(text):
    """(label, threads, places) of LABEL=THREADS:PLACES, or bad input."""
    label, eq, rest = text.partition("=")
    threads, colon, places = rest.partition(":")
    if not eq or not colon or not label or not places:
        fail("--config takes LABEL=THREADS:PLACES (2t=2:{0},{1}), not '%s'" % text)
    try:
        n = int(threads)
    except ValueError:
        n = 0
    if n < 1:
        fail("--config %s: the thread count must be a positive whole number" % text)
    return label, n, places


def measure(exe, db, label, threads, places):
    """{uB: ns per element} of one phaseprobe-ubench run of UBS on one
    configuration."""
    bind = "spread" if places.count("{") > 1 else "close"
    p = subprocess.run([exe, "run", "--node", label, "--db", db, "--quick", "--threads",
                        str(threads), "--places", places, "--bind", bind, "--ubench", ",".join(UBS)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("phaseprobe-ubench on %s: %s" % (label, (p.stderr.strip().splitlines() or
                                                      ["exit %d" % p.returncode])[-1]))
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT p.ubench, p.tpi_us FROM profiles p JOIN nodes n "
                           "ON n.id = p.node_id WHERE n.label = ? AND p.threads = ?",
                           (label, threads)).fetchall()
    finally:
        con.close()
    got = {ub: tpi * 1000.0 for ub, tpi in rows}
    missing = [ub for ub in UBS if ub not in got]
    if missing:
        fail("%s: phaseprobe-ubench stored no %s (an older build?)" % (label, ", ".join(missing)))
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="build directory (its bin/phaseprobe-ubench)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--config", action="append", help="LABEL=THREADS:PLACES (repeatable; "
                    "default %s)" % " ".join(DEFAULT_CONFIGS))
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    if args.rounds < 1:
        fail("--rounds takes a positive number")
    exe = os.path.join(args.build, "bin", "phaseprobe-ubench")
    if not os.access(exe, os.X_OK):
        fail("%s: not an executable (build the project first, or pass --build)" % exe)
    configs = [parse_config(c) for c in (args.config or DEFAULT_CONFIGS)]
    if len({c[0] for c in configs}) != len(configs):
        fail("--config: a label appears twice")
    problem = textout.out_dir_problem(args.out)
    if problem:
        fail(problem)

    ns = {(c[0], ub): [] for c in configs for ub in UBS}
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "compute.sqlite")
        for _ in range(args.rounds):
            for label, threads, places in configs:
                for ub, v in measure(exe, db, label, threads, places).items():
                    ns[(label, ub)].append(v)

    lines = provenance.header("compute uBs: latency (4 dependent chains x 4) and throughput "
                              "(16 independent chains x 1), ns per element of 16 operations",
                              ROOT, ["ubench"])
    lines.append("rounds  : %d, every configuration in turn each round; %s"
                 % (args.rounds, "; ".join("%s = %d threads on %s" % c for c in configs)))
    lines.append("")
    med = lambda k: statistics.median(ns[k])
    rows = [[label, ub, "%.3f" % med((label, ub)),
             "%.3f-%.3f" % (min(ns[(label, ub)]), max(ns[(label, ub)]))]
            for label, _, _ in configs for ub in UBS]
    lines += textout.table(["config", "uB", "ns/element", "spread"], rows)
    lines.append("")
    rows = [[label, kind, "%.2f" % (med((label, lat)) / med((label, tp)))]
            for label, _, _ in configs for kind, lat, tp in PAIRS]
    lines += textout.table(["config", "operation", "latency / throughput"], rows)
    textout.emit("compute_throughput.py", lines, args.out)


if __name__ == "__main__":
    main()
