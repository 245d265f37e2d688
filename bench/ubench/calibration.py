#!/usr/bin/env python3
"""bench/ubench/calibration.py — how close `clone --calibrate` pads each
phase clone to its phase's time per iteration.

    bench/ubench/calibration.py [--build build] [--build OTHER ...] \\
        --phases 'LABEL=RUN1.json[,RUN2.json...]' [--phases ...] \\
        [--rounds 3] [--out FILE]

For every phase set (the base runs of one program) and every build given
(the current one first; an older build compares searches), in turn:
`phaseprobe-ubench clone --calibrate` on the phase files, timed; then every
padded clone of every build measured together by the first build's
`phaseprobe-ubench run --params --rounds R` at the phases' thread count (a
scratch NPPDB; rounds interleave the clones, so a drift of the machine
moves them alike). Per phase and build: the padding, its error against the
phase's time per iteration as the calibration measured it and as the run
measured it (median of the rounds: what the matcher compares), and the
calibration's measurements. Then per build: median, 90th percentile and
maximum of |error|, how many clones are more than 5% and 10% off, how
many phases stayed unpadded, and the calibration's wall time.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
import ubenchparams  # noqa: E402  (bench/ubenchparams.py)
from apps import clean_env  # noqa: E402  (bench/apps.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROG = "calibration.py"

PADDED = re.compile(r": (?P<site>[^:\s]+:\d+:\d+): padded (?P<clone>\S+ \S+): (?P<tpi>[0-9.e+-]+) us per "
                    r"iteration for the phase's (?P<target>[0-9.e+-]+) us \(unpadded [0-9.e+-]+ us, "
                    r"(?P<n>\d+) measurements, (?P<threads>\d+) threads\)")
UNPADDED = re.compile(r": (?P<site>[^:\s]+:\d+:\d+): (?P<clone>\S+ \S+) not padded: (?P<why>.*) \(phase "
                      r"(?P<target>[0-9.e+-]+) us")


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def ubench(build):
    exe = os.path.join(build, "bin", "phaseprobe-ubench")
    if not os.access(exe, os.X_OK):
        fail("--build %s: %s: not built" % (build, exe))
    return exe


def calibrate(build, files, tmp, tag):
    """(rows, seconds): one row per phase of the set."""
    out = os.path.join(tmp, tag + ".params")
    start = time.monotonic()
    run = subprocess.run([ubench(build), "clone", "--calibrate", "--out", out] + files,
                         env=clean_env({}), capture_output=True, text=True)
    secs = time.monotonic() - start
    if run.returncode != 0:
        fail("%s: clone --calibrate: %s" % (build, (run.stderr.strip().splitlines() or ["failed"])[-1]))
    rows = []
    for line in run.stderr.splitlines():
        m = PADDED.search(line)
        if m:
            rows.append({"site": m["site"], "clone": m["clone"], "target": float(m["target"]),
                         "cal": float(m["tpi"]), "n": int(m["n"]), "threads": int(m["threads"])})
            continue
        m = UNPADDED.search(line)
        if m:
            rows.append({"site": m["site"], "clone": None, "target": float(m["target"]), "why": m["why"]})
    return rows, secs


def measure(build, clones, threads, rounds, tmp, tag):
    """Median tpi (us) over the rounds of each params line."""
    try:
        got = ubenchparams.measure(ubench(build), clones, threads, tmp, tag, rounds)
    except ubenchparams.RunError as ex:
        fail("run --params: %s" % ex)
    return {c: got[c] for c in clones if c in got}


def build_commit(build):
    """The commit of the source tree a build directory was configured from."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    return provenance.commit(line.split("=", 1)[1].strip(), ["ubench"])
    except OSError:
        pass
    return "unknown"


