#!/usr/bin/env python3
"""phaseprobe accuracy across machines: a stored run's base node, projected
onto this machine.

run.py validates the configurations of one machine against each other. The
method's real setting (METHOD.md, issue 7) is another CPU: the base runs on
one node, the estimate for a node of another design. When the project gets a
machine with a different CPU, this script takes a results folder that
run.py wrote on the first one (its NPPDB, its base runs, its measured times)
and

  1. copies that NPPDB into --out and characterizes this machine's
     configurations into the copy (node labels PREFIX-CONFIG) with exactly
     the uB configurations the stored run measured (the same names, the same
     streams: its grid, the clones grown from its phases and the padded ones),
     side by side and with the stored run's rounds,
  2. estimates every configuration of both machines from the stored run's
     base runs (phaseprobe-estimate --base <stored base node>: the base node
     stays the first machine's, only the targets are new),
  3. measures the same workloads here (plain programs, rounds across the
     workloads, and instrumented timing runs for the per-phase times),
  4. writes data.json, table.txt and report.html like run.py: rows of this
     machine are what the summary counts; the stored machine's rows (its
     measured times from the stored run, re-estimated) are shown and ranked
     with them, so that "which node is fastest" is checked across both.

The workloads' executables are rebuilt here from the same sources (the
bundled examples from --build, the others as --app/--apps-file specs whose
NAME and ARGS equal the stored ones): only the plain programs are measured
and only the instrumented ones give per-phase times; the base runs stay the
stored ones.

Python 3 standard library only. Exit 0 on success, 1 when a step of the work
failed, 2 on bad usage or input.
"""

import argparse
import datetime
import functools
import json
import os
import re
import shlex
import sqlite3
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
import padding  # noqa: E402  (a padded clone's name: padding.PADDED)
import report  # noqa: E402
import run as acc  # noqa: E402  (the single-machine harness: its steps are reused)
import textout  # noqa: E402  (bench/textout.py)
from apps import InputError, load_apps, ok_codes, parse_ok_exit  # noqa: E402


def load_stored(folder):
    """The stored run: its data.json (schema checked), NPPDB and raw/."""
    data = os.path.join(folder, "data.json")
    db = os.path.join(folder, "nppdb.sqlite")
    for path in (data, db):
        if not os.path.isfile(path):
            raise InputError("%s: missing (--from takes a results folder of run.py with its NPPDB copied "
                             "in as nppdb.sqlite)" % path)
    try:
        with open(data) as f:
            doc = json.load(f)
    except (OSError, json.JSONDecodeError) as ex:
        raise InputError("%s: %s" % (data, ex))
    if doc.get("schema") != report.SCHEMA:
        raise InputError("%s: schema %r, expected %r" % (data, doc.get("schema"), report.SCHEMA))
    for a in doc.get("apps", []):
        missing = [f for f in a.get("base_files", []) if not os.path.isfile(os.path.join(folder, "raw", f))]
        if missing or not a.get("base_files"):
            raise InputError("%s: workload %s %s: base phase file %s missing in raw/" % (
                data, a.get("app"), a.get("workload"), (missing or ["(none listed)"])[0]))
    return doc, db


def copy_db(src, dst):
    """A consistent copy of an SQLite file (the backup API: a WAL the stored
    file may still have is folded in), written beside dst and renamed."""
    tmp = dst + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    s = sqlite3.connect("file:%s?mode=ro" % src, uri=True)
    d = sqlite3.connect(tmp)
    try:
        s.backup(d)
    finally:
        d.close()
        s.close()
    os.replace(tmp, dst)


