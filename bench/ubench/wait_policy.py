#!/usr/bin/env python3
"""bench/ubench/wait_policy.py — what the OpenMP wait policy does to a
barrier's cost, in the uB and in programs, per node configuration.

    bench/ubench/wait_policy.py [--build DIR] [--config LABEL:THREADS:PLACES:BIND[:WAIT] ...]
        [--app NAME=FOLDER[:ARGS] ...] [--barriers NAME=N ...] [--rounds 5]
        [--footprints 16,64,256] [--out FILE]

How the threads of a team wait at a barrier (OMP_WAIT_POLICY: active
spins, passive sleeps) is part of the node configuration a program runs
on, as much as its placement. Per round, side by side:

  1. phaseprobe-ubench run --interleave over every configuration (a
     scratch NPPDB), the sync uB bar1p and its twin mbw1p at each
     footprint: the cost of one barrier there is (tpi_bar1p - tpi_mbw1p)
     x iterations per sweep, the estimator's rule (estimator/src/sync.cpp);
     the round's cost is the median over the footprints;
  2. each --app's plain build once per configuration (prepare_apps.sh's
     folders; '{threads}' in ARGS becomes the thread count).

Prints per configuration the barrier cost (median over rounds, min-max)
and per program its wall time. A configuration with a wait policy is set
against its twin without one (same threads, places and bind; the
defaults' twins are the defaults): with --barriers NAME=N (the program's
barriers per run, e.g. the `synchronization:` line of phaseprobe-estimate)
the program's difference from its twin per barrier, (t - t_twin) / N, is
printed beside the uB's, cost - cost_twin, each the median over rounds of
that round's difference. Where the two agree, the uB prices the policy's
barriers as the program meets them. Measures only.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "accuracy"))
import apps  # noqa: E402  (bench/apps.py)
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
from run import InputError as ConfigError, interleave_args, parse_config  # noqa: E402  (bench/accuracy/run.py)
import barrier_cost  # noqa: E402  (bench/ubench/barrier_cost.py: the estimator's cost rule)

PROG = "wait_policy.py"
DEFAULT_CONFIGS = ["1t:1:{0}:close", "2t:2:cores:spread", "2t-passive:2:cores:spread:passive",
                   "2t-1core:2:{0}:close", "2t-1core-passive:2:{0}:close:passive"]


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def twin_key(cfg):
    e = cfg["env"]
    return (cfg["threads"], e.get("OMP_PLACES", ""), e.get("OMP_PROC_BIND", ""))


def barrier_costs(build, configs, footprints, work):
    """One interleaved uB run; {label: median cost of a barrier in us}."""
    params = os.path.join(work, "sync.params")
    with open(params, "w") as f:
        for k in footprints:
            f.write("bar1p %g:8\nmbw1p %g:8\n" % (k, k))
    db = os.path.join(work, "sync.sqlite")
    if os.path.exists(db):
        os.unlink(db)
    cmd = [os.path.join(build, "bin", "phaseprobe-ubench"), "run", "--db", db, "--params", params]
    cmd += interleave_args(configs, lambda cfg: cfg["label"])
    p = subprocess.run(cmd, env=apps.clean_env({}), capture_output=True, text=True)
    if p.returncode != 0:
        fail("phaseprobe-ubench run: %s" % (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1])
    try:
        costs_all = barrier_cost.sync_costs(barrier_cost.profiles(build, db))
    except barrier_cost.ExportError as ex:
        fail(str(ex))
    out = {}
    for cfg in configs:
        costs = [cost for (node, _, kib, _), (_, cost) in costs_all.items()
                 if node == cfg["label"] and kib in footprints]
        if not costs:
            fail("%s: no bar1p/mbw1p pair measured" % cfg["label"])
        out[cfg["label"]] = statistics.median(costs)
    return out


def spread(vals, fmt):
    return (fmt % statistics.median(vals), (fmt + "-" + fmt) % (min(vals), max(vals)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--config", action="append", default=[], metavar="LABEL:THREADS:PLACES:BIND[:WAIT]")
    ap.add_argument("--app", action="append", default=[], metavar="NAME=FOLDER[:ARGS]")
    ap.add_argument("--barriers", action="append", default=[], metavar="NAME=N")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--footprints", default="16,64,256", help="bar1p/mbw1p footprints, KiB")
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    try:
        configs = [parse_config(s) for s in (args.config or DEFAULT_CONFIGS)]
        programs = [apps.parse_app(s, folder_only=True) for s in args.app]
    except (ConfigError, apps.InputError) as ex:
        fail(str(ex))
    if len({c["label"] for c in configs}) != len(configs):
        fail("--config: a label given twice")
    try:
        footprints = [float(x) for x in args.footprints.split(",")]
        if not footprints or min(footprints) <= 0:
            raise ValueError
    except ValueError:
        fail("--footprints %r: expected positive KiB, comma-separated" % args.footprints)
    barriers = {}
    for spec in args.barriers:
        name, _, n = spec.partition("=")
        if name not in {a["app"] for a in programs} or not n.isdigit() or int(n) <= 0:
            fail("--barriers %r: expected NAME=N for an --app NAME and N > 0" % spec)
        barriers[name] = int(n)
    if args.rounds < 1:
        fail("--rounds must be at least 1")
    problem = textout.out_dir_problem(args.out)
    if problem:
        fail(problem)
    ub = os.path.join(args.build, "bin", "phaseprobe-ubench")
    if not os.access(ub, os.X_OK):
        fail("%s: not built (--build)" % ub)

    cost = {c["label"]: [] for c in configs}
    wall = {(a["app"], c["label"]): [] for a in programs for c in configs}
    rounds = []  # per round: ({label: cost}, {(app, label): s})
    with tempfile.TemporaryDirectory(prefix="wait-policy-") as work:
        for r in range(args.rounds):
            sys.stderr.write("round %d/%d\n" % (r + 1, args.rounds))
            c = barrier_costs(args.build, configs, footprints, work)
            w = {}
            for a in programs:
                for cfg in configs:
                    argv = [os.path.join(a["path"], "plain")] + apps.expand_args(a["args"], cfg["threads"])
                    w[(a["app"], cfg["label"])] = apps.wall_s(argv, apps.clean_env(cfg["env"]), PROG,
                                                              "%s on %s" % (a["app"], cfg["label"]))
            for k, v in c.items():
                cost[k].append(v)
            for k, v in w.items():
                wall[k].append(v)
            rounds.append((c, w))

    # Each policy's twin: the configuration of the same threads and placement
    # without OMP_WAIT_POLICY.
    plain = {twin_key(c): c["label"] for c in configs if not c["env"].get("OMP_WAIT_POLICY")}
    twin = {c["label"]: plain.get(twin_key(c)) for c in configs if c["env"].get("OMP_WAIT_POLICY")}

    out = ["phaseprobe wait policy: a barrier's cost in the uB (bar1p - mbw1p) and programs' times, per configuration",
           "machine : %s" % provenance.machine(),
           "commit  : %s" % provenance.commit(ROOT, ["ubench"]),
           "command : %s" % " ".join(["bench/ubench/wait_policy.py"] + sys.argv[1:]),
           "rounds  : %d; per round the uBs on every configuration side by side (--interleave), then each "
           "program once per configuration; footprints %s KiB (median of them per round)"
           % (args.rounds, args.footprints), ""]
    rows = []
    for cfg in configs:
        m, s = spread(cost[cfg["label"]], "%.2f")
        t = twin.get(cfg["label"])
        diff = statistics.median(rc[cfg["label"]] - rc[t] for rc, _ in rounds) if t else None
        rows.append([cfg["label"], " ".join("%s=%s" % kv for kv in sorted(cfg["env"].items())), m, s,
                     t or "-", "%+.2f" % diff if diff is not None else "-"])
    out += textout.table(["config", "environment", "barrier_us", "spread", "twin", "minus_twin_us"], rows)
    for a in programs:
        n = barriers.get(a["app"])
        out += ["", "== %s %s%s" % (a["app"], " ".join(a["args"]),
                                     ("  (%d barriers a run)" % n) if n else "")]
        rows = []
        for cfg in configs:
            key = (a["app"], cfg["label"])
            m, s = spread(wall[key], "%.3f")
            t = twin.get(cfg["label"])
            per, ub_per = "-", "-"
            if t and n:
                per = "%+.2f" % (statistics.median(rw[key] - rw[(a["app"], t)] for _, rw in rounds) / n * 1e6)
                ub_per = "%+.2f" % statistics.median(rc[cfg["label"]] - rc[t] for rc, _ in rounds)
            rows.append([cfg["label"], m, s, t or "-", per, ub_per])
        out += textout.table(["config", "wall_s", "spread", "twin", "program_minus_twin_us_per_barrier",
                              "ub_minus_twin_us"], rows)
    textout.emit(PROG, out, args.out)


if __name__ == "__main__":
    main()