def pct(a, b):
    return (a - b) / b * 100


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", action="append", help="a build directory (several: compared; default build)")
    ap.add_argument("--phases", action="append", required=True,
                    help="LABEL=FILE[,FILE...]: the base runs of one program")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    builds = [os.path.abspath(b) for b in (args.build or [os.path.join(ROOT, "build")])]
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    sets = []
    for spec in args.phases:
        label, sep, files = spec.partition("=")
        if not sep or not label or not files:
            fail("--phases %r: LABEL=FILE[,FILE...]" % spec)
        paths = [os.path.abspath(f) for f in files.split(",")]
        for p in paths:
            if not os.path.isfile(p):
                fail("--phases %r: %s: no such file" % (spec, p))
        sets.append((label, paths))
    lines = ["phaseprobe calibration: padded phase clones against their phases' time per iteration",
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(ROOT, ["ubench", "bench/ubench"]),
             "command : %s" % " ".join(sys.argv),
             "builds  : %s" % ", ".join("%s (%s)" % (b, build_commit(b)) for b in builds),
             "err%%    : (clone - phase) / phase, as the calibration measured it (cal) and as "
             "`run --rounds %d` did (run: what the matcher compares)" % args.rounds,
             ""]
    # A build is named by its directory, numbered when two share a name.
    names = [os.path.basename(b) for b in builds]
    names = [n if names.count(n) == 1 else "%s#%d" % (n, i + 1) for i, n in enumerate(names)]
    rows, errs = [], [{"cal": [], "run": [], "unpadded": 0, "secs": 0.0, "n": []} for _ in builds]
    with tempfile.TemporaryDirectory() as tmp:
        for si, (label, files) in enumerate(sets):
            per_build = []
            for bi, b in enumerate(builds):
                r, secs = calibrate(b, files, tmp, "s%d-b%d" % (si, bi))
                per_build.append(r)
                errs[bi]["secs"] += secs
            # Each clone at the thread count it was calibrated at.
            padded = [r for rs in per_build for r in rs if r.get("clone")]
            tpis = {}
            for th in sorted({r["threads"] for r in padded}):
                clones = sorted({r["clone"] for r in padded if r["threads"] == th})
                got = measure(builds[0], clones, th, args.rounds, tmp, "s%d-t%d" % (si, th))
                tpis.update({(c, th): t for c, t in got.items()})
            sites = []
            for rs in per_build:
                for r in rs:
                    if r["site"] not in sites:
                        sites.append(r["site"])
            for site in sites:
                for bi, tag in enumerate(names):
                    r = next((x for x in per_build[bi] if x["site"] == site), None)
                    if r is None:
                        continue
                    if not r.get("clone"):
                        errs[bi]["unpadded"] += 1
                        rows.append([label, site, tag, "%.3f" % (r["target"] * 1000), "-", "-", "-", "-",
                                     "not padded: " + r["why"]])
                        continue
                    cal = pct(r["cal"], r["target"])
                    run = tpis.get((r["clone"], r["threads"]))
                    errs[bi]["cal"].append(abs(cal))
                    errs[bi]["n"].append(r["n"])
                    if run is not None:
                        errs[bi]["run"].append(abs(pct(run, r["target"])))
                    rows.append([label, site, tag, "%.3f" % (r["target"] * 1000), r["clone"].split()[0],
                                 "%+.1f" % cal, "-" if run is None else "%+.1f" % pct(run, r["target"]),
                                 str(r["n"]), ""])
    lines += textout.table(["set", "phase", "build", "phase_ns", "clone", "cal_err%", "run_err%",
                            "meas", "note"], rows)
    lines.append("")
    summary = []
    for bi, tag in enumerate(names):
        e = errs[bi]
        for kind in ("cal", "run"):
            v = sorted(e[kind])
            if not v:
                continue
            summary.append([tag, kind, str(len(v)), "%.1f" % statistics.median(v),
                            "%.1f" % v[min(len(v) - 1, int(0.9 * len(v)))], "%.1f" % v[-1],
                            str(sum(x > 5 for x in v)), str(sum(x > 10 for x in v)), str(e["unpadded"]),
                            "%.0f" % statistics.mean(e["n"]) if e["n"] else "-", "%.1f" % e["secs"]])
    lines += textout.table(["build", "tpi", "padded", "median|err|%", "p90", "max", ">5%", ">10%",
                            "unpadded", "meas/phase", "calibrate_s"], summary)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
