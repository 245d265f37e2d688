#!/usr/bin/env python3
"""phaseprobe accuracy harness: estimated vs measured, in one command.

Validates phaseprobe end to end on this machine (issue 7). Node
configurations of one machine are honest targets: the same hardware at
different thread counts and placements (a configuration is a label plus the
OpenMP environment: OMP_NUM_THREADS, OMP_PLACES, OMP_PROC_BIND). The harness

  1. characterizes every configuration into one NPPDB (phaseprobe-ubench run,
     node label <prefix>-<config>, profiles at that configuration's threads),
  2. builds every application twice with the phaseprobe-cc wrapper of the
     build (instrumented, and plain with --phaseprobe-off: the same compiler
     and flags), or takes a prebuilt pair,
  3. runs each application and workload ONCE instrumented on the base
     configuration (the phase file the estimator reads; with --base-runs N,
     N runs merged into per-phase medians, made in turn with the
     repetitions of step 5 unless --no-base-alongside; with
     --base-timing unsampled those N runs sample nothing and give the
     times, the first run the streams),
  4. estimates every configuration with phaseprobe-estimate (--nodes <node>,
     and --threads <n> when the configuration's thread count differs from the
     base one),
  5. measures: the plain program on every configuration, --reps times,
     interleaved round-robin so slow drifts of the machine hit every
     configuration alike; the median wall time is "measured". With phase times
     on (the default) the instrumented program also runs once per
     configuration with PHASEPROBE_SAMPLING=off, giving measured phase times,
  6. writes raw data (JSON), the text tables and an HTML report with SVG bar
     charts into --out, and prints the tables (report.py holds the rules for
     errors, ranks and the summary).

Python 3 standard library only. Exit 0 on success, 1 when a step of the work
failed (a tool or a program exited non-zero), 2 on bad usage or input.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import provenance  # noqa: E402  (bench/provenance.py)
import report  # noqa: E402
import textout  # noqa: E402  (bench/textout.py)
from apps import InputError, clean_env, expand_args, load_apps, ok_codes, parse_ok_exit  # noqa: E402  (bench/apps.py)
import handoff_probe  # noqa: E402
import throughput_probe  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# Bundled examples (built by CMake as <build>/examples/NAME and NAME.plain) and
# their default workloads (argument strings, see examples/README.md). Kept
# small so that the whole default run fits ~10 minutes on a 2-core box; pass
# --size NAME=ARGS1,ARGS2 for larger ones on a quiet machine.
EXAMPLES = {"mm": ["500", "700"], "nbody": ["2048 8", "4096 4"], "bt": ["32 10", "40 10"]}


class WorkError(Exception):
    """A step of the work failed: exit 1."""


def log(msg):
    print("[accuracy %s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Configurations and applications
# --------------------------------------------------------------------------

def parse_config(spec):
    """LABEL:THREADS[:PLACES[:BIND[:WAIT]]] -> dict. PLACES may contain ':'-free
    OpenMP place lists such as {0} or {0},{1} or 'cores'; WAIT is
    OMP_WAIT_POLICY (active, passive), which the uBs get too: how threads
    wait at a barrier is part of the node configuration."""
    parts = spec.split(":")
    if len(parts) < 2 or len(parts) > 5 or not parts[0]:
        raise InputError("--config %r: expected LABEL:THREADS[:PLACES[:BIND[:WAIT]]]" % spec)
    label = parts[0]
    if not re.fullmatch(r"[A-Za-z0-9._-]+", label):
        raise InputError("--config %r: label may only hold letters, digits, '.', '_', '-'" % spec)
    try:
        threads = int(parts[1])
        if threads < 1:
            raise ValueError
    except ValueError:
        raise InputError("--config %r: THREADS must be a positive integer, not %r" % (spec, parts[1]))
    env = {"OMP_NUM_THREADS": str(threads)}
    if len(parts) > 2 and parts[2]:
        env["OMP_PLACES"] = parts[2]
    if len(parts) > 3 and parts[3]:
        if parts[3] not in ("true", "false", "close", "spread", "master", "primary"):
            raise InputError("--config %r: BIND must be close, spread, master, true or false" % spec)
        env["OMP_PROC_BIND"] = parts[3]
    if len(parts) > 4 and parts[4]:
        if parts[4].lower() not in ("active", "passive"):
            raise InputError("--config %r: WAIT must be active or passive" % spec)
        env["OMP_WAIT_POLICY"] = parts[4].lower()
    return {"label": label, "threads": threads, "env": env}


def core_places(build):
    """One OpenMP place per core this process may run on, holding that
    core's hardware threads ('{0},{1}', or '{0,8},{1,9}' with SMT), as
    `phaseprobe-ubench node` reads them from hwloc: what OMP_PLACES=cores
    means, spelled out, for the programs' runs and the uBs alike. libomp
    reads the cores from CPUID instead, and on the Oxide Turin-like VM it
    reads the two vCPUs (two cores to Linux) as one core's threads:
    'cores' is then one place {0,1}, two threads float in it, and short uB
    repetitions often found both on one vCPU (run hk). 'cores' where the
    tool cannot say."""
    out = ubench_node(build, [], "the default configurations")
    return next((l.split(None, 2)[2] for l in out.splitlines() if l.startswith("core places ")), "cores")


def ubench_node(build, extra, what):
    """`phaseprobe-ubench node` + \p extra: its stdout, or InputError naming
    \p what and the tool's last line."""
    p = subprocess.run([tool(build, "phaseprobe-ubench"), "node"] + extra, env=clean_env({}),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        last = p.stderr.strip().splitlines()
        raise InputError("%s: %s" % (what, last[-1] if last else "phaseprobe-ubench node: exit %d" % p.returncode))
    return p.stdout


def default_configs(build):
    """One configuration per thread count in {1, cores}, plus the time-sliced
    'all threads on one core' configuration: on a 2-core machine 1t, 2t and
    2t-1core (the last is genuinely different hardware behaviour)."""
    n = os.cpu_count() or 1
    specs = ["1t:1:{0}:close"]
    if n > 1:
        specs.append("%dt:%d:%s:spread" % (n, n, core_places(build)))
        specs.append("%dt-1core:%d:{0}:close" % (n, n))
    return [parse_config(s) for s in specs]


# --------------------------------------------------------------------------
# Running things
# --------------------------------------------------------------------------

def run(cmd, env, cwd, what, timeout, capture=True, ok=(0,)):
    """Runs cmd; returns (wall seconds, stdout). WorkError on failure, naming
    `what` and the last line of stderr."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, timeout=timeout,
                           stdout=subprocess.PIPE if capture else None,
                           stderr=subprocess.PIPE, universal_newlines=True)
    except FileNotFoundError:
        raise WorkError("%s: %s: not found" % (what, cmd[0]))
    except subprocess.TimeoutExpired:
        raise WorkError("%s: timed out after %d s: %s" % (what, timeout, " ".join(map(shlex.quote, cmd))))
    wall = time.perf_counter() - t0
    if p.returncode not in ok:
        last = (p.stderr or "").strip().splitlines()
        raise WorkError("%s: exit %d: %s (command: %s)" % (
            what, p.returncode, last[-1] if last else "no message", " ".join(map(shlex.quote, cmd))))
    return wall, (p.stdout or "")


def tool(build, name):
    path = os.path.join(build, "bin", name)
    if not os.access(path, os.X_OK):
        raise InputError("%s: not built (build the project into %s first: "
                         "cmake --build %s)" % (path, build, build))
    return path


def build_app(build, app, work, timeout):
    """Returns (instr, plain) executables for an application spec."""
    if app.get("instr"):
        return app["instr"], app["plain"]
    if os.path.isdir(app["path"]):
        return os.path.join(app["path"], "instr"), os.path.join(app["path"], "plain")
    src = app["path"]
    cxx = src.endswith((".cc", ".cpp", ".cxx"))
    wrapper = tool(build, "phaseprobe-c++" if cxx else "phaseprobe-cc")
    out = os.path.join(work, "bin", app["app"])
    os.makedirs(out, exist_ok=True)
    instr, plain = os.path.join(out, "instr"), os.path.join(out, "plain")
    flags = ["-O2", "-fopenmp", src] + ([] if cxx else ["-lm"])
    if not (os.path.exists(instr) and os.path.getmtime(instr) >= os.path.getmtime(src)):
        run([wrapper] + flags + ["-o", instr], clean_env({}), work, "building %s (instrumented)" % app["app"], timeout)
    if not (os.path.exists(plain) and os.path.getmtime(plain) >= os.path.getmtime(src)):
        run([wrapper, "--phaseprobe-off"] + flags + ["-o", plain], clean_env({}), work,
            "building %s (plain)" % app["app"], timeout)
    return instr, plain


def app_argv(app, cfg):
    return expand_args(app["args"], cfg["threads"])


def db_nodes(build, db):
    if not os.path.exists(db):
        return set()
    _, out = run([tool(build, "phaseprobe-db"), "nodes", "--db", db], clean_env({}), None,
                 "listing the nodes of %s" % db, 120)
    # One label per line, possibly followed by a description: the first word.
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def interleave_args(configs, node_of):
    """--interleave NODE:THREADS:PLACES:BIND[:WAIT] for each configuration."""
    out = []
    for cfg in configs:
        spec = "%s:%d:%s:%s" % (node_of(cfg), cfg["threads"], cfg["env"].get("OMP_PLACES", "cores"),
                                cfg["env"].get("OMP_PROC_BIND", "close"))
        if cfg["env"].get("OMP_WAIT_POLICY"):
            spec += ":" + cfg["env"]["OMP_WAIT_POLICY"]
        out += ["--interleave", spec]
    return out


def ubench_runs(args, configs, node_of, extra):
    """The phaseprobe-ubench runs that measure `extra` (a grid flag, --params
    FILE, ...) on `configs`: one that measures them side by side (the
    default), or one per configuration (--no-interleave). Yields (what, how,
    key, cmd, env, count): what/how for the log, key for per-run file names
    ('' for the one interleaved run), count = configurations it covers."""
    ub = tool(args.build, "phaseprobe-ubench")
    if args.rounds > 1:
        extra = extra + ["--rounds", str(args.rounds)]
    if args.max_rounds:
        extra = extra + ["--max-rounds", str(args.max_rounds)]
    if args.interleave:
        yield (", ".join(node_of(c) for c in configs) + " side by side", "interleaved", "",
               [ub, "run", "--db", args.db] + interleave_args(configs, node_of) + extra,
               clean_env({}), len(configs))
        return
    for cfg in configs:
        # phaseprobe-ubench pins its uBs itself (close/cores by default): hand it
        # this configuration's placement, '' meaning "as the environment says".
        yield (node_of(cfg), env_text(cfg), cfg["label"],
               [ub, "run", "--node", node_of(cfg), "--db", args.db, "--threads", str(cfg["threads"]),
                "--bind", cfg["env"].get("OMP_PROC_BIND", ""), "--places", cfg["env"].get("OMP_PLACES", ""),
                "--wait-policy", cfg["env"].get("OMP_WAIT_POLICY", "")]
               + extra, clean_env(cfg["env"]), 1)


def reused_configs(args, configs, node_of):
    """The configurations whose nodes --db already has, which characterize
    reuses (none with --recharacterize); InputError unless this machine's
    design characterized them: a copied NPPDB of another CPU under the same
    labels would be estimated from silently."""
    if args.recharacterize:
        return []  # phaseprobe-ubench run checks the nodes it adds to
    have = db_nodes(args.build, args.db)
    reused = [cfg for cfg in configs if node_of(cfg) in have]
    if not reused:
        return []
    extra = ["--db", args.db]
    for cfg in reused:
        extra += ["--node", node_of(cfg)]
    ubench_node(args.build, extra, "--db")
    return reused


def characterize(args, configs, node_of, work, reused):
    """Runs the uBs on every configuration but the `reused` ones
    (reused_configs)."""
    for cfg in reused:
        log("characterize %s: already in %s, reused (--recharacterize to redo)" % (node_of(cfg), args.db))
    todo = [cfg for cfg in configs if cfg not in reused]
    if not todo:
        return
    extra = {"quick": ["--quick"], "full": ["--full"]}.get(args.grid, []) + shlex.split(args.ubench_args or "")
    throughput(args, "ubench", "before characterizing")
    for what, how, _, cmd, env, count in ubench_runs(args, todo, node_of, extra):
        log("characterize %s (%s grid, %s)" % (what, args.grid, how))
        wall, _ = run(cmd, env, work, "characterizing %s" % what, args.timeout * 10 * count)
        log("  done in %.1f s" % wall)
    throughput(args, "ubench", "after characterizing")


def env_text(cfg):
    return " ".join("%s=%s" % kv for kv in sorted(cfg["env"].items()))


# --------------------------------------------------------------------------
# One application workload
# --------------------------------------------------------------------------

def load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as ex:
        raise WorkError("%s: %s: %s" % (what, path, ex))


def estimate(args, base_cfg, cfg, phases_paths, node_of, raw, tag, variant="estimate", extra=()):
    """phaseprobe-estimate for one target configuration from one base phase
    file or a list of them (several base runs); returns (doc, note)."""
    out = os.path.join(raw, "%s.%s.%s.json" % (tag, variant, cfg["label"]))
    if isinstance(phases_paths, str):
        phases_paths = [phases_paths]
    cmd = [tool(args.build, "phaseprobe-estimate")] + list(phases_paths) + ["--db", args.db,
           "--base", node_of(base_cfg), "--nodes", node_of(cfg), "--json", out] + list(extra)
    if cfg["threads"] != base_cfg["threads"]:
        cmd += ["--threads", str(cfg["threads"])]
    try:
        _, text = run(cmd, clean_env({}), None, "estimating %s for %s" % (tag, cfg["label"]), args.timeout)
    except WorkError as ex:
        return None, str(ex)
    with open(os.path.join(raw, "%s.%s.%s.txt" % (tag, variant, cfg["label"])), "w") as f:
        f.write(text)
    return load_json(out, "estimate"), ""


def profile_cv(db, node, threads, ubench, streams):
    """Coefficient of variation (%) of a profile's tpi, read from the NPPDB
    (read-only). A chosen profile with a large CV explains a large error
    better than anything else; None when it cannot be read."""
    import sqlite3
    try:
        con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
        try:
            row = con.execute(
                "SELECT p.tpi_us, p.tpi_stddev FROM profiles p JOIN nodes n ON n.id = p.node_id "
                "WHERE n.label = ? AND p.threads = ? AND p.ubench = ? AND p.streams_text = ?",
                (node, threads, ubench, streams)).fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    if not row or not row[0] or row[1] is None:
        return None
    return row[1] / row[0] * 100.0


def node_time(est, node, key="time_s"):
    for n in est.get("nodes", []):
        if n.get("node") == node:
            return n.get(key)
    return None


def region_time(est, node, region_id):
    """The estimator's time on \p node of the top-level region \p region_id
    (nodes[].regions: its leaves, its time outside them, its barriers and
    page faults priced per node), None when it is no top-level region."""
    return next((r.get("time_s") for r in node_time(est, node, "regions") or []
                 if r.get("id") == region_id), None)


def phase_cell(est, alt, node, phase_id):
    """A phase's estimated time on \p node under the main rule (\p est) and
    the alternative (\p alt): (estimated_s, estimated_alt_s, region, its
    estimate record). A matched phase that is its own top-level region (a
    `parallel for`) is measured fork to join, so its estimate is its
    region's, which adds the barriers, page faults and fork/join the
    estimator prices per region, not the loop's alone (LULESH's faulting
    loops on the shared core: -81% as a loop, +0.5% as a region, run fn).
    A phase without an estimate (unmatched) has none either way: its
    region's time is then the base's, carried as uncovered."""
    def of(doc):
        ep = next((q for q in (doc or {}).get("phases", []) if q.get("id") == phase_id), {})
        return (ep.get("estimates") or {}).get(node, {})
    pe = of(est)
    e_s, a_s = pe.get("time_s"), of(alt).get("time_s")
    region_s = region_time(est or {}, node, phase_id) if e_s is not None else None
    whole = region_s is not None
    if whole:
        e_s = region_s
        if a_s is not None:
            a_s = region_time(alt, node, phase_id)
    return e_s, a_s, whole, pe


def timing_env(args):
    """What the base runs whose times the estimates use add to their
    environment (--base-timing)."""
    return {"PHASEPROBE_SAMPLING": "off"} if args.base_timing == "unsampled" else {}


def base_run(args, app, base_cfg, node_of, work, raw):
    """Builds the application and runs it once instrumented on the base
    configuration; returns the workload's state for finish_workload."""
    tag = report.raw_tag(app["app"], app["workload"])
    instr, plain = build_app(args.build, app, work, args.timeout)
    ok = ok_codes(args.ok_exit, app["app"])
    entry = {"app": app["app"], "workload": app["workload"], "args": app["args"],
             "path": app["path"], "rows": [], "phases": [], "unmatched": [], "warnings": []}
    base_phases = os.path.join(raw, "%s.base.phases.json" % tag)
    env = clean_env(dict(base_cfg["env"], PHASEPROBE_NODE=node_of(base_cfg), PHASEPROBE_OUT=base_phases))
    log("%s: instrumented run on %s" % (tag, base_cfg["label"]))
    wall, _ = run([instr] + app_argv(app, base_cfg), env, work, "%s instrumented on %s" % (tag, base_cfg["label"]),
                  args.timeout, ok=ok)
    if not os.path.exists(base_phases):
        raise WorkError("%s: the instrumented run wrote no phase file %s" % (tag, base_phases))
    ph = load_json(base_phases, "phase file")
    entry["instrumented_base_wall_s"] = wall
    entry["instrumented_base_total_s"] = ph.get("program", {}).get("total_time_s")
    # More base runs for --base-runs N: the estimator merges them into
    # per-phase medians (the first one alone is also what grows the grid).
    # With --base-alongside they are made later, between the measured
    # repetitions (finish_workload).
    base_files = [base_phases]
    for k in range(2, 1 if args.base_alongside else args.base_runs + 1):
        more = os.path.join(raw, "%s.base.%d.phases.json" % (tag, k))
        log("%s: instrumented run %d/%d on %s" % (tag, k, args.base_runs, base_cfg["label"]))
        run([instr] + app_argv(app, base_cfg), dict(env, PHASEPROBE_OUT=more, **timing_env(args)),
            work, "%s instrumented on %s (run %d)" % (tag, base_cfg["label"], k), args.timeout, ok=ok)
        if not os.path.exists(more):
            raise WorkError("%s: the instrumented run wrote no phase file %s" % (tag, more))
        base_files.append(more)
    entry["base_runs"] = len(base_files)
    entry["base_files"] = [os.path.basename(f) for f in base_files]
    state = {"app": app, "tag": tag, "instr": instr, "plain": plain, "ok": ok, "entry": entry,
             "base_phases": base_phases, "base_files": base_files, "ph": ph, "timing": {},
             "unsampled_phases": None, "env": env}
    if args.phase_times and not args.base_alongside:
        # The base's timing run (sampling off) gives both the base's measured
        # phase times and the times of the unsampled alternative estimate.
        # With --base-alongside it is taken in the measured rounds like the
        # other configurations' (finish_workload): run here, minutes before
        # the rounds, the two-thread timing runs of runs fh, fk and fl took
        # 1.4-1.9x NPB BT W's plain runs, the base runs in the rounds
        # 0.9-1.2x.
        timing = timing_runs(args, state, base_cfg, node_of, work, raw)
        if timing:
            state["timing"][base_cfg["label"]] = timing
            unsampled_alternative(state, timing, raw)
    return state


