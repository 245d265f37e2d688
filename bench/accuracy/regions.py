#!/usr/bin/env python3
"""Where a program estimate's error sits: per top-level parallel region, on
ONE accuracy run's data.

    bench/accuracy/regions.py RESULTS --db NPPDB [--build build] \\
        [--rule 'ARGS'] [--workload TEXT] [--config LABEL] [--out FILE]

A program's error against its plain repetitions says how far off an
estimate is, not where. For every workload and configuration of a results
folder of run.py, this re-estimates from the stored base phase files (as
rules.py does, with the estimator options of --rule; default the ratio rule
with --relax-unmatched) and takes the estimator's own split of each node's
estimate by top-level region (its JSON's nodes[].regions):

    est = the estimates of the region's matched leaves
        + the region's base time outside them (as the uncovered rule has it)
        + its barriers and spin-wait rounds at the node's cost - the base's
        + its page faults at the node's cost - what the projection made of
          the base's

and sets it against the region's time in that configuration's instrumented
timing run (run.py's raw/TAG.CONFIG.timing.phases.json: sampling off, one
run or the median of its --timing-runs). Columns: the region's barriers, its base time, estimate, measurement,
error, the gap (measured - estimated) and that gap per barrier: a gap that
is the same per barrier across regions is the cost of a barrier the sync
uB does not price; one that follows the regions' work is their uBs'.
Two more rows per table: the time outside top-level regions (kept as
measured on the base node) and the program (the estimator's own total
against the timing run's), and a check that the rows add up to the
estimator's total.

The measurement is one instrumented run (or the median of a few): its
noise is that of so few runs, and its time holds phaseprobe's timing-only
overhead; the plain repetitions of
run.py's table cannot be split by region at all.
"""
import argparse
import json
import os
import shlex
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
import provenance  # noqa: E402  (bench/provenance.py)
import report  # noqa: E402
import rules  # noqa: E402
import textout  # noqa: E402

PROG = "regions.py"
SRC_ROOT = os.path.dirname(os.path.dirname(HERE))


