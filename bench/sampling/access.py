#!/usr/bin/env python3
"""Shared or private at each thread count: every application of an apps file
(bench/accuracy/prepare_apps.sh) run once instrumented per thread count, and
per phase of at least --min-weight the access of each significant stream
(by its site) side by side. A base run's access decides which uBs a phase
matches (METHOD.md, "access"); it must not depend on the thread count the
base run happened to use. One thread sees no sharing: a worksharing loop
then reads it from the halves of its share (clang-plugin/README.md).

usage: access.py --apps-file FILE [--app NAME=DIR[:ARGS]] [--threads N ...]
                 [--min-weight W] [--out FILE]

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


def accesses(ph):
    """{site: access} of a phase's significant streams."""
    return {s.get("site", s["id"]): s["access"] for s in ph.get("streams", []) if s.get("significant")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--apps-file", action="append", default=[])
    ap.add_argument("--app", action="append", default=[])
    ap.add_argument("--ok-exit", action="append", default=[])
    ap.add_argument("--threads", type=int, action="append", default=[],
                    help="thread count of a run (repeatable; default 1 and 2)")
    ap.add_argument("--min-weight", type=float, default=0.01)
    ap.add_argument("--out")
    opts = ap.parse_args()
    counts = opts.threads or [1, 2]
    try:
        ok_exit = parse_ok_exit(opts.ok_exit)
        apps = load_apps(opts.apps_file, opts.app, ok_exit, folder_only=True)
        if not apps:
            raise InputError("nothing to run: give --apps-file or --app")
        if min(counts) < 1 or len(set(counts)) < 2:
            raise InputError("--threads: give two or more different counts of at least 1")
        problem = textout.out_dir_problem(opts.out)
        if problem:
            raise InputError(problem)
    except InputError as ex:
        print("access.py: %s" % ex, file=sys.stderr)
        sys.exit(2)
    rows, same, compared = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="pp-access-") as tmp:
        for app in apps:
            runs = [{ph["id"]: ph for ph in instrumented_phases(app, t, ok_exit, tmp, "access.py")}
                    for t in counts]
            for pid, ph in runs[-1].items():
                if (ph.get("weight") or 0) < opts.min_weight or not accesses(ph):
                    continue
                per = [accesses(r[pid]) if pid in r else {} for r in runs]
                sites = sorted(set().union(*per))
                cells = [" ".join(a.get(s, "-")[0] for s in sites) for a in per]
                # Compared where every run saw the stream.
                both = [s for s in sites if all(s in a for a in per)]
                agree = all(len({a[s] for a in per}) == 1 for s in both)
                if both:
                    compared += 1
                    same += agree
                verdict = ("yes" if agree else "NO") if both else "-"
                rows.append(("%s %s" % (app["app"], app["workload"]), pid, ph["kind"],
                             "%.3f" % ph["weight"]) + tuple(cells) + (verdict,))
    lines = ["phaseprobe: access of the significant streams at each thread count, per phase",
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(ROOT, ["clang-plugin", "runtime"]),
             "command : %s" % " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
             "phases of weight >= %g (at %d threads); per stream, sites in order: s shared, p private, "
             "- not significant there" % (opts.min_weight, counts[-1]), ""]
    lines += textout.table(("workload", "phase", "kind", "weight") + tuple("%dt" % t for t in counts)
                           + ("same",), rows)
    lines += ["", "phases with the same access at every thread count: %d of %d" % (same, compared)]
    textout.emit("access.py", lines, opts.out)


if __name__ == "__main__":
    main()