def unsampled_alternative(state, timing, raw):
    """The base phase file with the base configuration's timing-run times
    (sampling off): what the unsampled alternative estimate starts from."""
    merged = unsampled_phase_file(state["ph"], timing)
    state["unsampled_phases"] = os.path.join(raw, "%s.base-unsampled.phases.json" % state["tag"])
    textout.write_atomically(state["unsampled_phases"], json.dumps(merged, indent=1) + "\n")
    state["entry"]["instrumented_base_unsampled_total_s"] = merged["program"]["total_time_s"]


def timing_run(args, state, cfg, node_of, work, out):
    """The instrumented program with PHASEPROBE_SAMPLING=off on one
    configuration, writing \p out: its phase times are the measured phase
    times. Returns the phase document, or None (and a warning) on failure."""
    tag, app = state["tag"], state["app"]
    env = clean_env(dict(cfg["env"], PHASEPROBE_NODE=node_of(cfg), PHASEPROBE_OUT=out,
                         PHASEPROBE_SAMPLING="off"))
    try:
        run([state["instr"]] + app_argv(app, cfg), env, work, "%s timing run on %s" % (tag, cfg["label"]),
            args.timeout, ok=state["ok"])
        return load_json(out, "phase file")
    except WorkError as ex:
        state["entry"]["warnings"].append(str(ex))
        return None