def fail(msg):
    print(PROG + ": " + msg, file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as ex:
        fail("%s: %s" % (path, ex.strerror))
    except ValueError as ex:
        fail("%s: not JSON: %s" % (path, ex))


def split(doc, node):
    """{region: estimated seconds} on node, and the serial time beside them."""
    n = next((n for n in doc["nodes"] if n["node"] == node), None)
    if n is None or "regions" not in n:
        return None, None
    return {r["id"]: r["time_s"] for r in n["regions"]}, n["serial_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="a bench/accuracy/run.py results folder (data.json, raw/)")
    ap.add_argument("--db", required=True, help="the NPPDB that run used")
    ap.add_argument("--build", default=os.path.join(SRC_ROOT, "build"))
    ap.add_argument("--rule", default="--projection ratio --relax-unmatched",
                    help="estimator options (default: %(default)s)")
    ap.add_argument("--workload", default="", help="only workloads whose raw tag holds TEXT")
    ap.add_argument("--config", action="append", default=[],
                    help="only these configurations (default: every one but the base)")
    ap.add_argument("--top", type=int, default=12, help="regions per table, the largest measured first")
    ap.add_argument("--out", help="also write the tables to FILE")
    ap.add_argument("--serial-faults-from", action="append", default=[], type=rules.parse_name_file,
                    metavar="WORKLOAD=PHASES.json",
                    help="as rules.py's: the base runs of WORKLOAD (its raw tag) given the serial page "
                         "faults of this phase file of the same workload (repeatable)")
    args = ap.parse_args()
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    data = load(os.path.join(args.results, "data.json"))
    if not os.path.exists(args.db):
        fail("%s: no such database" % args.db)
    if not os.access(os.path.join(args.build, "bin", "phaseprobe-estimate"), os.X_OK):
        fail("--build %s: bin/phaseprobe-estimate: not built" % args.build)
    configs = {c["label"]: c for c in data["configs"]}
    for c in args.config:
        if c not in configs:
            fail("--config %s: not a configuration of %s (%s)" % (c, args.results, ", ".join(configs)))
    base = configs[data["base"]]
    raw = os.path.join(args.results, "raw")
    extra = shlex.split(args.rule)
    faults_from = rules.serial_faults_by_tag(args.serial_faults_from, data, args.results)
    work = tempfile.TemporaryDirectory(prefix="pp-regions-")  # removed at exit

    lines = ["phaseprobe accuracy by region: estimated vs the instrumented timing run, per top-level region",
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(SRC_ROOT, ["estimator", "matcher", "core"]),
             "command : %s" % " ".join(shlex.quote(a) for a in sys.argv),
             "data    : %s (run of %s, commit %s); rule: %s" % (
                 args.results, (data.get("context") or {}).get("date", "?"),
                 (data.get("context") or {}).get("commit", "?"), args.rule or "(defaults)"),
             "measured: instrumented timing run per configuration, sampling off (raw/TAG.CONFIG.timing.phases.json; "
             "%s)" % ("median of %d runs" % data["context"]["timing_runs"]
                      if (data.get("context") or {}).get("timing_runs", 1) > 1 else "one run"),
             ""]
    gaps = []  # (configuration, gap per barrier in us, region, workload), for the summary
    tables = 0
    for app in data["apps"]:
        tag = report.raw_tag(app["app"], app["workload"])
        if args.workload not in tag:
            continue
        files = report.base_paths(args.results, app) or \
            [os.path.join(raw, "%s.base.phases.json" % tag)]
        for f in files:
            if not os.path.exists(f):
                fail("%s: missing (was the run complete?)" % f)
        if tag in faults_from:
            files = rules.with_serial_faults(files, faults_from[tag], work.name)
        structure = load(files[0])
        # Another machine's configurations (a run of cross.py) have no timing runs here.
        for label in args.config or [c for c in configs if c != base["label"] and not configs[c].get("stored")]:
            cfg = configs[label]
            timing_path = os.path.join(raw, "%s.%s.timing.phases.json" % (tag, label))
            if not os.path.exists(timing_path):
                lines += ["%s on %s: no timing run (%s); run.py made none with --no-phase-times" % (
                    tag, label, os.path.basename(timing_path)), ""]
                continue
            timing = load(timing_path)
            doc = rules.estimate_doc(args.build, files, args.db, base["node"], cfg, base["threads"], extra)
            est, outside = split(doc, cfg["node"])
            if est is None:
                lines += ["%s on %s: the estimator gave no time for %s" % (tag, label, cfg["node"]), ""]
                continue
            meas = {p["id"]: p["time_s"] for p in timing.get("phases", [])}
            total_meas = (timing.get("program") or {}).get("total_time_s")
            total_est = next(n["time_s"] for n in doc["nodes"] if n["node"] == cfg["node"])
            barriers = {p["id"]: p.get("barriers", 0) for p in structure["phases"]}
            rows = []
            order = sorted(est, key=lambda r: -meas.get(r, 0.0))
            for rid in order[:args.top]:
                e, m, b = est[rid], meas.get(rid), barriers.get(rid, 0)
                gap = None if m is None else m - e
                per = "-" if gap is None or not b else "%.1f" % (gap / b * 1e6)
                if gap is not None and b >= 100:
                    gaps.append((label, gap / b * 1e6, rid, tag))
                rows.append([rid, str(b), "%.4f" % next((p["time_s"] for p in doc["phases"] if p["id"] == rid),
                                                       0.0),
                             "%.4f" % e, "-" if m is None else "%.4f" % m,
                             "-" if m is None else "%+.1f" % report.error_pct(e, m),
                             "-" if gap is None else "%+.4f" % gap, per])
            rest = [r for r in order[args.top:]]
            if rest:
                e = sum(est[r] for r in rest)
                m = sum(meas.get(r, 0.0) for r in rest)
                rows.append(["(%d more regions)" % len(rest), str(sum(barriers.get(r, 0) for r in rest)), "",
                             "%.4f" % e, "%.4f" % m, "%+.1f" % report.error_pct(e, m) if m else "-",
                             "%+.4f" % (m - e), ""])
            if total_meas is not None:
                m_out = total_meas - sum(meas.get(r, 0.0) for r in est)
                rows.append(["outside regions", "", "", "%.4f" % outside, "%.4f" % m_out,
                             "%+.1f" % report.error_pct(outside, m_out) if m_out > 0 else "-",
                             "%+.4f" % (m_out - outside), ""])
                rows.append(["program", str(sum(barriers.get(r, 0) for r in est)), "", "%.4f" % total_est,
                             "%.4f" % total_meas, "%+.1f" % report.error_pct(total_est, total_meas),
                             "%+.4f" % (total_meas - total_est), ""])
            lines.append("%s on %s (%s), base %s" % (tag, label, cfg["node"], base["node"]))
            lines += textout.table(["region", "barriers", "base_s", "est_s", "meas_s", "err%", "gap_s",
                                    "gap/barrier_us"], rows)
            check = round(sum(est.values()) + outside - total_est, 6) + 0.0  # no "-0.000000"
            lines.append("check: regions + outside - estimator's total = %+.6f s%s" % (
                check, "" if abs(check) <= 1e-6 * max(1.0, total_est) + 1e-9 else
                " (parts clamped at 0: a region's leaves outlast it in the base file, as medians of several runs can)"))
            lines.append("")
            tables += 1
    if not tables:
        fail("no workload of %s matches --workload %r" % (args.results, args.workload))
    if gaps:
        lines.append("gap per barrier, regions with at least 100 barriers (median, min..max, regions):")
        rows = []
        for label in sorted({g[0] for g in gaps}):
            v = [g[1] for g in gaps if g[0] == label]
            rows.append([label, "%.1f" % statistics.median(v), "%.1f..%.1f" % (min(v), max(v)), str(len(v))])
        lines += textout.table(["config", "median_us", "range_us", "regions"], rows)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