def stored_params(db, nodes, lacking=(), keep=None):
    """The uB configurations measured on the stored nodes, as
    phaseprobe-ubench --params lines ('UBENCH K:S[:W];...'): each profile's
    own request (params.requested), which is what reproduces it; a profile
    stored without one gives its streams' footprint and stride. With
    lacking (nodes of this machine), only those one of them has not (by uB
    and streams); with keep (a predicate on uB and streams text), only
    those it accepts."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        rows = con.execute(
            "SELECT DISTINCT p.ubench, p.params, p.streams_text FROM profiles p JOIN nodes n ON n.id = p.node_id "
            "WHERE n.label IN (%s)" % ",".join("?" * len(nodes)), list(nodes)).fetchall()
    finally:
        con.close()
    have = set.intersection(*[profile_keys(db, n) for n in lacking]) if lacking else set()
    lines = set()
    for ub, params, text in rows:
        if (ub, text) in have or (keep and not keep(ub, text)):
            continue
        try:
            req = json.loads(params or "{}").get("requested")
        except json.JSONDecodeError:
            req = None
        lines.add("%s %s" % (ub, req or ";".join(":".join(s.split(":")[:2]) for s in text.split(";"))))
    return sorted(lines)


# uBs the estimator reads as a whole family on every target node, whatever
# the phases matched: the sync uBs and their reference (barrier and
# spin-wait costs), the page-fault and give-back uBs, the hand-over pair
# (read at the footprint nearest a phase's: run hq's first try left it out
# and priced no hand-over on the target) and the compute uBs that price
# padded arithmetic across designs (estimator/src/sync.cpp, handover.cpp,
# estimate.cpp).
NODE_WIDE = re.compile(r"^(mbw1p|bar1p|spin1p|pf1p|gb1p|ho1p|hk1p|c(add|mul|fma|div|sqrt)f?|t(add|mul))$")


def unpadded(ub):
    """A padded clone's unpadded twin ('tri3p+k3+w20/3' -> 'tri3p+k3'), else
    '' (the estimator's unpaddedName; padding.py's pattern)."""
    m = padding.PADDED.match(ub)
    return m.group(1) if m else ""


# The estimator's PaddingFamilyBand (estimator.h): a padded clone's ratio
# pools the family members whose base tpi is within 25% of the clone's.
FAMILY_BAND = 0.25


@functools.lru_cache(maxsize=None)
def family_keep(db, base, threads, clone, streams):
    """Of a padded clone's family on the base node (the same unpadded uB and
    streams), what its estimate can read: the members within FAMILY_BAND of
    its base tpi (pooled), and the nearest member or twin below and above
    that tpi (the estimator's neighboursRatio, where fewer than two are
    pooled). None where the base node lacks the clone: then all of them."""
    twin = unpadded(clone)
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        rows = con.execute("SELECT p.ubench, p.tpi_us FROM profiles p JOIN nodes n ON n.id = p.node_id "
                           "WHERE n.label = ? AND p.threads = ? AND p.streams_text = ?",
                           (base, threads, streams)).fetchall()
    finally:
        con.close()
    tpi = {ub: t for ub, t in rows if ub == twin or unpadded(ub) == twin}
    own = tpi.get(clone)
    if not own:
        return None
    keep = {ub for ub, t in tpi.items() if ub != twin and abs(t / own - 1) <= FAMILY_BAND}
    others = [(t, ub) for ub, t in tpi.items() if ub != clone]
    below = [x for x in others if x[0] <= own]
    above = [x for x in others if x[0] > own]
    if below:
        keep.add(max(below)[1])
    if above:
        keep.add(min(above)[1])
    return keep | {clone, twin}


def needed_keys(raw, db, base):
    """The stored uB configurations (uB, streams text) the stored run's
    estimates read on a target node: every phase's chosen profile under
    every rule it tabulated and, for a padded clone, its unpadded twin and
    the padding family members PaddedRatio::Family pools or takes as
    neighbours (family_keep, from the stored NPPDB db's base node base;
    the whole family where base lacks the clone); the node-wide uBs are kept by
    NODE_WIDE. A node characterized with these alone gets the estimates the
    full grid would give it (checked by pruning a stored node to them:
    test/bench/Accuracy_cross_needed.test).
    Also the profiles the matcher weighed against the chosen one (its ties
    and each stream query's best), so that another matching rule can be
    tried on the node's data afterwards: the example bt's z sweep tied its
    padded read clone with the unpadded writing clone upd1c+k7, the
    question a cross run is to answer (README, "Across two CPU designs")."""
    chosen, twins = set(), set()
    files = [f for f in sorted(os.listdir(raw)) if ".estimate" in f and f.endswith(".json")]
    if not files:
        raise InputError("%s: no estimate JSON of the stored run (--needed-only reads them)" % raw)
    for f in files:
        path = os.path.join(raw, f)
        try:
            with open(path) as fh:
                doc = json.load(fh)
        except (OSError, json.JSONDecodeError) as ex:
            raise InputError("%s: %s" % (path, ex))
        for ph in doc.get("phases", []):
            c = ph.get("candidate")
            if c and c.get("ubench") and c.get("streams"):
                chosen.add((c["ubench"], c["streams"]))
                if unpadded(c["ubench"]):
                    family = family_keep(db, base, c.get("threads") or ph.get("threads"), c["ubench"],
                                         c["streams"])
                    if family is None:
                        twins.add((unpadded(c["ubench"]), c["streams"]))
                    else:
                        chosen.update((ub, c["streams"]) for ub in family)
            weighed = list(ph.get("ties") or []) + [q.get("best") for q in ph.get("queries") or []]
            chosen.update((w["ubench"], w["streams"]) for w in weighed
                          if w and w.get("ubench") and w.get("streams"))
    return lambda ub, text: (bool(NODE_WIDE.match(ub)) or (ub, text) in chosen
                             or ((unpadded(ub) or ub), text) in twins)


def profile_keys(db, node):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return {r for r in con.execute(
            "SELECT p.ubench, p.streams_text FROM profiles p JOIN nodes n ON n.id = p.node_id "
            "WHERE n.label = ?", (node,))}
    finally:
        con.close()


def leave_out(stored_apps, specs):
    """(kept, left out) of the stored workloads under --leave-out's
    NAME[:ARGS] specs; a spec that matches none is bad input (a typo would
    otherwise measure everything), and so is leaving out every one."""
    kept, gone = list(stored_apps), []
    for spec in specs:
        name, _, args = spec.partition(":")
        hit = [a for a in kept if a["app"] == name and (not args or a["args"] == shlex.split(args))]
        if not hit:
            raise InputError("--leave-out %s: no such workload in the stored run (have %s)" % (
                spec, ", ".join(sorted("%s:%s" % (a["app"], " ".join(a["args"])) for a in stored_apps))))
        kept = [a for a in kept if a not in hit]
        gone += ["%s %s" % (a["app"], a["workload"]) for a in hit]
    if not kept:
        raise InputError("--leave-out: every workload of the stored run left out")
    return kept, gone


def local_binaries(args, stored_apps):
    """(instr, plain, spec) of every stored workload, built here: bundled
    examples from --build, others from the --app/--apps-file specs with the
    same NAME and ARGS."""
    specs = load_apps(args.apps_file, args.app, args.ok_exit)
    out = []
    for a in stored_apps:
        if a["app"] in acc.EXAMPLES and not any(s["app"] == a["app"] for s in specs):
            instr = os.path.join(args.build, "examples", a["app"])
            spec = {"app": a["app"], "path": instr, "instr": instr, "plain": instr + ".plain",
                    "args": a["args"], "workload": a["workload"]}
        else:
            spec = next((s for s in specs if s["app"] == a["app"] and s["args"] == a["args"]), None)
            if not spec:
                raise InputError("workload %s %s of the stored run: give its executables here as --app %s=DIR:%s"
                                 % (a["app"], a["workload"], a["app"], " ".join(map(shlex.quote, a["args"]))))
        instr, plain = acc.build_app(args.build, spec, args.work, args.timeout)
        for exe in (instr, plain):
            if not os.access(exe, os.X_OK):
                raise InputError("%s: not built (workload %s %s)" % (exe, a["app"], a["workload"]))
        out.append((instr, plain, spec))
    return out


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Estimate this machine's configurations from a stored accuracy run's base node "
                    "(another machine), measure them, and tabulate the error.",
        epilog="Example: cross.py --from bench/results/accuracy-...-dq-public --node-prefix xeon "
               "--apps-file /tmp/apps/apps.txt --reps 5 --timing-runs 3")
    ap.add_argument("--from", dest="stored", required=True, metavar="DIR",
                    help="results folder of run.py (data.json, raw/, nppdb.sqlite) made on the base machine")
    ap.add_argument("--node-prefix", required=True,
                    help="this machine's node labels are PREFIX-CONFIG (must differ from the stored run's)")
    ap.add_argument("--build", default=os.path.join(acc.SRC_ROOT, "build"),
                    help="phaseprobe build directory (default: %(default)s)")
    ap.add_argument("--config", action="append", default=[], metavar="LABEL:THREADS[:PLACES[:BIND[:WAIT]]]",
                    help="a configuration of this machine (repeatable; default: as run.py's)")
    ap.add_argument("--app", action="append", default=[], metavar="NAME=PATH[:ARGS]",
                    help="executables of a stored workload that is not a bundled example (as run.py's)")
    ap.add_argument("--apps-file", action="append", default=[], metavar="FILE")
    ap.add_argument("--ok-exit", action="append", default=[], metavar="NAME=CODES")
    ap.add_argument("--leave-out", action="append", default=[], metavar="NAME[:ARGS]",
                    help="a stored workload not to project and measure here (repeatable; NAME alone: "
                         "every workload of that application), e.g. one whose runs would not fit "
                         "the machine's time; the table says which were left out")
    ap.add_argument("--reps", type=int, default=3, help="plain runs per configuration, median (default 3)")
    ap.add_argument("--rounds", type=int, help="uB rounds (default: the stored run's)")
    ap.add_argument("--max-rounds", type=int, default=0,
                    help="phaseprobe-ubench run --max-rounds: more rounds, up to this many, for a uB "
                         "configuration whose rounds disagree (default: --rounds, no more)")
    ap.add_argument("--timing-runs", type=int, default=1, metavar="N",
                    help="instrumented timing runs per configuration (per-phase times; default 1)")
    ap.add_argument("--no-phase-times", dest="phase_times", action="store_false")
    ap.add_argument("--recharacterize", action="store_true",
                    help="run the uBs again for nodes already in OUT's NPPDB")
    ap.add_argument("--complete", action="store_true",
                    help="for this machine's nodes already in OUT's NPPDB (merged there from an "
                         "earlier cross run's, say), measure only the stored run's uB configurations "
                         "they lack, side by side (the others keep their earlier measurement)")
    ap.add_argument("--needed-only", action="store_true",
                    help="characterize only the stored uB configurations the stored run's estimates "
                         "read (every phase's chosen profile, a padded clone's twin and the family "
                         "members it pools, the profiles the matcher weighed against it, the "
                         "node-wide sync, page and compute uBs): minutes instead of an hour on a "
                         "lent machine")
    ap.add_argument("--out", help="results folder (default: bench/results/accuracy-cross-<date>)")
    ap.add_argument("--work", help="scratch folder (default: $TMPDIR/phaseprobe-accuracy-work)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds allowed per program run")
    ap.add_argument("--load-note", default="", help="free text on the machine's state")
    acc.add_throughput_options(ap)
    a = ap.parse_args(argv)
    a.build = os.path.abspath(a.build)
    if a.reps < 1 or a.timing_runs < 1:
        raise InputError("--reps and --timing-runs must be at least 1")
    a.ok_exit = parse_ok_exit(a.ok_exit)
    return a


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    acc.resolve_throughput_option(args)
    stored, stored_db = load_stored(os.path.abspath(args.stored))
    stored["apps"], left_out = leave_out(stored["apps"], args.leave_out)
    for w in left_out:
        acc.log("left out: %s" % w)
    sctx = stored.get("context", {})
    scfgs = [dict(c, label=c["node"], stored=True, stored_label=c["label"]) for c in stored["configs"]]
    base_cfg = next(c for c in scfgs if c["label"] == next(
        k["node"] for k in stored["configs"] if k["label"] == stored["base"]))
    keep = needed_keys(os.path.join(os.path.abspath(args.stored), "raw"), stored_db,
                       base_cfg["node"]) if args.needed_only else None
    local = [acc.parse_config(s) for s in args.config] or acc.default_configs(args.build)
    for c in local:
        c["node"] = c["label"] = "%s-%s" % (args.node_prefix, c["label"])
    clash = {c["node"] for c in local} & {c["node"] for c in scfgs}
    if clash:
        raise InputError("--node-prefix %s: node %s is the stored run's" % (args.node_prefix, sorted(clash)[0]))
    node_of = lambda cfg: cfg["node"]

    date = datetime.datetime.now(datetime.timezone.utc)
    out = os.path.abspath(args.out or os.path.join(acc.SRC_ROOT, "bench", "results",
                                                   "accuracy-cross-" + date.strftime("%Y-%m-%d-%H%M")))
    raw = os.path.join(out, "raw")
    args.work = os.path.abspath(args.work or os.path.join(tempfile.gettempdir(), "phaseprobe-accuracy-work"))
    os.makedirs(args.work, exist_ok=True)
    # Every workload's executables first: a missing one is bad input, and
    # then nothing is written.
    binaries = local_binaries(args, stored["apps"])
    # Nodes of these labels that the NPPDB already has (a stored run's
    # folder may hold an earlier projection's) are reused only if this
    # machine's design characterized them.
    args.db = os.path.join(out, "nppdb.sqlite")
    if not os.path.exists(args.db):
        args.db = stored_db
    reused = acc.reused_configs(args, local, node_of)
    for d in (out, raw):
        os.makedirs(d, exist_ok=True)
    # What the reused steps of run.py read from their args.
    args.db = os.path.join(out, "nppdb.sqlite")
    args.grid = sctx.get("grid", "quick")
    args.rounds = args.rounds or sctx.get("rounds", 1)
    if args.max_rounds and not (args.rounds >= 2 and args.rounds <= args.max_rounds <= 100):
        raise InputError("--max-rounds must be from --rounds (2 or more) to 100")
    args.interleave = True
    alt_label = (sctx.get("alt") or {}).get("label", "unsampled")
    alt_args = (sctx.get("alt") or {}).get("estimate_args", [])

    # This machine's configurations probed as run.py probes its own, over
    # the one with the most threads (the stored base node is not here).
    acc.start_throughput(args, local, args.work)
    probe_base = max(local, key=lambda c: c["threads"])["label"]

    # 1. This machine, with the stored run's uB configurations.
    if not os.path.exists(args.db):
        copy_db(stored_db, args.db)
        acc.log("copied the stored NPPDB into %s" % args.db)
    todo = [c for c in local if c not in reused]
    params = stored_params(args.db, [c["node"] for c in scfgs], keep=keep)
    ppath = os.path.join(raw, "stored.params")
    textout.write_atomically(ppath, "# the uB configurations of %s\n%s" % (
        args.stored, "".join(l + "\n" for l in params)))
    if todo:
        acc.log("characterize %s: %d uB configurations of the stored run" % (
            ", ".join(c["node"] for c in todo), len(params)))
        acc.run_params(args, todo, node_of, ppath, raw, args.work, "stored")
    present = [c for c in local if c not in todo]
    if args.complete and present:
        lacking = stored_params(args.db, [c["node"] for c in scfgs], [c["node"] for c in present], keep)
        mpath = os.path.join(raw, "missing.params")
        textout.write_atomically(mpath, "# the uB configurations of %s that %s lacked\n%s" % (
            args.stored, ", ".join(c["node"] for c in present), "".join(l + "\n" for l in lacking)))
        acc.log("complete %s: %d of the stored run's %d uB configurations missing" % (
            ", ".join(c["node"] for c in present), len(lacking), len(params)))
        if lacking:
            acc.run_params(args, present, node_of, mpath, raw, args.work, "missing")
    coverage = {}
    for c in local:
        # Which stored profiles (of a stored node at the same thread count)
        # have no counterpart here: a kernel that refused a configuration at
        # this thread count, say.
        mine = {k[0] + " " + k[1] for k in profile_keys(args.db, c["node"])}
        same = [s["node"] for s in scfgs if s["threads"] == c["threads"]] or [base_cfg["node"]]
        theirs = {k[0] + " " + k[1] for k in profile_keys(args.db, same[0]) if not keep or keep(*k)}
        coverage[c["node"]] = {"stored": len(theirs), "missing": sorted(theirs - mine)}
        acc.log("%s: %d of %d stored uB configurations measured" % (
            c["node"], len(theirs & mine), len(theirs)))

    # 2/3. Measured times here, rounds across the workloads.
    states = []
    sraw = os.path.join(os.path.abspath(args.stored), "raw")
    for (instr, plain, spec), a in zip(binaries, stored["apps"]):
        tag = report.raw_tag(a["app"], a["workload"])
        states.append({"app": spec, "tag": tag, "instr": instr, "plain": plain, "stored": a,
                       "ok": ok_codes(args.ok_exit, a["app"]),
                       "timing": {},  # no timing run outside the rounds (measure_rounds)
                       "entry": {"app": a["app"], "workload": a["workload"], "args": a["args"],
                                 "path": spec["path"], "rows": [], "phases": [], "unmatched": [],
                                 "warnings": [], "base_runs": a.get("base_runs"),
                                 "base_files": a.get("base_files"), "stored_from": args.stored,
                                 # Where rules.py and regions.py find them (report.base_paths).
                                 "base_dir": os.path.relpath(sraw, out)}})
    # run.py's rounds, without its base runs (the base runs are the stored ones).
    args.base_alongside = False
    acc.measure_rounds(args, states, local, None, node_of, args.work, raw)
    failures = [st["failed"] for st in states if st.get("failed")]
    for f in failures:
        acc.log("FAILED: %s" % f)

    # 4. Estimates of both machines' configurations from the stored base runs.
    commit, dirty = acc.git_commit(acc.SRC_ROOT)
    doc = {"schema": report.SCHEMA,
           "context": {"machine": acc.machine(), "commit": commit,
                       "dirty": dirty, "date": date.strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "command": " ".join(map(shlex.quote, ["bench/accuracy/cross.py"] + argv)),
                       "load_note": args.load_note, "alt": sctx.get("alt"), "loadavg_start": None,
                       "grid": "the stored run's %d uB configurations%s" % (
                           len(params), " its estimates read (--needed-only)" if keep else ""),
                       "repetitions": args.reps, "base_runs": sctx.get("base_runs", 1),
                       "interleaved": True, "rounds": args.rounds, "tie_pct": sctx.get("tie_pct", 2.0),
                       "top_phases": sctx.get("top_phases", 5), "db": args.db, "build": args.build,
                       "timing_runs": args.timing_runs,
                       "measured": "median wall time of the plain program (the stored configurations': "
                                   "as measured in the stored run)",
                       "stored": {"folder": args.stored, "machine": sctx.get("machine"),
                                  "commit": sctx.get("commit"), "date": sctx.get("date"),
                                  "base": base_cfg["node"]},
                       "profiles_missing_here": coverage, "left_out": left_out},
           "base": base_cfg["label"], "configs": scfgs + local, "apps": []}
    for st in states:
        if st.get("failed"):
            continue
        a, entry, tag = st["stored"], st["entry"], st["tag"]
        files = [os.path.join(sraw, f) for f in a["base_files"]]
        configs = scfgs + local
        ests, alts = {}, {}
        for c in configs:
            ests[c["label"]], note = acc.estimate(args, base_cfg, c, files, node_of, raw, tag)
            if note:
                entry["warnings"].append(note)
            if alt_label != "unsampled":
                alts[c["label"]], _ = acc.estimate(args, base_cfg, c, files, node_of, raw, tag,
                                                   "estimate-" + alt_label, alt_args)
        reps = dict(st["reps"])
        srows = {r["node"]: r for r in a["rows"]}
        measured_phases = {}
        for c in scfgs:
            reps[c["label"]] = srows[c["node"]]["measured_reps"]
            times = {p["id"]: (p.get("per_config") or {}).get(c["stored_label"], {}).get("measured_s")
                     for p in a.get("phases", [])}
            measured_phases[c["label"]] = {i: {"time_s": t} for i, t in times.items() if t is not None}
        for c in local:
            docs = st["timing_docs"][c["label"]]
            merged = acc.merged_timing(args, st, c, docs, raw)
            if merged:
                measured_phases[c["label"]] = {p["id"]: p for p in merged.get("phases", [])}
        ph = acc.load_json(files[0], "stored base phase file")
        acc.tabulate(args, entry, ph, configs, ests, alts, reps, measured_phases, node_of)
        doc["apps"].append(entry)
    if args.tprobe:
        doc["context"]["throughput_probe"] = acc.throughput_context(args, local, node_of, probe_base, failures)
    doc["context"]["failures"] = failures
    report.derive(doc)
    textout.write_atomically(os.path.join(out, "data.json"), json.dumps(doc, indent=1) + "\n")
    text = report.render_text(doc) + "".join("FAILED: %s\n" % f for f in failures)
    textout.write_atomically(os.path.join(out, "table.txt"), text)
    textout.write_atomically(os.path.join(out, "report.html"), report.render_html(doc))
    sys.stdout.write(text)
    acc.log("results in %s" % out)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as ex:
        print("cross.py: %s" % ex, file=sys.stderr)
        sys.exit(2)
    except acc.WorkError as ex:
        print("cross.py: %s" % ex, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