def timing_path(args, state, cfg, k, raw):
    """Where timing run k (1-based) of cfg goes: raw/TAG.CONFIG.timing.aK
    with several runs, raw/TAG.CONFIG.timing with one."""
    return os.path.join(raw, "%s.%s.timing%s.phases.json" % (
        state["tag"], cfg["label"], "" if args.timing_runs == 1 else ".a%d" % k))


def merged_timing(args, state, cfg, runs, raw):
    """One configuration's timing runs as one document: one run as it is;
    several merged into raw/TAG.CONFIG.timing.phases.json, each phase's time
    and the program's total the median over the runs that have it (one
    run's time on this machine can be 20% off, the base runs' spread: too
    much to say where an estimate's error sits). None without runs."""
    if not runs:
        return None
    if args.timing_runs == 1:
        return runs[0]
    merged = median_times(runs)
    textout.write_atomically(os.path.join(raw, "%s.%s.timing.phases.json" % (state["tag"], cfg["label"])),
                             json.dumps(merged, indent=1) + "\n")
    return merged


def timing_runs(args, state, cfg, node_of, work, raw):
    """--timing-runs instrumented runs (sampling off) on cfg, one after the
    other; the (merged) document (merged_timing), None without runs. The
    other configurations' timing runs go into the measured rounds
    (measure_round)."""
    docs = []
    for k in range(1, args.timing_runs + 1):
        doc = timing_run(args, state, cfg, node_of, work, timing_path(args, state, cfg, k, raw))
        if doc:
            docs.append(doc)
    return merged_timing(args, state, cfg, docs, raw)


def with_times(doc, times, total):
    """A copy of phase document \p doc with the phases of \p times (id ->
    seconds) at those times, their tpi_us and weight following, and the
    program's total_time_s \p total where given."""
    out = json.loads(json.dumps(doc))
    if total:
        out["program"]["total_time_s"] = total
    for p in out.get("phases", []):
        t = times.get(p.get("id"))
        if t is None:
            continue
        p["time_s"] = t
        if p.get("iterations"):
            p["tpi_us"] = t / p["iterations"] * 1e6
        if total:
            p["weight"] = t / total
    return out


def median_times(runs):
    """The first phase document with every phase's time_s (tpi_us, weight)
    and the program's total_time_s the median over \p runs."""
    totals = [r.get("program", {}).get("total_time_s") for r in runs]
    totals = [t for t in totals if t is not None]
    times = {}
    for r in runs:
        for p in r.get("phases", []):
            if p.get("time_s") is not None:
                times.setdefault(p.get("id"), []).append(p["time_s"])
    doc = with_times(runs[0], {i: statistics.median(t) for i, t in times.items()},
                     statistics.median(totals) if totals else None)
    doc["timing_runs"] = len(runs)
    return doc


