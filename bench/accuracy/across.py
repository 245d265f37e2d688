#!/usr/bin/env python3
"""Estimation rules side by side on MANY accuracy runs' data.

rules.py re-estimates one results folder under several rules against that
run's measured times. One run's maximum is one draw of the machine's noise:
whether a rule helps shows over many runs. This runs rules.py on every
folder given (each with its own nppdb.sqlite) and prints, per folder and
rule, the median and maximum |error| over its rows and whether every
ranking was right, then over all rows of all folders: the median, the 90th
percentile, the maximum, and how many rows were off by more than 10%.

    bench/accuracy/across.py [--build build] --rule 'own=--padded-ratio own' \\
        --rule 'family=--padded-ratio family' RESULTS... [--out FILE]

`--first 1,3,5` reads each folder as if its run had made that many runs
(rules.py --first: its first N base runs and repetitions), a block per N:
how far more runs narrow the error on the same data. `--statistic` passes
rules.py's (median, min, paired) on. `--by-row` adds, per workload and
configuration, its signed error in every folder and their median, largest
first: an error with the same sign in most runs is the method's to find,
one whose sign flips from run to run is the machine's.

Over the runs too, per rule: the median of the runs' medians and maxima,
how many runs met issue 7's goals (median <= 5%, maximum <= 10%) and how
many had a ranking wrong, and, against the first rule, on how many runs
the median and the maximum were more than half a point lower (up) or
higher (down): a change to the method is judged over every stored run,

    bench/accuracy/across.py --jobs 2 --rule 'absolute=' \
        --rule 'whole=--config bench/accuracy/configs/whole-phase-on.json' \
        bench/results/accuracy-2026-11-2[4-9]-*

(`--jobs`: folders re-estimated side by side; the estimates are
deterministic, so the machine's load changes how long it takes, not what
it prints).

A folder without nppdb.sqlite is skipped (said so in the table). Python 3
standard library. Bad input: one line, exit 2, nothing written; rules.py
failing on a folder: its message, exit 1.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import provenance  # noqa: E402
import textout  # noqa: E402

# A row of rules.py's table: workload, config, measured, then est/err% per rule.
ERR = re.compile(r"^[+-]\d+(\.\d+)?$")


def fail(msg, code=2):
    print("across.py: " + msg, file=sys.stderr)
    sys.exit(code)


def rows_and_rankings(text, nrules):
    """Every row as ((workload, config), signed error per rule), and per
    rule whether every ranking was right."""
    rows, ranks = [], []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 3 + 2 * nrules and all(ERR.match(f[4 + 2 * i]) for i in range(nrules)):
            rows.append(((f[0], f[1]), [float(f[4 + 2 * i]) for i in range(nrules)]))
        m = re.match(r"^\S+\s+ranking right ignoring measured ties: (\w+)", line)
        if m:
            ranks.append(m.group(1) == "yes")
    return rows, ranks


def summary(values):
    s = sorted(values)
    return "%5.2f %5.1f %5.1f %3d" % (statistics.median(s), s[min(len(s) - 1, int(0.9 * len(s)))],
                                       s[-1], sum(v > 10 for v in s))


def parse_counts(spec):
    try:
        counts = [int(x) for x in spec.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("expected run counts of 1 or more, like 1,3,5; found %r" % spec)
    return counts


def over_runs_lines(labels, per_run):
    """Per rule, over the runs: the median of their medians and maxima, the
    runs that met issue 7's goals and those with a ranking wrong, and, for
    every rule after the first, the runs where it did better or worse."""
    lines = ["", "over %d runs: median of the runs' medians and maxima, runs with median <= 5%% and max "
                 "<= 10%%, runs with a ranking wrong; against %s, runs more than half a point lower (up) "
                 "or higher (down), median and max" % (len(per_run), labels[0])]
    for i, label in enumerate(labels):
        meds = [r[i][0] for r in per_run]
        maxs = [r[i][1] for r in per_run]
        versus = ""
        if i:
            def count(k):
                up = sum(1 for r in per_run if r[i][k] < r[0][k] - 0.5)
                down = sum(1 for r in per_run if r[i][k] > r[0][k] + 0.5)
                return "%d up %d down" % (up, down)
            versus = "   median %s, max %s" % (count(0), count(1))
        lines.append("%-16s %5.1f %5.1f  goals met %d  ranking wrong %d%s" % (
            label, statistics.median(meds), statistics.median(maxs),
            sum(1 for r in per_run if r[i][0] <= 5 and r[i][1] <= 10),
            sum(1 for r in per_run if not r[i][2]), versus))
    return lines


def by_row_lines(labels, signed, folders):
    """Per workload and configuration, per rule: its signed error in each
    folder (in the order given; '.' where the folder lacks the row) and
    their median, the rows sorted by the first rule's |median|."""
    lines = ["", "per row: signed error % in each folder (in the order given), then the median and "
                 "how many runs share its sign"]
    order = sorted(signed, key=lambda k: -abs(statistics.median(e[0] for e in signed[k].values())))
    for i, label in enumerate(labels):
        lines.append("rule %s" % label)
        for key in order:
            errs = [signed[key][d][i] for d in folders if d in signed[key]]
            med = statistics.median(errs)
            same = sum(1 for e in errs if (e > 0) == (med > 0) and e != 0)
            cells = " ".join("%+6.1f" % signed[key][d][i] if d in signed[key] else "     ." for d in folders)
            lines.append("  %-40s %-9s %s  median %+6.1f  %d of %d" % (key[0][:40], key[1], cells, med,
                                                                       same, len(errs)))
    return lines


