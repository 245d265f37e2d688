"""Prints the phases and streams of a phase file in a stable, FileCheck-able
form for the Streams_* lit tests, and checks footprints against expected
values within a tolerance (exact equality is not expected of sampling).

usage: Streams_check.py PHASES.json [--fp LINE:COL=KIB ...]
                        [--rate LINE:COL=ACCESSES_PER_ITERATION ...] [--tol PCT]
                        [--off OTHER.json] [--handover]

Output, one line per phase then one per stream (sites as line:col, sorted):
  phase <line>:<col> kind=<kind> invocations=<n> iterations=<n> streams=<n>
  stream <sites> op=<op> elem=<n> stride=<n> second=<n|-> access=<a> pattern=<p> significant=<b>
and for each --fp: "footprint <site> ok" or "footprint <site> BAD got X want Y"
(--rate: the same for accesses_per_iteration, "rate <site> ok" ...);
with --handover, after each stream that has one: "handover <sites> share=<x.x>"
(its handover_share to one decimal);
with --off (the same program run with PHASEPROBE_SAMPLING=off), one line per
phase: "same iterations <line>:<col> yes|no" and "no streams when off: yes|no".
"""
import argparse
import json
import sys


def site_key(s):
    parts = s.rsplit(":", 2)
    return ":".join(parts[-2:]) if len(parts) == 3 else s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--fp", action="append", default=[])
    ap.add_argument("--rate", action="append", default=[])
    ap.add_argument("--tol", type=float, default=3.0)
    ap.add_argument("--off")
    ap.add_argument("--samples", action="store_true", help="append samples=N")
    ap.add_argument("--handover", action="store_true", help="print each handover_share")
    a = ap.parse_args()
    doc = json.load(open(a.file))
    by_site = {}
    for p in doc["phases"]:
        print("phase %d:%d kind=%s invocations=%d iterations=%d streams=%d" % (
            p["line"], p["column"], p["kind"], p["invocations"], p["iterations"],
            len(p["streams"])))
        for s in p["streams"]:
            sites = s.get("sites") or [s["site"]]
            keys = sorted(site_key(x) for x in sites)
            print("stream %s op=%s elem=%d stride=%d second=%s access=%s pattern=%s significant=%s" % (
                ",".join(keys), s["op"], s["elem_bytes"], s["stride_bytes"],
                s.get("second_stride_bytes", "-"), s["access"], s["pattern"],
                str(s["significant"]).lower()) +
                (" samples=%d" % s["samples"] if a.samples else ""))
            if a.handover and "handover_share" in s:
                print("handover %s share=%.1f" % (",".join(keys), s["handover_share"]))
            for k in keys:
                by_site[k] = s
    bad = False
    if a.off:
        off = {(p["line"], p["column"]): p for p in json.load(open(a.off))["phases"]}
        quiet = True
        for p in doc["phases"]:
            o = off.get((p["line"], p["column"]))
            same = o is not None and o["iterations"] == p["iterations"] and \
                o["invocations"] == p["invocations"]
            quiet = quiet and o is not None and not o["streams"]
            print("same iterations %d:%d %s" % (p["line"], p["column"], "yes" if same else "no"))
            bad = bad or not same
        print("no streams when off: %s" % ("yes" if quiet else "no"))
    for what, key, specs in (("footprint", "footprint_kib", a.fp),
                             ("rate", "accesses_per_iteration", a.rate)):
        for spec in specs:
            site, want = spec.split("=")
            want = float(want)
            s = by_site.get(site)
            if s is None or key not in s:
                print("%s %s MISSING" % (what, site))
                bad = True
                continue
            got = s[key]
            if abs(got - want) <= want * a.tol / 100.0:
                print("%s %s ok" % (what, site))
            else:
                print("%s %s BAD got %.3f want %.3f" % (what, site, got, want))
                bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
