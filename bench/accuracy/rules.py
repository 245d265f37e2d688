#!/usr/bin/env python3
"""Estimation rules side by side on ONE accuracy run's data.

`run.py` compares two rules (the default and --alt) against the measured
times of one run. To see what another option changes (`--sync off`, another
projection) without a second run, whose base runs and measurements would
carry other noise, this re-estimates every workload of a results folder
from its stored base phase file and NPPDB, under each named rule, against
the same measured medians, and prints one table:

    bench/accuracy/rules.py RESULTS --db NPPDB [--build build] \\
        --rule 'default=' --rule 'nosync=--sync off' \\
        --rule 'ratio=--projection ratio --relax-unmatched' ...

Per rule: every program estimate's error, the median and maximum of
|error| over all of them, in total and per configuration, and whether every
ranking is right ignoring measured ties (the run's own verdict, report.py).

In a rule's arguments `{base_plain_s}` becomes the workload's measured
time on the base configuration (the median of its plain repetitions):
`--rule 'plain=--plain-time {base_plain_s}'` reads the run as if the user
had timed the plain build on the base node alongside (phaseprobe-estimate
--plain-time; the base configuration's own rows are then right by
construction).

`--statistic min` reads the same data as best-of-N instead of medians: the
fastest plain repetition is the measured time and the fastest base run
(smallest program time) the base. On a machine whose neighbours only ever
slow a run down, the fastest of N is the least disturbed one (the argument
of Python's timeit for its minimum); both views of one run side by side
show how much of an error is the statistic, not the method.

`--statistic paired` compares relative times: each configuration's
repetition k divided by the base configuration's repetition k (they ran in
the same round, minutes apart at most), the median over rounds, against the
estimate divided by the base configuration's estimate. What the machine did
during a round cancels, and so does the base run's own error: what is left
is the error of the projection alone. The base configuration's rows have
no error of this kind and are left out of the statistics.

`--near` reads a run made with `run.py --handoff-probe` as if only the
measurements made while the node kept its near shape had been made: the
base runs and repetitions both of whose probes read near (paired: the
rounds in which both the row's and the base row's repetition did).
`--far` does the same with the far shape: on the AMD EPYC VM the host
keeps the two vCPUs on two L3s most of the time and on one now and then,
and a run's far reading is the one node it measured most of.

`--first N` reads the run as if it had made N runs: its first N base runs
and the first N plain repetitions of every row (round k holds repetition
k of each and, base runs alongside, base run k). Swept over N on one run
it says how much of the error the number of runs explains, with the
machine's own noise of that hour (the uB profiles and timing runs stay
the run's).
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import handoff_probe  # noqa: E402
import provenance  # noqa: E402  (bench/provenance.py)
import report  # noqa: E402

SRC_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    # The script that runs (rules.py, or regions.py through estimate_doc).
    print(os.path.basename(sys.argv[0]) + ": " + msg, file=sys.stderr)
    sys.exit(2)


def parse_rule(spec):
    label, _, args = spec.partition("=")
    if not label:
        raise argparse.ArgumentTypeError("expected LABEL=ARGS, found %r" % spec)
    return label, shlex.split(args)


def estimate_doc(build, phases, db, base, cfg, base_threads, extra):
    """The estimator's JSON for cfg's node from the base phase files."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "estimate.json")
        cmd = [os.path.join(build, "bin", "phaseprobe-estimate")] + phases + [
            "--db", db, "--base", base, "--nodes", cfg["node"], "--json", out] + extra
        if cfg["threads"] != base_threads:
            cmd += ["--threads", str(cfg["threads"])]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            fail("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
        with open(out) as f:
            return json.load(f)


def estimate(build, phases, db, base, cfg, base_threads, extra):
    doc = estimate_doc(build, phases, db, base, cfg, base_threads, extra)
    warned = bool((doc.get("thread_branches") or {}).get("warning"))
    for n in doc["nodes"]:
        if n["node"] == cfg["node"]:
            # The node's own warning: padded arithmetic carried onto another CPU.
            return (n["time_s"], warned, n.get("time_s_runs"), bool(n.get("warning")),
                    n.get("padded_share", 0))
    fail("%s: no estimate for %s" % (phases, cfg["node"]))


def parse_set_field(spec):
    key, eq, value = spec.partition("=")
    try:
        if not key or not eq:
            raise ValueError("no '='")
        return key, json.loads(value)
    except ValueError as ex:
        raise argparse.ArgumentTypeError("expected KEY=JSON, found %r (%s)" % (spec, ex))


def edited_copies(paths, folder, prefix, edit):
    """Copies of the phase files in folder, each document passed through
    edit (which changes it in place) first."""
    out = []
    for path in paths:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as ex:
            fail("%s: %s" % (path, ex))
        edit(doc)
        out.append(os.path.join(folder, "%s%d.%s" % (prefix, len(out), os.path.basename(path))))
        with open(out[-1], "w") as f:
            json.dump(doc, f)
    return out


def edited_fields(paths, drop, put, folder):
    """Copies of the phase files in folder, every phase without the keys in
    drop and with the (key, value) pairs of put (a key "program.K": the
    program's K)."""
    def edit(doc):
        for k, v in [(k, None) for k in drop] + list(put):
            if k.startswith("program."):
                objs, k = [doc.setdefault("program", {})], k[len("program."):]
            else:
                objs = doc.get("phases", [])
            for o in objs:
                if v is None:
                    o.pop(k, None)
                else:
                    o[k] = v
    return edited_copies(paths, folder, "", edit)


def parse_name_file(spec):
    """NAME=PHASES.json (--ops-from's application, --serial-faults-from's
    workload)."""
    name, eq, path = spec.partition("=")
    if not name or not eq or not path:
        raise argparse.ArgumentTypeError("expected NAME=PHASES.json, found %r" % spec)
    return name, path


def ops_by_id(path):
    """{phase id: ops} of a phase file written with a plugin that counts them."""
    try:
        with open(path) as f:
            doc = json.load(f)
        ops = {p["id"]: p["ops"] for p in doc["phases"] if isinstance(p.get("ops"), dict)}
    except (OSError, ValueError, KeyError, TypeError) as ex:
        fail("%s: %s" % (path, ex))
    if not ops:
        fail("%s: no phase has ops (a plugin older than the op mix?)" % path)
    return ops


def with_ops(paths, ops, folder):
    """Copies of the phase files in folder, each phase lacking ops given the
    ops of its id in ops (the same code's, counted by a newer plugin)."""
    def edit(doc):
        for p in doc.get("phases", []):
            if "ops" not in p and p.get("id") in ops:
                p["ops"] = ops[p["id"]]
    return edited_copies(paths, folder, "ops.", edit)


def region_faults(doc):
    """The page faults a phase file's top-level regions counted."""
    return sum(p.get("page_faults", 0) for p in doc.get("phases", []) if p.get("parent") is None)


def serial_faults(path):
    """The serial code's page faults of a phase file whose runtime counted
    the program's: program.page_faults less its top-level regions'."""
    try:
        with open(path) as f:
            doc = json.load(f)
        return max(0, doc["program"]["page_faults"] - region_faults(doc))
    except (OSError, ValueError, KeyError, TypeError) as ex:
        fail("%s: no program page faults (a runtime older than 2026-11-29?): %s" % (path, ex))


def serial_faults_by_tag(specs, data, results):
    """{workload raw tag: serial faults} of --serial-faults-from's
    (TAG, PHASES.json) pairs; a tag that is no workload of the run is bad
    input."""
    tags = {report.raw_tag(a["app"], a["workload"]) for a in data["apps"]}
    for tag, _ in specs:
        if tag not in tags:
            fail("--serial-faults-from %s: no such workload in %s (have %s)" % (
                tag, results, ", ".join(sorted(tags))))
    return {tag: serial_faults(path) for tag, path in specs}


def with_serial_faults(paths, serial, folder):
    """Copies of the phase files in folder, each program given page_faults:
    its top-level regions' own plus serial (the same workload's serial
    faults, counted by a newer runtime)."""
    def edit(doc):
        doc.setdefault("program", {})["page_faults"] = region_faults(doc) + serial
    return edited_copies(paths, folder, "faults.", edit)


def program_time(path):
    try:
        with open(path) as f:
            return json.load(f)["program"]["total_time_s"]
    except (OSError, ValueError, KeyError, TypeError) as ex:
        fail("%s: no program time: %s" % (path, ex))


def first_runs(data, configs, n, results):
    """data as if its run had made n runs: each workload's first n base
    runs and each row's first n repetitions (round k of a run holds
    repetition k of every row and, base runs alongside, its base run k),
    the measured time their median. The files before the base runs (the
    sampled run that gives unsampled ones their streams) stay."""
    if n < 1:
        fail("--first %d: expected 1 or more" % n)
    for app in data["apps"]:
        files = app.get("base_files") or []
        runs = app.get("base_runs", len(files))
        if runs < n:
            fail("%s: --first %d: %s has %d base runs" % (
                results, n, report.raw_tag(app["app"], app["workload"]), runs))
        app["base_files"] = files[:len(files) - runs] + files[len(files) - runs:][:n]
        app["base_runs"] = n
        for row in app["rows"]:
            if configs[row["config"]].get("stored"):  # another machine's row (cross.py)
                continue
            reps = row.get("measured_reps") or []
            if len(reps) < n:
                fail("%s: --first %d: %s on %s has %d repetitions" % (
                    results, n, report.raw_tag(app["app"], app["workload"]), row["config"], len(reps)))
            row["measured_reps"] = reps[:n]
            row["measured_s"] = statistics.median(reps[:n])


def shape_runs(data, configs, results, want):
    """data as if its run had made only the measurements both of whose
    handoff probes read the shape \p want, "near" or "far" (run.py
    --handoff-probe): those base runs and, per row, those repetitions; each
    row keeps `shape_mask` (repetition k in that shape) for the paired
    statistic."""
    hp = data.get("context", {}).get("handoff_probe")
    if not hp:
        fail("%s: --%s: the run was made without --handoff-probe" % (results, want))
    kept_shape = lambda p: p is not None and handoff_probe.shape(p[0], p[1], hp["near_below_ns"]) == want
    for app in data["apps"]:
        tag = report.raw_tag(app["app"], app["workload"])
        files = app.get("base_files") or []
        probes = app.get("base_handoff_probes_ns") or []
        runs = app.get("base_runs", len(files))
        kept = [f for f, p in zip(files[len(files) - runs:], probes) if kept_shape(p)]
        if not kept:
            fail("%s: --%s: no base run of %s was %s" % (results, want, tag, want))
        app["base_files"] = files[:len(files) - runs] + kept
        app["base_runs"] = len(kept)
        for row in app["rows"]:
            if configs[row["config"]].get("stored"):
                continue
            mask = [kept_shape(p) for p in row.get("handoff_probes_ns") or []]
            reps = [r for r, m in zip(row.get("measured_reps") or [], mask) if m]
            if not reps:
                fail("%s: --%s: no repetition of %s on %s was %s" % (results, want, tag, row["config"], want))
            row["shape_mask"] = mask
            row["measured_reps_all"] = row["measured_reps"]
            row["measured_reps"] = reps
            row["measured_s"] = statistics.median(reps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="a bench/accuracy/run.py results folder (data.json, raw/)")
    ap.add_argument("--db", required=True, help="the NPPDB that run used")
    ap.add_argument("--build", default=os.path.join(SRC_ROOT, "build"))
    ap.add_argument("--rule", action="append", type=parse_rule, required=True, metavar="LABEL=ARGS")
    ap.add_argument("--statistic", choices=["median", "min", "paired"], default="median",
                    help="measured time and base: the median of the repetitions and of the base runs "
                         "(default, as run.py); 'min': the fastest repetition and the fastest base "
                         "run; 'paired': each configuration relative to the base configuration, "
                         "repetition by repetition (round by round), against the estimate's own "
                         "ratio to the base configuration's estimate")
    ap.add_argument("--drop-field", action="append", default=[], metavar="KEY",
                    help="estimate as if the base runs' phases lacked this field (page_faults, "
                         "barriers, spin_rounds, guarded_page_faults: the term it feeds off; "
                         "program.guarded_serial: the program's), to measure what it changes on "
                         "the same data (repeatable)")
    ap.add_argument("--set-field", action="append", default=[], type=parse_set_field,
                    metavar="KEY=JSON",
                    help="estimate as if the base runs' phases had this field with this value "
                         "(program.threads_share_cpus=false: a run recorded before the runtime "
                         "wrote it, on the cores of its own it had), repeatable")
    ap.add_argument("--ops-from", action="append", default=[], type=parse_name_file,
                    metavar="APP=PHASES.json",
                    help="estimate as if APP's base runs had counted their phases' op mix: each "
                         "phase's ops from this phase file of the same code, written by a plugin "
                         "that counts them (by phase id; ops are static), repeatable")
    ap.add_argument("--serial-faults-from", action="append", default=[], type=parse_name_file,
                    metavar="WORKLOAD=PHASES.json",
                    help="estimate as if the base runs of WORKLOAD (its raw tag, as in raw/: "
                         "npb-cg.npb-cg.A) had counted the program's page faults: their top-level "
                         "regions' own plus the serial code's of this phase file of the same "
                         "workload, written by a runtime that counts them (2026-11-29 on), "
                         "repeatable")
    ap.add_argument("--first", type=int, default=0, metavar="N",
                    help="read the run as if it had made N runs: its first N base runs and the "
                         "first N plain repetitions of each row (rounds 1..N), to see how its errors "
                         "depend on the number of runs (default: all)")
    ap.add_argument("--far", dest="shape", action="store_const", const="far",
                    help="as --near, with the far shape (both probes at or over the near limit)")
    ap.add_argument("--near", dest="shape", action="store_const", const="near",
                    help="a run made with --handoff-probe read as if only its near-shape base runs and "
                         "repetitions had been made")
    ap.add_argument("--runs", type=int, default=1,
                    help="base runs to merge for a run that did not record its base files (the run's "
                         "tag.base.K.phases.json, K = 2..RUNS; default 1)")
    args = ap.parse_args()
    try:
        with open(os.path.join(args.results, "data.json")) as f:
            data = json.load(f)
    except (OSError, ValueError) as ex:
        fail("%s: %s" % (args.results, ex))
    if not os.path.exists(args.db):
        fail("%s: no such database" % args.db)
    configs = {c["label"]: c for c in data["configs"]}
    base = configs[data["base"]]
    if args.first and args.shape:
        fail("--first and --%s: one at a time" % args.shape)
    if args.first:
        first_runs(data, configs, args.first, args.results)
    if args.shape:
        shape_runs(data, configs, args.results, args.shape)
    for name, _ in args.ops_from:
        if not any(a["app"] == name for a in data["apps"]):
            fail("--ops-from %s: no such application in %s (have %s)" % (
                name, args.results, ", ".join(sorted({a["app"] for a in data["apps"]}))))
    # Read once, before any estimate: an app has several workloads.
    ops_from = [(name, ops_by_id(path)) for name, path in args.ops_from]
    faults_from = serial_faults_by_tag(args.serial_faults_from, data, args.results)
    raw = os.path.join(args.results, "raw")
    work = tempfile.TemporaryDirectory(prefix="pp-rules-")  # removed at exit

    errors = {label: [] for label, _ in args.rule}
    warned_rows = set()  # (app index, row index) the estimator warned of thread-count branches
    padding_rows = set()  # ... of padded arithmetic on another CPU
    shares = {label: {} for label, _ in args.rule}  # (app index, row index) -> padded share
    ests = {label: {} for label, _ in args.rule}  # (app index, row index) -> estimate
    in_runs = {label: [0, 0] for label, _ in args.rule}  # measured inside the base runs' range, rows
    lines = []
    for ai, app in enumerate(data["apps"]):
        tag = report.raw_tag(app["app"], app["workload"])
        if app.get("base_files"):  # the files that run's estimates used
            phases = report.base_paths(args.results, app)
        else:
            phases = [os.path.join(raw, "%s.base.phases.json" % tag)]
            phases += [os.path.join(raw, "%s.base.%d.phases.json" % (tag, k))
                       for k in range(2, args.runs + 1)]
        for f in phases:
            if not os.path.exists(f):
                fail("%s: missing (was the run complete, with --base-runs %d?)" % (f, args.runs))
        if args.statistic == "min":
            phases = [min(phases, key=program_time)]
        if args.drop_field or args.set_field:
            phases = edited_fields(phases, args.drop_field, args.set_field, work.name)
        for name, ops in ops_from:
            if name == app["app"]:
                phases = with_ops(phases, ops, work.name)
        if tag in faults_from:
            phases = with_serial_faults(phases, faults_from[tag], work.name)
        app_ests = {}  # (row index, label) -> estimate
        base_plain = next((row["measured_s"] for row in app["rows"]
                           if row["config"] == base["label"] and row.get("measured_s")), None)
        for ri, row in enumerate(app["rows"]):
            cfg = configs[row["config"]]
            for label, extra in args.rule:
                if any("{base_plain_s}" in a for a in extra):
                    if base_plain is None:
                        fail("%s: no measured time on the base configuration for {base_plain_s}" %
                             app["workload"])
                    extra = [a.replace("{base_plain_s}", "%.6f" % base_plain) for a in extra]
                app_ests[(ri, label)], warned, runs, padded, share = estimate(
                    args.build, phases, args.db, base["node"], cfg, base["threads"], extra)
                if cfg.get("stored"):  # another machine's row (cross.py): ranked, not counted
                    continue
                shares[label][(ai, ri)] = share
                if warned:
                    warned_rows.add((ai, ri))
                if padded:
                    padding_rows.add((ai, ri))
                if runs and args.statistic == "median":
                    in_runs[label][0] += int(report.inside(row["measured_s"], runs))
                    in_runs[label][1] += 1
        base_ri = next((ri for ri, row in enumerate(app["rows"]) if row["config"] == base["label"]),
                       None)
        if args.statistic == "paired" and base["label"] in [c for c in configs if configs[c].get("stored")]:
            fail("%s: --statistic paired: the base row was measured on another machine (a run of cross.py)"
                 % args.results)
        if args.statistic == "paired" and base_ri is None:
            fail("%s: no row of the base configuration %s to pair with" % (tag, base["label"]))
        for ri, row in enumerate(app["rows"]):
            if args.statistic == "min":
                row["measured_s"] = min(row["measured_reps"])
            if args.statistic == "paired":
                if ri == base_ri:
                    lines.append("%-44s %-9s %9s  (the base: every ratio is relative to it)" % (
                        tag[:44], row["config"], "1"))
                    for label, _ in args.rule:
                        ests[label][(ai, ri)] = app_ests[(ri, label)]
                    continue
                # Repetition k of every configuration ran in round k: the
                # ratio within a round cancels what the machine did then.
                b = app["rows"][base_ri]
                if args.shape:
                    # Rounds in which both repetitions were in that shape.
                    mine, theirs = row["measured_reps_all"], b["measured_reps_all"]
                    ks = [k for k in range(min(len(mine), len(theirs)))
                          if row["shape_mask"][k] and b["shape_mask"][k]]
                    if not ks:
                        fail("%s: --%s: no round with %s and the base both %s" % (
                            tag, args.shape, row["config"], args.shape))
                else:
                    mine, theirs = row["measured_reps"], b["measured_reps"]
                    ks = range(min(len(mine), len(theirs)))
                rel = statistics.median(mine[k] / theirs[k] for k in ks)
                row["measured_s"] = b["measured_s"] * rel  # for the ranking verdict
            cells = []
            for label, _ in args.rule:
                est = app_ests[(ri, label)]
                ests[label][(ai, ri)] = est
                if args.statistic == "paired":
                    shown, meas = est / app_ests[(base_ri, label)], rel
                else:
                    shown, meas = est, row["measured_s"]
                err = report.error_pct(shown, meas)
                if not configs[row["config"]].get("stored"):  # another machine's row (cross.py): ranked, not counted
                    errors[label].append((row["config"], abs(err), (ai, ri) in warned_rows,
                                          (ai, ri) in padding_rows))
                cells.append("%9.4f %+7.1f" % (shown, err))
            lines.append("%-44s %-9s %9.4f  %s" % (tag[:44], row["config"],
                                                   rel if args.statistic == "paired" else row["measured_s"],
                                                   "  ".join(cells)))

    print("phaseprobe accuracy: estimation rules side by side on one run's data")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(SRC_ROOT, ["estimator", "matcher", "core"]))
    print("command : %s" % " ".join(shlex.quote(a) for a in sys.argv))
    if args.statistic == "min":
        what = ("fastest plain repetition", "the fastest of the base files the run recorded")
    elif args.statistic == "paired":
        what = ("median over rounds of the plain time / the base configuration's in the same "
                "round; est = estimate / the base configuration's estimate",
                "the base files the run recorded")
    else:
        first = data["apps"][0] if data["apps"] else {}
        what = ("median plain wall time", "the base files the run recorded (median of %d)" %
                first.get("base_runs", len(first["base_files"])) if first.get("base_files") else "")
    if args.first:
        print("first   : %d (the run read as if it had made %d base runs and %d repetitions)" % (
            args.first, args.first, args.first))
    if args.shape:
        print("%-8s: only the base runs and repetitions both of whose handoff probes were %s %.0f ns "
              "(run.py --handoff-probe)" % (args.shape, "under" if args.shape == "near" else "at or over",
                                            data["context"]["handoff_probe"]["near_below_ns"]))
    print("data    : %s (measured = that run's %s); base: %s" % (
        args.results, what[0], what[1] if what[1] else
        "median of %d instrumented runs" % args.runs if args.runs > 1 else "first instrumented run"))
    print()
    print("%-44s %-9s %9s  %s" % ("", "", "", "  ".join("%17s" % label[:17] for label, _ in args.rule)))
    print("%-44s %-9s %9s  %s" % ("workload", "config", "meas_s",
                                  "  ".join("%17s" % "est_s    err%" for _ in args.rule)))
    for l in lines:
        print(l)
    print()
    print("%-14s %-10s %8s %8s %4s" % ("rule", "config", "median%", "max%", "n"))
    ranking, inside = {}, {}
    for label, _ in args.rule:
        # The run's own ranking verdict (report.derive: measured ties are
        # pairs closer than their repetitions spread) with this rule's estimates.
        doc = json.loads(json.dumps(data))
        for (ai, ri), est in ests[label].items():
            doc["apps"][ai]["rows"][ri]["estimated_s"] = est
        report.derive(doc)
        wrong = [report.raw_tag(a["app"], a["workload"]) for a in doc["apps"]
                 if not a["ranking"]["distinguishable"]]
        ranking[label] = "yes" if not wrong else "NO (%s)" % ", ".join(wrong)
        # Its count of estimates inside their own repetitions' range too
        # (absolute times: not a paired reading).
        if args.statistic != "paired":
            inside[label] = doc["summary"]["inside_reps"]
    for label, _ in args.rule:
        groups = [("all", [e for _, e, _, _ in errors[label]])]
        for c in configs:
            groups.append((c, [e for cc, e, _, _ in errors[label] if cc == c]))
        if any(w for _, _, w, _ in errors[label]):
            groups.append(("unwarned", [e for _, e, w, _ in errors[label] if not w]))
        if any(p for _, _, _, p in errors[label]):
            groups.append(("padwarned", [e for _, e, _, p in errors[label] if p]))
            groups.append(("no-padwarn", [e for _, e, _, p in errors[label] if not p]))
        for name, es in groups:
            if es:
                print("%-14s %-10s %8.1f %8.1f %4d" % (label, name, statistics.median(es), max(es),
                                                       len(es)))
        if padding_rows:
            def span(keys):
                vals = [100 * shares[label][k] for k in keys if k in shares[label]]
                return "%.1f-%.1f%%" % (min(vals), max(vals)) if vals else "-"
            print("%-14s padded share of the estimate: padwarned %s, no-padwarn %s" % (
                label, span(padding_rows), span(set(shares[label]) - padding_rows)))
        print("%-14s ranking right ignoring measured ties: %s" % (label, ranking[label]))
        if inside.get(label, {}).get("n"):
            print("%-14s inside the measured range (fastest..slowest repetition): %d of %d" % (
                label, inside[label]["inside"], inside[label]["n"]))
        if in_runs[label][1]:
            print("%-14s measured inside the range of the base runs' own estimates: %d of %d" % (
                label, in_runs[label][0], in_runs[label][1]))
    nz = report.derive(json.loads(json.dumps(data)))["summary"]["noise"]
    if nz["n"]:
        print("noise floor: one plain repetition against the median of the others of its row: "
              "median %.1f%%, max %.1f%% (%d repetitions)" % (nz["median_abs_pct"], nz["max_abs_pct"],
                                                                nz["n"]))
    if warned_rows:
        print("(unwarned: without the %d estimates phaseprobe-estimate warned of code that branches "
              "on the thread count)" % len(warned_rows))
    if padding_rows:
        print("(padwarned: the %d estimates phaseprobe-estimate warned of padded arithmetic "
              "carried onto another CPU design)" % len(padding_rows))


if __name__ == "__main__":
    main()
