#!/usr/bin/env python3
"""How far the node-to-node ratio an NPPDB stores moves from one
characterization to the next, under several round policies, beside a
program's own ratio measured between them.

    bench/ubench/round_spread.py [--build build] --params FILE \\
        --policy 'fixed=--rounds 3' --policy 'adaptive=--rounds 3 --max-rounds 15' \\
        [--app NAME=PATH[:ARGS] [--time-regex REGEX] [--ok-exit NAME=CODES]] \\
        [--config LABEL:THREADS[:PLACES[:BIND[:WAIT]]] ...] [--ref LABEL] [--repeats 5] [--out FILE]

The estimator carries a phase to another configuration with its uB's tpi
ratio between the two, read from profiles measured once. A configuration
whose tpi moves from one kernel process to the next by more than its
repetitions show (a padded random clone at two threads on the VM) gives a
ratio that depends on the draw. Every repeat characterizes the --params
configurations afresh under each policy (phaseprobe-ubench run --params
FILE --interleave <configs> POLICY-ARGS, into a new NPPDB each time, the
policies' order rotating) and, with --app, runs the program's plain build
once on every configuration. Per uB configuration, configuration and
policy it prints the ratio the estimator would use, as a time ratio for the
same work (tpi ratio x reference threads / threads), in each repeat, their
median and range, the median distance to the program's ratio of the same
repeat, the rounds the profiles took and the seconds a characterization
took. The program's time is its wall time, or the first number --time-regex
captures in its output (XSBench's 'Runtime:' leaves its serial set-up out).

Python 3 standard library. Bad input: one line, exit 2, nothing written; a
failing tool or program: one line, exit 1.
"""
import argparse
import os
import re
import shlex
import sqlite3
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(1, os.path.join(ROOT, "bench", "accuracy"))
import apps as appspec  # noqa: E402  (bench/apps.py)
import provenance  # noqa: E402
import textout  # noqa: E402
import run as accuracy  # noqa: E402  (bench/accuracy/run.py: configurations, running things)


def fail(msg, code):
    print("round_spread.py: " + msg, file=sys.stderr)
    sys.exit(code)


def characterize(opts, configs, policy_args, db):
    """Runs one characterization; returns (seconds, {(ubench, streams): {label: (tpi, rounds)}})."""
    cmd = ([accuracy.tool(opts.build, "phaseprobe-ubench"), "run", "--db", db, "--params", opts.params]
           + accuracy.interleave_args(configs, lambda c: c["label"]) + policy_args)
    wall, _ = accuracy.run(cmd, appspec.clean_env({}), None, "characterizing (%s)" % " ".join(policy_args),
                           opts.timeout)
    out = {}
    con = sqlite3.connect(db)
    try:
        for ub, streams, label, tpi, rounds in con.execute(
                "SELECT p.ubench, p.streams_text, n.label, p.tpi_us, "
                "coalesce(json_extract(p.params, '$.rounds'), '1') "
                "FROM profiles p JOIN nodes n ON n.id = p.node_id"):
            out.setdefault((ub, streams), {})[label] = (tpi, int(rounds))
    finally:
        con.close()
    return wall, out


def program_time(opts, app, cfg):
    argv = [os.path.join(app["path"], "plain")] + appspec.expand_args(app["args"], cfg["threads"])
    wall, out = accuracy.run(argv, appspec.clean_env(cfg["env"]), None, "%s on %s" % (app["app"], cfg["label"]),
                             opts.timeout, ok=appspec.ok_codes(opts.ok_exit, app["app"]))
    if not opts.time_regex:
        return wall
    m = re.search(opts.time_regex, out)
    if not m:
        raise accuracy.WorkError("%s on %s: --time-regex %r found nothing in its output" % (
            app["app"], cfg["label"], opts.time_regex))
    return float(m.group(1))


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--params", required=True, help="uB configurations, phaseprobe-ubench --params lines")
    ap.add_argument("--policy", action="append", required=True, metavar="LABEL=ARGS",
                    help="phaseprobe-ubench run arguments of one round policy (repeatable)")
    ap.add_argument("--app", help="NAME=PATH[:ARGS]: a folder with a 'plain' build, run between")
    ap.add_argument("--time-regex", help="the program's time: group 1 of this in its output (default: wall)")
    ap.add_argument("--ok-exit", action="append", default=[], metavar="NAME=CODES")
    ap.add_argument("--config", action="append", default=[], metavar="LABEL:THREADS[:PLACES[:BIND[:WAIT]]]")
    ap.add_argument("--ref", help="the configuration ratios are taken to (default: most threads, first)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", help="also write the table to this file (atomically)")
    o = ap.parse_args(argv)
    if not os.path.isfile(o.params):
        raise appspec.InputError("--params %s: no such file" % o.params)
    o.policies = []
    for spec in o.policy:
        label, sep, args = spec.partition("=")
        if not label or not sep:
            raise appspec.InputError("--policy %r: expected LABEL=ARGS" % spec)
        o.policies.append((label, shlex.split(args)))
    o.configs = [accuracy.parse_config(s) for s in o.config] or accuracy.default_configs(o.build)
    if len(o.configs) < 2:
        raise appspec.InputError("--config: two configurations or more are needed for a ratio")
    labels = [c["label"] for c in o.configs]
    o.ref = o.ref or max(o.configs, key=lambda c: c["threads"])["label"]
    if o.ref not in labels:
        raise appspec.InputError("--ref %s: not one of the configurations (%s)" % (o.ref, ", ".join(labels)))
    if o.repeats < 1:
        raise appspec.InputError("--repeats must be at least 1")
    o.ok_exit = appspec.parse_ok_exit(o.ok_exit)
    o.app = appspec.parse_app(o.app, folder_only=True) if o.app else None
    if o.time_regex:
        try:
            re.compile(o.time_regex)
        except re.error as ex:
            raise appspec.InputError("--time-regex: %s" % ex)
    if o.out and textout.out_dir_problem(o.out):
        raise appspec.InputError(textout.out_dir_problem(o.out))
    return o