def one_block(args, labels, first):
    """The table's lines for every folder read with rules.py --first
    first (0: as the run was), and their summary."""
    lines = ["", "as if each run had made %d runs (rules.py --first %d)" % (first, first)] if first else [""]
    lines.append("%-58s %s" % ("folder", "  ".join("%-22s" % l for l in labels)))
    every = []
    per_run = []  # per folder: per rule (median, max, ranking right)
    signed = {}  # (workload, config) -> folder -> signed error per rule

    def rules_py(d):
        cmd = [sys.executable, os.path.join(HERE, "rules.py"), d, "--db", os.path.join(d, "nppdb.sqlite"),
               "--build", args.build]
        for spec in args.rule:
            cmd += ["--rule", spec]
        if first:
            cmd += ["--first", str(first)]
        if args.statistic:
            cmd += ["--statistic", args.statistic]
        return subprocess.run(cmd, capture_output=True, text=True)

    have = [d for d in args.results if os.path.isfile(os.path.join(d, "nppdb.sqlite"))]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        done = dict(zip(have, pool.map(rules_py, have)))
    for d in args.results:
        name = os.path.basename(os.path.normpath(d))
        if d not in done:
            lines.append("%-58s skipped: no nppdb.sqlite" % name)
            continue
        p = done[d]
        if p.returncode != 0:
            fail("%s: rules.py: %s" % (d, (p.stderr or p.stdout).strip().splitlines()[-1:]), 1)
        keyed, ranks = rows_and_rankings(p.stdout, len(labels))
        if not keyed:
            fail("%s: rules.py printed no rows" % d, 1)
        for key, errs in keyed:
            signed.setdefault(key, {})[d] = errs
        rows = [[abs(e) for e in errs] for _, errs in keyed]
        every += rows
        cells, run = [], []
        for i in range(len(labels)):
            col = [r[i] for r in rows]
            right = i < len(ranks) and ranks[i]
            run.append((statistics.median(col), max(col), right))
            cells.append("%-22s" % ("%.1f / %.1f  %s" % (run[-1][0], run[-1][1], "yes" if right else "NO")))
        per_run.append(run)
        lines.append("%-58s %s" % (name, "  ".join(cells)))
    lines += ["", "over all %d rows: median, 90th percentile, max |error| %%, rows over 10%%" % len(every)]
    for i, label in enumerate(labels):
        lines.append("%-16s %s" % (label, summary([r[i] for r in every])))
    lines += over_runs_lines(labels, per_run)
    if args.by_row:
        lines += by_row_lines(labels, signed, args.results)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="bench/accuracy/run.py results folders")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rule", action="append", required=True, metavar="LABEL=ARGS")
    ap.add_argument("--first", type=parse_counts, default=[0], metavar="N[,N...]",
                    help="read each run as if it had made N runs (rules.py --first), a block per N")
    ap.add_argument("--statistic", choices=["median", "min", "paired"],
                    help="rules.py --statistic for every folder (default: rules.py's, the median)")
    ap.add_argument("--by-row", action="store_true",
                    help="also each workload and configuration's signed error in every folder")
    ap.add_argument("--jobs", type=int, default=1, metavar="N", help="folders re-estimated side by side")
    ap.add_argument("--out", help="also write the table to FILE")
    args = ap.parse_args()
    labels = []
    for spec in args.rule:
        label, sep, _ = spec.partition("=")
        if not label or not sep:
            fail("--rule: expected LABEL=ARGS, found %r" % spec)
        labels.append(label)
    if args.jobs < 1:
        fail("--jobs: expected 1 or more, found %d" % args.jobs)
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    for d in args.results:
        if not os.path.isfile(os.path.join(d, "data.json")):
            fail("%s: not a results folder (no data.json)" % d)
    lines = ["phaseprobe accuracy: estimation rules side by side over many runs' data",
             "machine : " + provenance.machine(),
             "commit  : " + provenance.commit(ROOT, ["estimator", "matcher", "core", "bench/accuracy"]),
             "command : " + " ".join(shlex.quote(a) for a in sys.argv),
             "rules   : " + "; ".join(args.rule) + (
                 "; statistic " + args.statistic if args.statistic else ""),
             "",
             "per folder: median / max |error| % over its rows, ranking right"]
    for n in args.first:
        lines += one_block(args, labels, n)
    textout.emit("across.py", lines, args.out)


if __name__ == "__main__":
    main()