def unsampled_phase_file(sampled, timing):
    """The base phase file with the streams of the sampled run and the times
    of the unsampled one (time, tpi, weight per phase; program total time).
    Stream sampling slows the phases it samples, by a different factor per
    phase; METHOD.md's "instrumentation noise" item asks to correct for it
    rather than ignore it, and this is the simplest correction: the estimate
    from this file is shown beside the plain one."""
    return with_times(sampled, {p.get("id"): p["time_s"] for p in timing.get("phases", [])
                                if p.get("time_s")},
                      timing.get("program", {}).get("total_time_s"))


def clone(args, files, out, work, base_cfg=None):
    """`phaseprobe-ubench clone` of \p files into \p out; with \p base_cfg,
    --calibrate there (its placement and wait policy). Returns (params lines, notes)."""
    cmd = [tool(args.build, "phaseprobe-ubench"), "clone", "--out", out] + files
    if base_cfg:
        cmd += ["--calibrate", "--bind", base_cfg["env"].get("OMP_PROC_BIND", ""),
                "--places", base_cfg["env"].get("OMP_PLACES", ""),
                "--wait-policy", base_cfg["env"].get("OMP_WAIT_POLICY", "")]
    p = subprocess.run(cmd, cwd=work, env=clean_env({}), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=args.timeout * 10)
    if p.returncode != 0:
        raise WorkError("phaseprobe-ubench clone: exit %d: %s" % (
            p.returncode, (p.stderr.strip().splitlines() or ["no message"])[-1]))
    with open(out) as f:
        lines = [l for l in f.read().splitlines() if l.strip() and not l.startswith("#")]
    return lines, p.stderr


def run_params(args, configs, node_of, path, raw, work, logstem):
    """Measures the configurations of a --params file on every node."""
    extra = ["--params", path] + (["--quick"] if args.grid == "quick" else [])
    throughput(args, "ubench", "before %s" % logstem)
    for what, _, key, cmd, env, count in ubench_runs(args, configs, node_of, extra):
        # Exit 1 = some configurations were rejected by the kernels (e.g. a
        # stride the kernel cannot walk at this thread count); the others are
        # stored, which is all growing needs. Say how many, keep going.
        p = subprocess.run(cmd, env=env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=args.timeout * 10 * count)
        rejected = [l for l in p.stderr.splitlines() if "rejected by the kernel" in l]
        if p.returncode not in (0, 1):
            raise WorkError("growing the grid on %s: exit %d: %s" % (
                what, p.returncode, (p.stderr.strip().splitlines() or ["no message"])[-1]))
        logname = "%s.%s.log" % (logstem, key) if key else "%s.log" % logstem
        with open(os.path.join(raw, logname), "w") as f:
            f.write(p.stdout + p.stderr)
        for line in (p.stdout.strip().splitlines() or ["%s: nothing stored" % what])[:count]:
            log("  %s" % line)
        if rejected:
            log("  %d rejected (raw/%s)" % (len(rejected), logname))
    throughput(args, "ubench", "after %s" % logstem)


def grow(args, configs, node_of, states, raw, work):
    """Runs the phase clones of the base runs (`phaseprobe-ubench clone`:
    uB configurations with exactly the significant streams of every leaf
    phase; METHOD.md: "when an application shows a behaviour that no uB
    covers, a new uB is added and run on every node") on every node."""
    path = os.path.join(raw, "grown.params")
    files = [st["base_phases"] for st in states]
    if not files:
        return 0
    lines, notes = clone(args, files, path, work)
    # Streams and phases no uB reproduces: one line each, kept with the run.
    with open(os.path.join(raw, "grown.notes"), "w") as f:
        f.write(notes)
    n = len(notes.splitlines())
    log("grow: %d uB configurations from the phases (%s)%s" % (
        len(lines), path, "; %d streams/phases not cloned (raw/grown.notes)" % n if n else ""))
    if lines:
        run_params(args, configs, node_of, path, raw, work, "grown")
    return len(lines)


def pad(args, state, configs, base_cfg, node_of, raw, work):
    """Each phase's own clone padded with arithmetic until it takes the
    phase's time per iteration (`clone --calibrate`, on the base
    configuration, against the median of the base files the estimates use),
    then measured on every node. Returns the number of padded clones."""
    tag = state["tag"]
    path = os.path.join(raw, "%s.padded.params" % tag)
    lines, notes = clone(args, state["base_files"], path, work, base_cfg)
    padded = [l for l in lines if "+w" in l.split()[0]]
    textout.write_atomically(path, "# phase clones of %s padded on %s (raw/%s.padded.notes)\n%s" % (
        tag, base_cfg["label"], tag, "".join(l + "\n" for l in padded)))
    with open(os.path.join(raw, "%s.padded.notes" % tag), "w") as f:
        f.write(notes)
    log("%s: %d phase clones padded to their phase's time per iteration, %d not (raw/%s.padded.notes)" % (
        tag, len(padded), sum(" not padded: " in l for l in notes.splitlines()), tag))
    if padded:
        run_params(args, configs, node_of, path, raw, work, "%s.padded" % tag)
    return len(padded)