def main():
    try:
        opts = parse_args(sys.argv[1:])
    except appspec.InputError as ex:
        fail(str(ex), 2)
    cfg = {c["label"]: c for c in opts.configs}
    others = [c["label"] for c in opts.configs if c["label"] != opts.ref]
    ratios = {}   # (policy, uB key, label) -> per-repeat time ratio
    rounds = {}   # (policy, uB key) -> rounds of every profile
    seconds = {}  # policy -> seconds per characterization
    app_ratio = {label: [] for label in others}
    start = time.time()
    try:
        with tempfile.TemporaryDirectory(prefix="round_spread.") as tmp:
            for r in range(opts.repeats):
                k = r % len(opts.policies)
                for label, args in opts.policies[k:] + opts.policies[:k]:
                    wall, prof = characterize(opts, opts.configs, args, os.path.join(tmp, "%s-%d.sqlite" % (label, r)))
                    seconds.setdefault(label, []).append(wall)
                    for key, per in prof.items():
                        rounds.setdefault((label, key), []).extend(n for _, n in per.values())
                        if opts.ref not in per:
                            continue
                        for lab in others:
                            if lab in per:
                                ratios.setdefault((label, key, lab), []).append(
                                    per[lab][0] / per[opts.ref][0] * cfg[opts.ref]["threads"] / cfg[lab]["threads"])
                if opts.app:
                    t = {c["label"]: program_time(opts, opts.app, c) for c in opts.configs}
                    for lab in others:
                        app_ratio[lab].append(t[lab] / t[opts.ref])
                print("[round_spread] repeat %d of %d done" % (r + 1, opts.repeats), file=sys.stderr, flush=True)
    except accuracy.WorkError as ex:
        fail(str(ex), 1)
    keys = sorted({key for (_, key, _) in ratios})
    lines = ["phaseprobe round spread: node-to-node ratios of fresh characterizations under round policies",
             "machine : " + provenance.machine(),
             "commit  : " + provenance.commit(ROOT, ["ubench", "bench/ubench"]),
             "date    : " + time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
             "command : " + " ".join(shlex.quote(a) for a in sys.argv),
             "configs : %s; ratios are to %s, as time ratios for the same work" % (
                 ", ".join("%s (%s)" % (c["label"], accuracy.env_text(c)) for c in opts.configs), opts.ref),
             "policies: " + "; ".join("%s = %s" % (l, " ".join(a)) for l, a in opts.policies),
             "repeats : %d, %.0f s in all" % (opts.repeats, time.time() - start), ""]
    if opts.app:
        lines.append("program %s %s (%s), time ratio to %s per repeat:" % (
            opts.app["app"], " ".join(opts.app["args"]), "time: " + opts.time_regex if opts.time_regex else "wall",
            opts.ref))
        for lab in others:
            v = app_ratio[lab]
            lines.append("  %-10s %s   median %.3f" % (lab, " ".join("%.3f" % x for x in v), statistics.median(v)))
        lines.append("")
    head = ("uB configuration", "config", "policy", "ratio per repeat", "median", "range %",
            "|-program| med", "rounds med/max", "s per run")
    rows = []
    for key in keys:
        for lab in others:
            for label, _ in opts.policies:
                v = ratios.get((label, key, lab))
                if not v:
                    continue
                med = statistics.median(v)
                dist = ("%.1f%%" % (statistics.median(abs(a / b - 1) * 100 for a, b in zip(v, app_ratio[lab])))
                        if opts.app else "")
                rs = rounds[(label, key)]
                rows.append(("%s %s" % key, lab, label, " ".join("%.3f" % x for x in v), "%.3f" % med,
                             "%.1f" % ((max(v) - min(v)) / med * 100), dist,
                             "%g / %d" % (statistics.median(rs), max(rs)), "%.0f" % statistics.median(seconds[label])))
    lines += textout.table(head, rows)
    textout.emit("round_spread.py", lines, opts.out)


if __name__ == "__main__":
    main()
