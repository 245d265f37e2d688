#!/usr/bin/env python3
"""Accesses per iteration of the phases' streams, as the runtime measures
them: every application of an apps file (bench/accuracy/prepare_apps.sh) run
once instrumented per sampling period, and per phase of at least
--min-weight its significant streams' `accesses_per_iteration`, with the
clone pace it gives (E = round(1 / rate of the busiest stream) where that
rate is below 1: `UB+eE`, ubench/README.md), and their reuse windows
(`window_accesses` x `window_repeats`, where the runtime saw one: clones
walk them, `UB+rR`) and jump shares (`jump_share`: how often a loop
execution starts where no walk of the ones before it would; above 3/4,
clones walk a column span in jumping runs, `UB+jN`). Several periods side
by side show how much the sampled rate depends on which executions a
period hits.

usage: rates.py --build BUILD --apps-file FILE [--app NAME=DIR[:ARGS]]
                [--threads N] [--period P ...] [--min-weight W] [--out FILE]

Python 3 standard library only."""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
from apps import InputError, instrumented_phases, load_apps, parse_ok_exit  # noqa: E402


def pace(rates):
    """The clone's iterations per kernel iteration (ubench/src/clone.cpp,
    everyFor): 1 unless every rate is known and the busiest is below 1."""
    if not rates or any(r is None for r in rates):
        return 1
    busiest = max(rates)
    return 1 if not busiest > 0 or busiest >= 1 else max(1, int(round(1 / busiest)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="for the provenance only")
    ap.add_argument("--apps-file", action="append", default=[])
    ap.add_argument("--app", action="append", default=[])
    ap.add_argument("--ok-exit", action="append", default=[])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--period", type=int, action="append", default=[],
                    help="PHASEPROBE_SAMPLE_PERIOD of a run (repeatable; default 1000)")
    ap.add_argument("--min-weight", type=float, default=0.01)
    ap.add_argument("--out")
    opts = ap.parse_args()
    try:
        ok_exit = parse_ok_exit(opts.ok_exit)
        apps = load_apps(opts.apps_file, opts.app, ok_exit, folder_only=True)
        if not apps:
            raise InputError("nothing to run: give --apps-file or --app")
        if opts.threads < 1 or any(p < 1 for p in opts.period):
            raise InputError("--threads and --period must be at least 1")
        problem = textout.out_dir_problem(opts.out)
        if problem:
            raise InputError(problem)
    except InputError as ex:
        print("rates.py: %s" % ex, file=sys.stderr)
        sys.exit(2)
    periods = opts.period or [1000]
    rows = []
    with tempfile.TemporaryDirectory(prefix="pp-rates-") as tmp:
        for app in apps:
            for period in periods:
                for ph in instrumented_phases(app, opts.threads, ok_exit, tmp, "rates.py",
                                              {"PHASEPROBE_SAMPLE_PERIOD": str(period)}):
                    if (ph.get("weight") or 0) < opts.min_weight:
                        continue
                    sig = [s for s in ph["streams"] if s.get("significant")]
                    rates = [s.get("accesses_per_iteration") for s in sig]
                    windows = ["%.0fx%.0f" % (s["window_accesses"], s["window_repeats"])
                               if "window_repeats" in s else "-" for s in sig]
                    jumps = ["%.2f" % s["jump_share"] if "jump_share" in s else "-" for s in sig]
                    rows.append(("%s %s" % (app["app"], app["workload"]), period, ph["id"], ph["kind"],
                                 "%.3f" % ph["weight"],
                                 " ".join("%.4g" % r if r is not None else "-" for r in rates) or "-",
                                 pace(rates), " ".join(windows) or "-", " ".join(jumps) or "-"))
    lines = ["phaseprobe: accesses per iteration of the significant streams, per phase",
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(ROOT, ["clang-plugin", "runtime"]),
             "command : %s" % " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
             "threads : %d; phases of weight >= %g; E: the clone's iterations per kernel iteration"
             % (opts.threads, opts.min_weight), ""]
    lines += textout.table(("workload", "period", "phase", "kind", "weight", "rates (largest stream first)", "E",
                            "windows (accesses x walks)", "jump shares"), rows)
    textout.emit("rates.py", lines, opts.out)


if __name__ == "__main__":
    main()