def measure_rounds(args, states, configs, base_cfg, node_of, work, raw):
    """Measured program times: plain, interleaved repetitions, round by round
    over every workload (round 1 of each, then round 2 of each, ...), and in
    the same rounds the timing runs (measured phase times) of the
    configurations the base run did not time (every one with
    --base-alongside). With
    --base-alongside the base's instrumented runs take turns with them, so
    that the base time the estimates start from and the times they are
    compared with see the same machine (this VM's speed drifts by tens of
    percent over minutes; a real node's does not). Rounds of one workload
    are a whole pass over the others apart, so that a slow spell of the VM
    (15 s in run di) falls in one round of several workloads, which their
    medians shed, rather than in most rounds of one. A workload whose run
    fails gets state["failed"] and no further rounds."""
    rounds = max(args.reps, args.base_runs) if args.base_alongside else args.reps
    # Spread over the rounds: first, last and evenly between (one: the middle).
    base_rounds = set()
    if args.base_alongside:
        n = args.base_runs
        base_rounds = {rounds // 2} if n == 1 else {round(k * (rounds - 1) / (n - 1)) for k in range(n)}
    if args.phase_times:
        rounds = max(rounds, args.timing_runs)
    for state in states:
        state["reps"] = {cfg["label"]: [] for cfg in configs}
        state["rep_probes"] = {cfg["label"]: [] for cfg in configs}
        state["alongside"] = []
        state["alongside_probes"] = []
        state["timing_docs"] = {cfg["label"]: [] for cfg in configs if cfg["label"] not in state["timing"]}
    for i in range(rounds):
        throughput(args, "measured", "round %d" % (i + 1))
        for state in states:
            if state.get("failed"):
                continue
            try:
                measure_round(args, state, i, i in base_rounds, configs, base_cfg, node_of, work, raw)
            except WorkError as ex:
                state["failed"] = str(ex)  # finish_workload reports it


def measure_round(args, state, i, with_base, configs, base_cfg, node_of, work, raw):
    app, tag, instr, plain, ok = state["app"], state["tag"], state["instr"], state["plain"], state["ok"]
    reps, alongside = state["reps"], state["alongside"]
    if with_base:
        k = len(alongside) + 1
        more = os.path.join(raw, "%s.base.a%d.phases.json" % (tag, k))
        log("%s: instrumented run alongside %d/%d on %s" % (tag, k, args.base_runs, base_cfg["label"]))
        _, probes = probed(args, lambda: run(
            [instr] + app_argv(app, base_cfg), dict(state["env"], PHASEPROBE_OUT=more, **timing_env(args)),
            work, "%s instrumented on %s (alongside %d)" % (tag, base_cfg["label"], k), args.timeout, ok=ok))
        if not os.path.exists(more):
            raise WorkError("%s: the instrumented run wrote no phase file %s" % (tag, more))
        alongside.append(more)
        state["alongside_probes"].append(probes)
    if i < args.reps:
        for cfg in configs:
            (wall, _), probes = probed(args, lambda: run(
                [plain] + app_argv(app, cfg), clean_env(cfg["env"]), work,
                "%s plain on %s" % (tag, cfg["label"]), args.timeout, ok=ok))
            reps[cfg["label"]].append(wall)
            state["rep_probes"][cfg["label"]].append(probes)
        log("%s: plain repetition %d/%d: %s" % (tag, i + 1, args.reps, ", ".join(
            "%s %.3fs" % (c["label"], reps[c["label"]][-1]) for c in configs)))
    # The measured phase times (5a) of the configurations the base run did
    # not time, in the same rounds.
    if args.phase_times and i < args.timing_runs:
        for cfg in configs:
            if cfg["label"] in state["timing_docs"]:
                doc = timing_run(args, state, cfg, node_of, work, timing_path(args, state, cfg, i + 1, raw))
                if doc:
                    state["timing_docs"][cfg["label"]].append(doc)


def probed(args, fn):
    """fn's result and, with --handoff-probe, the probes (before, after) of
    the node's shape around it (else None)."""
    if not getattr(args, "probe", None):  # cross.py's rounds have none
        return fn(), None
    try:
        return args.probe.around(fn)
    except handoff_probe.ProbeError as ex:
        raise WorkError(str(ex)) from None


def add_throughput_options(ap):
    """--throughput-probe / --no-throughput-probe (run.py and cross.py)."""
    ap.add_argument("--throughput-probe", dest="throughput_probe", action="store_const", const=True,
                    default=None,
                    help="probe every configuration's arithmetic per thread (throughput_probe.py) before and "
                         "after every uB run and in every measured round, and say where its ratio to the "
                         "base configuration changed between the uBs, the NPPDB and the measured runs: the "
                         "node changed under the run (default: on where clang-14 is; this flag makes it an "
                         "error where not)")
    ap.add_argument("--no-throughput-probe", dest="throughput_probe", action="store_const", const=False,
                    help="no throughput probes")


def resolve_throughput_option(args):
    """--throughput-probe's default, or bad input where it cannot be had
    (before anything is written)."""
    if args.throughput_probe is None:
        # A quarter second per configuration and probe: on by default wherever it can be.
        args.throughput_probe = shutil.which(throughput_probe.CC) is not None
    if args.throughput_probe and not shutil.which(throughput_probe.CC):
        raise InputError("--throughput-probe: %s not found (it builds the probe)" % throughput_probe.CC)


def start_throughput(args, configs, work):
    """Sets up what throughput() reads: the probe (None without
    --throughput-probe), the configurations it probes, its records."""
    args.tprobe, args.tprobe_configs, args.tprobe_records = None, configs, []
    if args.throughput_probe:
        try:
            args.tprobe = throughput_probe.ThroughputProbe(work)
        except throughput_probe.ProbeError as ex:
            raise InputError("--throughput-probe: %s" % ex) from None


def throughput_context(args, configs, node_of, base, failures):
    """data.json's context["throughput_probe"]: the probes' records, the
    NPPDB's csqrt ratios, all over configuration \p base's."""
    try:
        in_db = throughput_probe.nppdb_ratios(args.db, {c["label"]: node_of(c) for c in configs}, base)
    except throughput_probe.ProbeError as ex:
        failures.append("throughput probe: %s" % ex)
        in_db = {}
    return {"iterations": args.tprobe.iterations, "bursts": args.tprobe.bursts, "base": base,
            "probes": args.tprobe_records, "nppdb": in_db, "limit_pct": throughput_probe.LIMIT_PCT,
            "rule": "each configuration's ns per iteration over %s's in the same probe; changed: its "
                    "medians while the uBs ran, in the NPPDB's csqrt profiles and while the programs ran "
                    "more than %g%% apart" % (base, throughput_probe.LIMIT_PCT)}


def throughput(args, when, what):
    """With --throughput-probe: one probe of every configuration, back to
    back, kept with \p when ("ubench": the uBs are being measured around
    it; "measured": the programs are) and \p what for the record."""
    if not getattr(args, "tprobe", None):
        return
    try:
        ns = {cfg["label"]: args.tprobe.ns(clean_env(cfg["env"])) for cfg in args.tprobe_configs}
    except throughput_probe.ProbeError as ex:
        raise WorkError(str(ex)) from None
    args.tprobe_records.append({"when": when, "what": what, "utc": time.strftime("%H:%M:%S", time.gmtime()),
                                "ns": ns})
    log("throughput probe %s: %s" % (what, ", ".join("%s %.2f ns" % kv for kv in ns.items())))


def probe_limit(states):
    """--handoff-probe's line between near and far over the whole run's
    probes (handoff_probe.near_limit; None without probes)."""
    return handoff_probe.near_limit(p for st in states for ps in list(st.get("rep_probes", {}).values())
                                    + [st.get("alongside_probes", [])] for p in ps)


def near_only(args, state, configs, base_cfg, node_of, raw):
    """With --handoff-probe: per configuration the repetitions both of whose
    probes read the near shape, and estimates from the base runs that did
    (the same estimates where every base run did; None where none did)."""
    near = lambda p: handoff_probe.is_near(p, args.probe_limit)
    reps = {label: [r for r, p in zip(state["reps"][label], state["rep_probes"][label]) if near(p)]
            for label in state["reps"]}
    kept = [f for f, p in zip(state["alongside"], state["alongside_probes"]) if near(p)]
    out = {"reps": reps, "probes": state["rep_probes"], "base_runs": len(kept),
           "base_probes": state["alongside_probes"], "ests": None, "alts": None}
    if not kept:
        return out
    if len(kept) == len(state["alongside"]):
        out["ests"], out["alts"] = state["ests"], state["alts"]
        return out
    files = ([state["base_phases"]] if args.base_timing == "unsampled" else []) + kept
    tag = state["tag"]
    out["ests"] = {cfg["label"]: estimate(args, base_cfg, cfg, files, node_of, raw, tag, "estimate-near")[0]
                   for cfg in configs}
    label, extra = args.alt
    if label != "unsampled":
        out["alts"] = {cfg["label"]: estimate(args, base_cfg, cfg, files, node_of, raw, tag,
                                              "estimate-%s-near" % label, extra)[0] for cfg in configs}
    return out


def finish_workload(args, state, configs, base_cfg, node_of, work, raw):
    """Everything after the measured rounds (measure_rounds): the base
    files, padded clones, estimates, timing runs and the table's rows."""
    if state.get("failed"):
        raise WorkError(state["failed"])
    tag, entry, ph = state["tag"], state["entry"], state["ph"]
    base_phases = state["base_phases"]
    reps, alongside = state["reps"], state["alongside"]
    if alongside:
        # Unsampled runs have no streams: the first, sampled one gives them.
        files = ([base_phases] if args.base_timing == "unsampled" else []) + alongside
        state["base_files"] = files
        entry["base_files"] = [os.path.basename(f) for f in files]
        entry["base_runs"] = len(alongside)
    base_docs = state["timing_docs"].get(base_cfg["label"]) if args.phase_times else None
    if base_docs:
        # The base configuration's timing runs, taken in the rounds.
        state["timing"][base_cfg["label"]] = merged_timing(args, state, base_cfg, base_docs, raw)
        unsampled_alternative(state, state["timing"][base_cfg["label"]], raw)
    if args.grow_grid and args.pad_clones:
        entry["padded_clones"] = pad(args, state, configs, base_cfg, node_of, raw, work)

    # 4. Estimates.
    ests = {}
    for cfg in configs:
        est, note = estimate(args, base_cfg, cfg, state["base_files"], node_of, raw, tag)
        ests[cfg["label"]] = est
        if note:
            entry["warnings"].append(note)
    alts = {}
    label, extra = args.alt
    if label != "unsampled":
        # Another estimator setting on the same base phase file, side by side.
        for cfg in configs:
            alts[cfg["label"]], _ = estimate(args, base_cfg, cfg, state["base_files"], node_of, raw,
                                             tag, "estimate-" + label, extra)
    elif state["unsampled_phases"]:
        for cfg in configs:
            alts[cfg["label"]], _ = estimate(args, base_cfg, cfg, state["unsampled_phases"], node_of, raw, tag,
                                             "estimate-unsampled")
    # 5a. Measured phase times: instrumented, sampling off, taken in the
    # measured rounds (without --base-alongside the base configuration's
    # with the base run).
    measured_phases = {}
    if args.phase_times:
        docs = dict(state["timing"])
        for cfg in configs:
            if cfg["label"] in state["timing_docs"] and cfg["label"] not in docs:
                docs[cfg["label"]] = merged_timing(args, state, cfg, state["timing_docs"][cfg["label"]], raw)
        for cfg in configs:
            if docs.get(cfg["label"]):
                measured_phases[cfg["label"]] = {p["id"]: p for p in docs[cfg["label"]].get("phases", [])}

    near = None
    if getattr(args, "probe", None):
        state["ests"], state["alts"] = ests, alts
        near = near_only(args, state, configs, base_cfg, node_of, raw)
    tabulate(args, entry, ph, configs, ests, alts, reps, measured_phases, node_of, near)
    return entry


def tabulate(args, entry, ph, configs, ests, alts, reps, measured_phases, node_of, near=None):
    """The table's rows of one workload into \p entry: per configuration its
    estimate (\p ests, \p alts: estimate documents by label), its measured
    repetitions (\p reps) and notes; per phase its estimate and measured
    time (\p measured_phases: label -> id -> timing-run phase) on each
    configuration. \p ph is the base phase document (kinds, weights);
    \p near, with --handoff-probe, what near_only() kept.
    Shared with cross.py, whose configurations come from two machines."""
    if near:
        entry["base_runs_near"] = near["base_runs"]
        entry["base_handoff_probes_ns"] = near["base_probes"]
    # What every estimate of the workload says alike, from the first there is.
    any_est = next((e for e in ests.values() if e), None)
    if any_est:
        entry["coverage"] = any_est.get("coverage")
        if any_est.get("base_runs"):
            # The base runs' spread and the leaves it sits in (phaseprobe-estimate).
            entry["base_runs_spread"] = {k: any_est["base_runs"].get(k) for k in ("spread_pct", "phases")}
        entry["unmatched"] = [p["id"] for p in any_est.get("phases", []) if not p.get("matched")]
    for cfg in configs:
        est = ests[cfg["label"]]
        node = node_of(cfg)
        row = {"config": cfg["label"], "node": node, "threads": cfg["threads"],
               "estimated_s": node_time(est, node) if est else None,
               "estimated_alt_s": node_time(alts[cfg["label"]], node) if alts.get(cfg["label"]) else None,
               "measured_s": statistics.median(reps[cfg["label"]]),
               "measured_reps": reps[cfg["label"]], "note": ""}
        if cfg.get("stored"):
            row["stored"] = True  # another machine's, measured in a stored run (cross.py)
        if near:
            kept = near["reps"][cfg["label"]]
            row["handoff_probes_ns"] = near["probes"][cfg["label"]]
            row["measured_near_reps"] = kept
            row["measured_near_s"] = statistics.median(kept) if kept else None
            for key, docs in (("estimated_near_s", near["ests"]), ("estimated_alt_near_s", near["alts"])):
                doc = (docs or {}).get(cfg["label"])
                row[key] = node_time(doc, node) if doc else None
        # Each base run's own estimate (several base runs): the range the
        # base runs' noise leaves around the merged estimate.
        for key, doc in (("estimated_runs_s", est), ("estimated_alt_runs_s", alts.get(cfg["label"]))):
            runs = node_time(doc, node, "time_s_runs") if doc else None
            if runs:
                row[key] = runs
        nrec = next((n for n in (est or {}).get("nodes", []) if n.get("node") == node), {})
        row["uncovered_s"] = nrec.get("uncovered_s")
        if nrec.get("missing") or nrec.get("fallbacks"):
            row["note"] = "%s phase(s) without profile, %s fallback(s)" % (nrec.get("missing", 0),
                                                                          nrec.get("fallbacks", 0))
        branches = (est or {}).get("thread_branches") or {}
        if branches.get("warning"):
            # The plugin found code that branches on the thread count and this
            # estimate changes it: the row measures (a test of the count goes
            # the other way) or may measure code the base never ran.
            row["thread_branches"] = True
            other = cfg["threads"] in (branches.get("other_code_threads") or [])
            row["note"] = "; ".join(x for x in (row["note"], "other code at this thread count" if other
                                                else "branches on thread count") if x)
        if nrec.get("warning"):
            # phaseprobe-estimate's node warning: padded arithmetic carried
            # onto another CPU design (cross.py's rows).
            row["padding_warned"] = True
            row["note"] = "; ".join(x for x in (row["note"], "padded arithmetic %.0f%%, another CPU"
                                                % (100 * (nrec.get("padded_share") or 0))) if x)
        if nrec.get("serial_warning"):
            # ... and serial code kept at the base's time on another design.
            row["serial_warned"] = True
            row["note"] = "; ".join(x for x in (row["note"], "serial code %.0f%% kept, another CPU"
                                                % (100 * (nrec.get("serial_kept_share") or 0))) if x)
        if est and row["estimated_s"] is None:
            row["note"] = "estimator gave no program time for %s" % node
        elif not est:
            row["note"] = "no estimate (see warnings)"
        entry["rows"].append(row)

    # Per-phase: estimated (from the estimate JSON) vs measured (timing runs).
    if any_est:
        base_by_id = {p["id"]: p for p in ph.get("phases", [])}
        for p in any_est.get("phases", []):
            bp = base_by_id.get(p["id"], {})
            cand = p.get("candidate") or {}
            per = {}
            for cfg in configs:
                est = ests[cfg["label"]] or {}
                e_s, a_s, whole, pe = phase_cell(est, alts.get(cfg["label"]), node_of(cfg), p["id"])
                m_s = measured_phases.get(cfg["label"], {}).get(p["id"], {}).get("time_s")
                if e_s is not None or m_s is not None:
                    per[cfg["label"]] = {"estimated_s": e_s, "estimated_alt_s": a_s, "measured_s": m_s}
                    if whole:
                        per[cfg["label"]]["region"] = True
                    prof = pe.get("profile") or cand  # a fallback names its own profile
                    if e_s is not None and prof.get("ubench"):
                        per[cfg["label"]]["profile_cv_pct"] = profile_cv(
                            args.db, node_of(cfg), pe.get("threads") or cfg["threads"],
                            prof["ubench"], prof.get("streams"))
            entry["phases"].append({"id": p["id"], "kind": bp.get("kind", ""), "weight": bp.get("weight"),
                                    "matched": bool(p.get("matched")), "ubench": cand.get("ubench"),
                                    "streams": cand.get("streams"), "similarity": cand.get("similarity"),
                                    "per_config": per})


# --------------------------------------------------------------------------
# Provenance
# --------------------------------------------------------------------------

def machine():
    return {"cpu": provenance.cpu_model(), "cores": os.cpu_count(), "host": socket.gethostname(),
            "kernel": platform.release(), "python": platform.python_version()}


def git_commit(src):
    # A copy of the tree without its .git (a bundle run on another machine,
    # bench/accuracy/bundle.sh) names the commit it was made from.
    if os.environ.get("PHASEPROBE_COMMIT") and not os.path.exists(os.path.join(src, ".git")):
        return os.environ["PHASEPROBE_COMMIT"], False
    try:
        c = subprocess.run(["git", "-C", src, "rev-parse", "--short=12", "HEAD"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True).stdout.strip()
        d = subprocess.run(["git", "-C", src, "status", "--porcelain", "--untracked-files=no"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True).stdout
        return c or "unknown", bool(d.strip())
    except OSError:
        return "unknown", False


def screenshot(html_path, png_path, n_apps):
    """Renders the report in headless Chromium (Debian package 'chromium')."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        return "chromium not installed (bench/accuracy/install-deps.sh)"
    with tempfile.TemporaryDirectory() as prof:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--hide-scrollbars", "--user-data-dir=" + prof,
               "--window-size=1200,%d" % (700 + 620 * n_apps),  # the whole page
               "--screenshot=" + png_path, "file://" + os.path.abspath(html_path)]
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=120)
    if p.returncode != 0 or not os.path.exists(png_path):
        return "chromium failed (exit %d)" % p.returncode
    return ""


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Validate phaseprobe: estimate every node configuration of this machine from one "
                    "instrumented run, measure them, and tabulate the error.",
        epilog="Example: run.py --build build --grid quick --reps 3 --size mm=300,500 "
               "--app bt-npb=/tmp/apps/bt.S --config 1t:1:{0}:close --config 2t:2:cores:spread")
    ap.add_argument("--build", default=os.path.join(SRC_ROOT, "build"),
                    help="phaseprobe build directory (bin/, lib/) (default: %(default)s)")
    ap.add_argument("--config", action="append", default=[], metavar="LABEL:THREADS[:PLACES[:BIND[:WAIT]]]",
                    help="a node configuration (repeatable); default, N the CPUs: 1t:1:{0}:close, "
                         "Nt:N:PLACES:spread with one place per core (phaseprobe-ubench node's core places), "
                         "Nt-1core:N:{0}:close")
    ap.add_argument("--base", help="label of the base configuration (default: the first with the most threads)")
    ap.add_argument("--node-prefix", default=socket.gethostname().split(".")[0],
                    help="node labels are PREFIX-CONFIG (default: %(default)s)")
    ap.add_argument("--db", help="NPPDB to fill/reuse (default: OUT/nppdb.sqlite)")
    ap.add_argument("--recharacterize", action="store_true",
                    help="run the uBs again even for nodes already in --db")
    ap.add_argument("--grid", choices=["quick", "default", "full"], default="quick",
                    help="uB grid of phaseprobe-ubench (default: %(default)s)")
    ap.add_argument("--ubench-args", default="", help="extra arguments for phaseprobe-ubench run (one string)")
    ap.add_argument("--grow-grid", action="store_true",
                    help="also characterize, on every configuration, uBs with exactly the significant "
                         "streams of the applications' phases (phaseprobe-ubench --params; see README)")
    ap.add_argument("--no-pad-clones", dest="pad_clones", action="store_false",
                    help="with --grow-grid: grow only the phases' clones (default: also, per workload "
                         "once its base runs are made, each phase's own clone padded with arithmetic "
                         "to the phase's time per iteration on the base configuration, "
                         "phaseprobe-ubench clone --calibrate)")
    ap.add_argument("--reps", type=int, default=3, help="plain runs per configuration, median (default 3)")
    ap.add_argument("--no-interleave", dest="interleave", action="store_false",
                    help="characterize the configurations one after the other (default: side by side, "
                         "phaseprobe-ubench run --interleave, so that a drift of the machine's speed "
                         "moves all of them alike)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="phaseprobe-ubench run --rounds: measure every uB configuration this many "
                         "times, a pass over the grid apart, and keep the median round (default 1)")
    ap.add_argument("--max-rounds", type=int, default=0,
                    help="phaseprobe-ubench run --max-rounds: more rounds, up to this many, for a uB "
                         "configuration whose rounds disagree (default: --rounds, no more)")
    ap.add_argument("--base-runs", type=int, default=1,
                    help="instrumented runs on the base configuration, merged by the estimator into "
                         "per-phase medians (default 1: the product's one run)")
    ap.add_argument("--base-timing", choices=["sampled", "unsampled"], default="sampled",
                    help="the --base-runs the estimates use: sampled (default, the product's own "
                         "runs), or unsampled (PHASEPROBE_SAMPLING=off), the first, sampled run "
                         "then giving the streams only (the estimator's merge rule)")
    ap.add_argument("--no-base-alongside", dest="base_alongside", action="store_false",
                    help="make all --base-runs right after the first one (default: the first base run "
                         "grows the grid; the --base-runs the estimates use take turns with the "
                         "measured repetitions)")
    ap.add_argument("--examples", default="mm,nbody,bt",
                    help="bundled examples to run (comma list, or 'none') (default: %(default)s)")
    ap.add_argument("--size", action="append", default=[], metavar="NAME=S1,S2",
                    help="workload sizes of a bundled example (default: %s)" % ", ".join(
                        "%s=%s" % (k, ",".join(v)) for k, v in EXAMPLES.items()))
    ap.add_argument("--app", action="append", default=[], metavar="NAME=PATH[:ARGS]",
                    help="another OpenMP application: a C/C++ source or a folder with 'instr' and 'plain' "
                         "executables; ARGS may use {threads}; repeat NAME for more workloads")
    ap.add_argument("--apps-file", action="append", default=[], metavar="FILE",
                    help="a file of --app specs, one a line ('#' comments, '--ok-exit NAME=CODES' lines), "
                         "as prepare_apps.sh writes")
    ap.add_argument("--ok-exit", action="append", default=[], metavar="NAME=CODES",
                    help="exit codes besides 0 that mean success for application NAME (comma list; "
                         "e.g. xsbench=1: XSBench exits 1 when a non-default lookup count changes its checksum)")
    ap.add_argument("--no-phase-times", dest="phase_times", action="store_false",
                    help="skip the per-configuration instrumented timing runs (no per-phase comparison)")
    ap.add_argument("--timing-runs", type=int, default=1, metavar="N",
                    help="instrumented timing runs per configuration, round-robin; several give each phase "
                         "the median of its times (default 1)")
    ap.add_argument("--out", help="results folder (default: bench/results/accuracy-<date>)")
    ap.add_argument("--work", help="scratch folder for binaries and program output (default: $TMPDIR/phaseprobe-accuracy-work)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds allowed per program run (default 600)")
    ap.add_argument("--tie-pct", type=float, default=2.0,
                    help="measured times closer than this (or than their spread) are a tie for ranking (%%)")
    ap.add_argument("--top-phases", type=int, default=5, help="phases per workload in the text table")
    ap.add_argument("--alt", type=parse_alt, default=("unsampled", []), metavar="LABEL[=ARGS]",
                    help="the second estimate column: 'unsampled' (default: the base phase file with "
                         "the times of an unsampled instrumented run), or LABEL=ARGS, the sampled base "
                         "phase file estimated with these extra phaseprobe-estimate arguments, e.g. "
                         "'ratio=--projection ratio --relax-unmatched'")
    ap.add_argument("--load-note", default="",
                    help="free text on the machine's state, printed in the header (e.g. 'shared, loaded')")
    ap.add_argument("--handoff-probe", dest="handoff_probe", action="store_const", const=True, default=None,
                    help="probe a cache line's round trip between the first two CPUs around every plain "
                         "repetition and base run (handoff_probe.py), and add errors over the near-shape "
                         "ones alone: a VM whose host moves its vCPUs apart is another node meanwhile "
                         "(default: on where there are two CPUs and clang-14; this flag makes it an error "
                         "where not)")
    ap.add_argument("--no-handoff-probe", dest="handoff_probe", action="store_const", const=False,
                    help="no probes")
    add_throughput_options(ap)
    ap.add_argument("--screenshot", action="store_true",
                    help="render report.html in headless Chromium into report.png")
    a = ap.parse_args(argv)
    a.build = os.path.abspath(a.build)
    if a.reps < 1:
        raise InputError("--reps must be at least 1")
    if a.base_runs < 1:
        raise InputError("--base-runs must be at least 1")
    if a.timing_runs < 1:
        raise InputError("--timing-runs must be at least 1")
    if not 1 <= a.rounds <= 100:
        raise InputError("--rounds must be from 1 to 100")
    if a.max_rounds and not (a.rounds >= 2 and a.rounds <= a.max_rounds <= 100):
        raise InputError("--max-rounds must be from --rounds (2 or more) to 100")
    a.ok_exit = parse_ok_exit(a.ok_exit)
    return a


def parse_alt(text):
    label, sep, rest = text.partition("=")
    if not label or not label.replace("-", "").replace("_", "").isalnum():
        raise argparse.ArgumentTypeError("expected LABEL or LABEL=ARGS, found %r" % text)
    if label == "unsampled" and sep:
        raise argparse.ArgumentTypeError("'unsampled' takes no estimator arguments")
    if label != "unsampled" and not sep:
        raise argparse.ArgumentTypeError("%r: give the estimator arguments as %s=ARGS" % (text, label))
    return label, shlex.split(rest)


def chosen_base(configs, base):
    """The base configuration: the one labelled \p base, else the first with
    the most threads; InputError on duplicate labels or an unknown base."""
    labels = [c["label"] for c in configs]
    if len(set(labels)) != len(labels):
        raise InputError("--config: duplicate label in %s" % ", ".join(labels))
    if not base:
        return max(configs, key=lambda c: c["threads"])
    cfg = next((c for c in configs if c["label"] == base), None)
    if not cfg:
        raise InputError("--base %s: not one of the configurations (%s)" % (base, ", ".join(labels)))
    return cfg


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    configs = [parse_config(s) for s in args.config]
    if configs:
        chosen_base(configs, args.base)  # bad input first
    apps = []
    sizes = {k: list(v) for k, v in EXAMPLES.items()}
    for s in args.size:
        name, _, vals = s.partition("=")
        if name not in EXAMPLES or not vals:
            raise InputError("--size %r: expected NAME=S1,S2 with NAME one of %s" % (s, ", ".join(EXAMPLES)))
        sizes[name] = [v.strip() for v in vals.split(",") if v.strip()]
    if args.examples != "none":
        for name in [e for e in args.examples.split(",") if e]:
            if name not in EXAMPLES:
                raise InputError("--examples: unknown example %r (have %s)" % (name, ", ".join(EXAMPLES)))
            instr = os.path.join(args.build, "examples", name)
            plain = instr + ".plain"
            for exe in (instr, plain):
                if not os.access(exe, os.X_OK):
                    raise InputError("%s: bundled example not built (cmake --build %s --target example_%s)"
                                     % (exe, args.build, name))
            for sz in sizes[name]:
                apps.append({"app": name, "path": instr, "instr": instr, "plain": plain,
                             "args": shlex.split(sz), "workload": sz})
    # Shared with the overhead bench (bench/apps.py).
    apps += load_apps(args.apps_file, args.app, args.ok_exit)
    if not apps:
        raise InputError("nothing to run: no --examples and no --app")
    if not configs:
        # After the applications: the defaults ask the build's phaseprobe-ubench
        # for the cores, and bad input should not wait on that.
        configs = default_configs(args.build)
    base_cfg = chosen_base(configs, args.base)

    cpus = handoff_probe.first_two_cpus()
    if args.handoff_probe is None:
        # A millisecond around each run: on by default wherever it can be.
        args.handoff_probe = bool(cpus) and shutil.which(handoff_probe.CC) is not None
    if args.handoff_probe and not cpus:
        raise InputError("--handoff-probe: needs two CPUs, this process may run on one")
    if args.handoff_probe and not shutil.which(handoff_probe.CC):
        raise InputError("--handoff-probe: %s not found (it builds the probe)" % handoff_probe.CC)
    resolve_throughput_option(args)

    date = datetime.datetime.now(datetime.timezone.utc)
    out = os.path.abspath(args.out or os.path.join(SRC_ROOT, "bench", "results",
                                                   "accuracy-" + date.strftime("%Y-%m-%d-%H%M")))
    raw = os.path.join(out, "raw")
    # Binaries and program output stay out of the results folder (it is committed).
    work = os.path.abspath(args.work or os.path.join(tempfile.gettempdir(), "phaseprobe-accuracy-work"))
    args.db = os.path.abspath(args.db or os.path.join(out, "nppdb.sqlite"))
    node_of = lambda cfg: "%s-%s" % (args.node_prefix, cfg["label"])
    reused = reused_configs(args, configs, node_of)
    for d in (out, raw, work):
        os.makedirs(d, exist_ok=True)
    args.probe = None
    if args.handoff_probe:
        try:
            args.probe = handoff_probe.HandoffProbe(work, cpus)
        except handoff_probe.ProbeError as ex:
            raise InputError("--handoff-probe: %s" % ex) from None
    start_throughput(args, configs, work)

    commit, dirty = git_commit(SRC_ROOT)
    doc = {"schema": report.SCHEMA,
           "context": {"machine": machine(), "commit": commit, "dirty": dirty,
                       "date": date.strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "command": " ".join(map(shlex.quote, ["bench/accuracy/run.py"] + argv)),
                       "load_note": args.load_note,
                       "alt": {"label": args.alt[0], "estimate_args": args.alt[1]}, "loadavg_start": list(os.getloadavg()),
                       "grid": args.grid, "repetitions": args.reps, "base_runs": args.base_runs,
                       "interleaved": args.interleave, "base_alongside": args.base_alongside,
                       "base_timing": args.base_timing, "rounds_across_workloads": True,
                       "pad_clones": args.pad_clones, "rounds": args.rounds,
                       "tie_pct": args.tie_pct,
                       "top_phases": args.top_phases, "db": args.db, "build": args.build,
                       "timing_runs": args.timing_runs,
                       "measured": "median wall time of the plain program; per-phase: instrumented run "
                                   "(PHASEPROBE_SAMPLING=off) on each configuration%s" % (
                                       "" if args.timing_runs == 1 else
                                       ", median of %d runs" % args.timing_runs)},
           "base": base_cfg["label"],
           "configs": [dict(c, node=node_of(c)) for c in configs],
           "apps": []}

    characterize(args, configs, node_of, work, reused)
    failures, states = [], []
    for app in apps:
        try:
            states.append(base_run(args, app, base_cfg, node_of, work, raw))
        except WorkError as ex:
            failures.append(str(ex))
            log("FAILED: %s" % ex)
    if args.grow_grid:
        doc["context"]["grown_ubench_configs"] = grow(args, configs, node_of, states, raw, work)
    measure_rounds(args, states, configs, base_cfg, node_of, work, raw)
    if args.probe:
        args.probe_limit = probe_limit(states)
        doc["context"]["handoff_probe"] = {
            "cpus": args.probe.cpus, "trips": args.probe.trips, "bursts": args.probe.bursts,
            "near_below_ns": args.probe_limit,
            "rule": "near: both probes around a run under twice the fastest probe of the run"}
    for st in states:
        try:
            doc["apps"].append(finish_workload(args, st, configs, base_cfg, node_of, work, raw))
        except WorkError as ex:
            failures.append(str(ex))
            log("FAILED: %s" % ex)
    if args.tprobe:
        doc["context"]["throughput_probe"] = throughput_context(args, configs, node_of, base_cfg["label"],
                                                                failures)
    doc["context"]["loadavg_end"] = list(os.getloadavg())
    doc["context"]["failures"] = failures
    report.derive(doc)
    textout.write_atomically(os.path.join(out, "data.json"), json.dumps(doc, indent=1) + "\n")
    text = report.render_text(doc)
    if failures:
        text += "".join("FAILED: %s\n" % f for f in failures)
    textout.write_atomically(os.path.join(out, "table.txt"), text)
    textout.write_atomically(os.path.join(out, "report.html"), report.render_html(doc))
    sys.stdout.write(text)
    if args.screenshot:
        why = screenshot(os.path.join(out, "report.html"), os.path.join(out, "report.png"), len(doc["apps"]))
        log("screenshot: " + (why or os.path.join(out, "report.png")))
    log("results in %s" % out)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as ex:
        print("run.py: %s" % ex, file=sys.stderr)
        sys.exit(2)
    except WorkError as ex:
        print("run.py: %s" % ex, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
