#!/usr/bin/env python3
"""Estimate errors of accuracy runs beside the noise of their own measurements.

An estimate is compared with the median of a few plain repetitions; on a
shared VM one repetition can sit tens of percent from its siblings. This
reads stored results folders (their data.json, re-derived with report.py's
rules) and prints, per run, the median and maximum |error| of the run's two
estimates (the default rule and its --alt) next to the noise floor: every
plain repetition against the median of the other repetitions of its row.
A run whose maximum error is below its noise maximum cannot be told from
a perfect estimate measured once; one far above it has an error of method.

    bench/accuracy/noise.py bench/results/accuracy-*/

Standard library only; reads, never writes.
"""
import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import report  # noqa: E402

SRC_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cell(summary):
    if not summary or not summary.get("n"):
        return "%13s" % "-"
    return "%6.1f %6.1f" % (summary["median_abs_pct"], summary["max_abs_pct"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="bench/accuracy/run.py results folders")
    args = ap.parse_args(argv)
    rows = []
    for folder in args.results:
        try:
            doc = report.load(os.path.join(folder, "data.json"))
        except report.InputError as ex:
            print("noise.py: %s" % ex, file=sys.stderr)
            return 2
        s = doc["summary"]
        alt = ((doc.get("context") or {}).get("alt") or {}).get("label") or "unsampled"
        sib = [e for a in doc["apps"] for r in a["rows"]
               for e in report.sibling_errors(list(r.get("measured_reps") or []))]
        far = "%5.0f" % (100.0 * sum(1 for e in sib if e > 10.0) / len(sib)) if sib else "%5s" % "-"
        rows.append((os.path.basename(os.path.normpath(folder)), s["program"].get("n", 0),
                     cell(s["program"]), alt, cell(s["program_alt"]), cell(s["noise"]), far,
                     s["noise"].get("n", 0)))
    print("phaseprobe accuracy runs: estimate errors beside the noise of their measurements")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(SRC_ROOT, ["bench"]))
    print("command : %s" % " ".join(shlex.quote(a) for a in sys.argv))
    print()
    print("%-58s %3s %13s %-9s %13s %13s %5s %5s" % ("", "", "default rule", "", "--alt rule",
                                                     "noise floor", "", ""))
    print("%-58s %3s %13s %-9s %13s %13s %5s %5s" % ("run", "n", "med%   max%", "alt", "med%   max%",
                                                     "med%   max%", ">10%", "reps"))
    for r in rows:
        print("%-58s %3d %s %-9s %s %s %s %5d" % (r[0][:58], r[1], r[2], r[3][:9], r[4], r[5], r[6],
                                                  r[7]))
    print()
    print("errors: |estimated - measured| / measured over the run's program estimates (measured = "
          "median of its plain repetitions); noise floor: |repetition - median of the others of its "
          "row| / that median, over every plain repetition (rows with 3 or more); >10%: the share of "
          "repetitions (%) more than 10% from their siblings' median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
