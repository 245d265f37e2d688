#!/usr/bin/env python3
"""bench/accuracy/phase_ratios.py — per phase of one workload of a finished
accuracy run: how much longer it took on a configuration than on the base
configuration, measured and estimated.

    bench/accuracy/phase_ratios.py RESULTS --app NPB-BT [--workload TEXT]
        --config 1t [--rule alt|default] [--top 14] [--out FILE]

From the run's data.json alone (no re-estimation): per matched phase, its
time in the configuration's instrumented timing runs and its estimate there
(the run's alternative estimate, e.g. the ratio rule, or its default one),
each over the phase's time in the base configuration's timing runs. A
phase whose measured ratio departs from its estimated one is where a
configuration's program error comes from; its clone is named beside it.
Heaviest phases first. Python 3 standard library; bad input: one line,
exit 2, nothing written.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import textout  # noqa: E402  (bench/textout.py)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/accuracy/report.py)

PROG = "phase_ratios.py"


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="a bench/accuracy/run.py results folder (data.json)")
    ap.add_argument("--app", required=True, help="the application (data.json's app)")
    ap.add_argument("--workload", help="its workload, where it has several (data.json's workload)")
    ap.add_argument("--config", required=True, help="the configuration to compare with the base")
    ap.add_argument("--rule", choices=["alt", "default"], default="alt",
                    help="the run's alternative estimate (alt, the default) or its default one")
    ap.add_argument("--top", type=int, default=14, help="phases shown, heaviest first (default 14)")
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    path = os.path.join(args.results, "data.json")
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as ex:
        fail("%s: %s" % (path, ex))
    apps = [a for a in data.get("apps", []) if a.get("app") == args.app and
            (args.workload is None or a.get("workload") == args.workload)]
    if len(apps) != 1:
        have = sorted("%s (%s)" % (a.get("app"), a.get("workload")) for a in data.get("apps", []))
        fail("%s: %s workloads of %s%s (have %s)" % (
            path, "no" if not apps else "%d" % len(apps), args.app,
            "" if args.workload is None else " " + repr(args.workload), ", ".join(have)))
    app, base = apps[0], data.get("base")
    cfg = next((c for c in data.get("configs", []) if c.get("label") == args.config), None)
    if not cfg:
        fail("%s: no configuration %r" % (path, args.config))
    # Threads taking turns on a core: a worksharing phase's measured time is
    # its slowest thread's own share, not the construct's wall time (the
    # accuracy report's "busy"), so its ratio is no comparison.
    turns = report.shares_cores(cfg)
    key = "estimated_alt_s" if args.rule == "alt" else "estimated_s"
    rows = []
    for p in app.get("phases", []):
        b, c = p.get("per_config", {}).get(base, {}), p.get("per_config", {}).get(args.config, {})
        if not p.get("matched") or not b.get("measured_s") or c.get("measured_s") is None or c.get(key) is None:
            continue
        rows.append((p.get("weight") or 0, p["id"], p.get("ubench") or "", b["measured_s"], c["measured_s"], c[key],
                     "busy" if turns and report.is_worksharing(p) else ""))
    rows.sort(key=lambda r: -r[0])
    ctx = data.get("context", {})
    lines = ["phaseprobe phase ratios: each phase on %s over the base configuration %s, measured and estimated"
             % (args.config, base),
             "data    : %s (%s, workload %s; commit %s, %s)" % (args.results, args.app, app.get("workload"),
                                                               ctx.get("commit"), ctx.get("date")),
             "command : %s" % " ".join(sys.argv),
             "estimate: %s" % ("the run's alternative (%s)" % (ctx.get("alt") or {}).get("label")
                               if args.rule == "alt" else "the run's default"),
             "measured: the phase's time in the instrumented timing runs of each configuration"
             + ("; busy: a worksharing phase on threads taking turns on a core, measured as its slowest "
                "thread's own share, not comparable" if turns else ""),
             ""]
    table = [[i, "%.3f" % w, u, "%.4f" % b, "%.4f" % m, "%.4f" % e, "%.2f" % (m / b), "%.2f" % (e / b), busy]
             for w, i, u, b, m, e, busy in rows[:args.top]]
    lines += textout.table(["phase", "weight", "clone", "%s_s" % base, "meas_s", "est_s", "meas/base",
                            "est/base", "note"], table)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
