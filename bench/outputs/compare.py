#!/usr/bin/env python3
"""Do instrumented builds print what their plain builds print?

    bench/outputs/compare.py [--apps-file FILE] [--app NAME=PATH[:ARGS] ...]
        [--ok-exit NAME=CODES] [--ignore REGEX ...] [--threads 2] [--runs 3]
        [--sampling on,off] [--out FILE]

An instrumented program must never change its results. The overhead bench
checks that for the bundled examples; applications print timings, so their
outputs differ from run to run anyway. This runs each application's plain
build once and its instrumented build --runs times per PHASEPROBE_SAMPLING
setting, at --threads threads, drops the output lines any --ignore regular
expression matches (timings, dates, build flags), and compares the rest of
standard output line by line. It also checks that every instrumented run
wrote a phase file that parses. Applications are folders with 'plain' and
'instr' executables, as bench/accuracy/prepare_apps.sh builds them.

Exit status: 0 when every instrumented run printed the plain output, 1 when
one did not (or failed), 2 for bad input (one line, nothing written).
Python 3 standard library only.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import apps as appspec  # noqa: E402  (bench/apps.py)
import provenance  # noqa: E402
import textout  # noqa: E402  (bench/textout.py)

InputError = appspec.InputError


class WorkError(Exception):
    """A program could not be run at all: exit 1."""


def run(argv, env, timeout, cwd):
    """(exit code, stdout lines) of one run, in \p cwd: what a program writes
    where it runs (HPCCG's YAML report) stays out of the caller's folder."""
    try:
        p = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=timeout)
    except FileNotFoundError:
        raise WorkError("%s: not found" % argv[0])
    except subprocess.TimeoutExpired:
        raise WorkError("%s: timed out after %d s" % (" ".join(map(shlex.quote, argv)), timeout))
    return p.returncode, p.stdout.splitlines()


def kept(lines, ignore):
    return [l for l in lines if not any(r.search(l) for r in ignore)]


def first_difference(a, b):
    """'line N: plain ... | instr ...' for the first line that differs."""
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end of output>"
        y = b[i] if i < len(b) else "<end of output>"
        if x != y:
            return "line %d: plain %r, instrumented %r" % (i + 1, x.strip()[:60], y.strip()[:60])
    return ""


def phase_count(path):
    """Phases in the phase file at path, or None when it is missing or does
    not parse."""
    try:
        with open(path) as f:
            return len(json.load(f)["phases"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def check_app(app, opts, ignore, ok, tmp):
    """One row per sampling setting."""
    argv_of = lambda exe: [os.path.join(os.path.abspath(app["path"]), exe)] + appspec.expand_args(
        app["args"], opts.threads)
    threads = {"OMP_NUM_THREADS": str(opts.threads)}
    code, plain = run(argv_of("plain"), appspec.clean_env(threads), opts.timeout, tmp)
    if code not in ok:
        raise WorkError("%s %s: the plain build exited %d (--ok-exit %s=%d if that means success)" % (
            app["app"], app["workload"], code, app["app"], code))
    plain = kept(plain, ignore)
    rows = []
    for setting in opts.sampling:
        same, phases, diff = 0, [], ""
        for k in range(opts.runs):
            out = os.path.join(tmp, "%s.%s.%d.json" % (app["app"], setting, k))
            env = appspec.clean_env(dict(threads, PHASEPROBE_SAMPLING=setting, PHASEPROBE_OUT=out))
            code, lines = run(argv_of("instr"), env, opts.timeout, tmp)
            lines = kept(lines, ignore)
            if code not in ok:
                diff = diff or "run %d exited %d" % (k + 1, code)
            elif lines == plain:
                same += 1
            else:
                diff = diff or "run %d, %s" % (k + 1, first_difference(plain, lines))
            phases.append(phase_count(out))
        bad_files = sum(1 for p in phases if p is None)
        if bad_files and not diff:
            diff = "%d phase file(s) missing or unreadable" % bad_files
        counts = sorted({p for p in phases if p is not None})
        rows.append({"app": app["app"], "workload": app["workload"], "sampling": setting,
                     "same": same, "runs": opts.runs, "phases": "/".join(map(str, counts)) or "-",
                     "lines": len(plain), "ok": same == opts.runs and not bad_files, "diff": diff})
    return rows


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--app", action="append", default=[], metavar="NAME=PATH[:ARGS]")
    ap.add_argument("--apps-file", action="append", default=[], metavar="FILE")
    ap.add_argument("--ok-exit", action="append", default=[], metavar="NAME=CODES")
    ap.add_argument("--ignore", action="append", default=[], metavar="REGEX",
                    help="drop output lines this Python regular expression finds (repeatable)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3, help="instrumented runs per sampling setting (default 3)")
    ap.add_argument("--sampling", default="on,off", help="PHASEPROBE_SAMPLING settings (default on,off)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run (default 600)")
    ap.add_argument("--out", help="also write the table to this file (atomically)")
    opts = ap.parse_args(argv)
    if opts.threads < 1 or opts.runs < 1:
        raise InputError("--threads and --runs must be at least 1")
    opts.sampling = [s for s in opts.sampling.split(",") if s]
    bad = [s for s in opts.sampling if s not in ("on", "off")]
    if bad or not opts.sampling:
        raise InputError("--sampling %s: expected on, off or on,off" % ",".join(bad or ["(none)"]))
    problem = textout.out_dir_problem(opts.out)
    if problem:
        raise InputError(problem)
    return opts


def main(argv=None):
    try:
        opts = parse_args(argv)
        ignore = []
        for r in opts.ignore:
            try:
                ignore.append(re.compile(r))
            except re.error as ex:
                raise InputError("--ignore %r: not a regular expression: %s" % (r, ex))
        ok_exit = appspec.parse_ok_exit(opts.ok_exit)
        apps = appspec.load_apps(opts.apps_file, opts.app, ok_exit, folder_only=True)
        if not apps:
            raise InputError("nothing to compare: give --app or --apps-file")
    except InputError as ex:
        print("compare.py: %s" % ex, file=sys.stderr)
        return 2
    rows = []
    t0 = time.time()
    try:
        with tempfile.TemporaryDirectory(prefix="pp-outputs.") as tmp:
            for app in apps:
                rows += check_app(app, opts, ignore, appspec.ok_codes(ok_exit, app["app"]), tmp)
                print("[outputs] %s %s done" % (app["app"], app["workload"]), file=sys.stderr, flush=True)
    except WorkError as ex:
        print("compare.py: %s" % ex, file=sys.stderr)
        return 1
    lines = provenance.header("phaseprobe outputs: instrumented builds against their plain builds",
                              ROOT, ["clang-plugin", "runtime"]) + [
        "runs    : %d threads; plain once, instrumented %d times per sampling setting; %.0f s" % (
            opts.threads, opts.runs, time.time() - t0),
        "ignored : %s" % (" | ".join(opts.ignore) or "nothing: every line compared"),
        ""]
    lines += textout.table(("app", "workload", "sampling", "identical", "lines compared", "phases", "first difference"),
                   [(r["app"], r["workload"], r["sampling"], "%d of %d" % (r["same"], r["runs"]), r["lines"],
                     r["phases"], r["diff"] or "-") for r in rows])
    bad = [r for r in rows if not r["ok"]]
    lines += ["", "every instrumented run printed the plain output" if not bad else
              "%d of %d settings differ from the plain output" % (len(bad), len(rows))]
    textout.emit("compare.py", lines, opts.out)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
