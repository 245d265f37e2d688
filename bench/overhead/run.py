#!/usr/bin/env python3
"""Timing-only overhead of phaseprobe's instrumentation on the examples and applications.

For each example, the plain build (<build>/examples/<name>.plain) and the
instrumented build (<build>/examples/<name>) run alternately, plain first,
--runs times each, with PHASEPROBE_SAMPLING=off (timing and iteration counts
only; --sampling on measures the default, stream-sampling run instead); an
application's workloads run the same way, its folder's 'plain' against its
'instr'. Alternating puts both builds under the same background load, so
their ratio stays meaningful on a busy machine; medians and the min..max
spread are reported, and the overhead is median(instrumented) /
median(plain) - 1.

Prints a table headed by the machine, the commit and the command, and writes
it to bench/results/overhead-<date>.txt (or --out). Re-run on a quiet machine
for numbers to quote:

    bench/overhead/run.py --build build --runs 9 --threads 4

Public applications (never part of the project: fetch them, build them
instrumented and plain with bench/accuracy/prepare_apps.sh) are measured the
same way, from the apps file it writes (--app/--apps-file/--ok-exit as in the
accuracy harness, bench/apps.py: NAME=DIR[:ARGS], DIR holding 'instr' and
'plain', '{threads}' in ARGS becoming the thread count of the run);
--examples none leaves the bundled examples out:

    bench/accuracy/prepare_apps.sh --build build --out /tmp/apps \
        --npb ~/src/NPB3.0-omp-C --npb-classes W
    bench/overhead/run.py --build build --examples none \
        --apps-file /tmp/apps/apps.txt --runs 9 --instructions

--instructions adds the instruction counts of one run of each build under
valgrind's callgrind: deterministic, so it shows an overhead of a few percent
that the wall times of a noisy machine cannot resolve (it misses what costs
time without instructions, such as cache misses). The counted runs use one
thread: with more, libomp's spin-waiting at barriers adds a varying count.

--against-runtime DIR (implies --instructions) prices a change to the
runtime alone: the same instrumented executables are counted a second time
with the libphaseprobe_rt.so in DIR loaded instead of their own (another
commit's build/lib; LD_LIBRARY_PATH, which the builds' RUNPATH gives way
to), and the table gains that count and the difference. A change of a few
tenths of a percent is far below what wall times resolve here; a runtime
counted against a copy of itself reads 0.00% on every workload. Build the
other runtime with the flags of the build measured:

    git worktree add /tmp/old OLD && cmake -S /tmp/old -B /tmp/old/build -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPHASEPROBE_BUILD_TESTS=OFF \
        && cmake --build /tmp/old/build --target phaseprobe_rt
    bench/overhead/run.py --build build --sampling on --runs 5 \
        --against-runtime /tmp/old/build/lib

--also-env NAME=VALUE (repeatable) times the instrumented build a third
time in each turn, with those variables set: a runtime knob's cost side by
side with the default's, under the same load (PHASEPROBE_CLOCK=monotonic:
what the probes cost on clock_gettime instead of the time-stamp counter).
The table gains its median, spread and overhead over plain:

    bench/overhead/run.py --build build --examples none --app sp=/tmp/apps/npb-sp.W \
        --runs 9 --threads 2 --also-env PHASEPROBE_CLOCK=monotonic

Exit 0 on success, 1 when a run failed (an exit code other than 0 or the
application's --ok-exit codes, or an example whose output differs between
the builds), 2 on bad usage or input (one line naming it).
"""
import argparse
import datetime
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import instructions  # noqa: E402  (bench/instructions.py)
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
from apps import InputError, expand_args, load_apps, ok_codes, parse_ok_exit  # noqa: E402  (bench/apps.py)

# (example, arguments): sized to run about a second each on a 2020 laptop core.
# "mm 8" does almost nothing: it shows the fixed start-up + exit cost (loading
# the runtime, hwloc's topology discovery and writing the file at exit),
# which a real application run of minutes amortizes.
WORKLOADS = [("mm", ["8"]), ("mm", ["700"]), ("nbody", ["4000", "6"]), ("bt", ["64", "6"])]
QUICK = [("mm", ["200"]), ("nbody", ["600", "2"]), ("bt", ["16", "2"])]
EXAMPLES = ("mm", "nbody", "bt")


def run_once(exe, args, env, ok=(0,), cwd=None, app=None):
    """Wall seconds, CPU seconds (user + sys of the child) and its stdout;
    exits naming the program when its exit code is not in ok (app: the
    application's name, for the hint at --ok-exit)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([exe] + args, env=env, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok:
        last = proc.stderr.strip().splitlines()
        sys.exit("run.py: %s failed with exit code %d%s: %s%s" % (
            " ".join([exe] + args), proc.returncode,
            " (success: %s)" % ",".join(map(str, ok)) if ok != (0,) else "",
            last[-1] if last else "no message on stderr",
            " (--ok-exit %s=%d if that code means success)" % (app, proc.returncode)
            if app and proc.returncode > 0 else ""))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, proc.stdout


def default_threads(env):
    """The thread count a run with `env` gets: OMP_NUM_THREADS (its first
    level), else libomp's default, the CPUs this process may run on."""
    try:
        return int(env.get("OMP_NUM_THREADS", "").split(",")[0])
    except ValueError:
        return len(os.sched_getaffinity(0))


def workloads(opts):
    """What to measure, in table order: the chosen examples, then the
    applications. Each a dict: prog, label (the args column), args (with
    '{threads}' still in them for an application), plain and instr (the
    executables), ok (exit codes of success), app (True for an application),
    fixed (the "mm 8" start-up + exit cost row). InputError on bad input,
    before anything runs."""
    if opts.examples == "none":
        names = []
    elif opts.examples == "all":
        names = list(EXAMPLES)
    else:
        names = [e for e in opts.examples.split(",") if e]
        for name in names:
            if name not in EXAMPLES:
                raise InputError("--examples: unknown example %r (have %s, or all, none)" % (
                    name, ", ".join(EXAMPLES)))
    out = []
    # Absolute: the programs run in a scratch folder.
    exdir = os.path.join(os.path.abspath(opts.build), "examples")
    for name, args in (QUICK if opts.quick else WORKLOADS):
        if name not in names:
            continue
        plain, instr = os.path.join(exdir, name + ".plain"), os.path.join(exdir, name)
        for exe in (plain, instr):
            if not os.access(exe, os.X_OK):
                raise InputError("%s: not built (cmake --build %s --target example_%s)" % (
                    exe, opts.build, name))
        out.append({"prog": name, "label": " ".join(args), "args": args, "plain": plain,
                    "instr": instr, "ok": (0,), "app": False, "fixed": (name, args) == ("mm", ["8"])})
    ok_exit = parse_ok_exit(opts.ok_exit)
    for app in load_apps(opts.apps_file, opts.app, ok_exit, folder_only=True):
        label = app["workload"]
        if not app["args"]:
            # An argument-less workload is its folder, named NAME.CLASS by
            # prepare_apps.sh (npb-bt.W): its class is the label.
            prefix = app["app"] + "."
            if label.startswith(prefix) and len(label) > len(prefix):
                label = label[len(prefix):]
        out.append({"prog": app["app"], "label": label, "args": app["args"],
                    "plain": os.path.join(app["path"], "plain"), "instr": os.path.join(app["path"], "instr"),
                    "path": app["path"], "ok": ok_codes(ok_exit, app["app"]), "app": True, "fixed": False})
    if not out:
        raise InputError("nothing to run: --examples %s and no --app" % opts.examples)
    return out


RUNTIME = "libphaseprobe_rt.so"


def other_runtime_env(env, libdir):
    """env with libdir searched first for shared libraries."""
    path = env.get("LD_LIBRARY_PATH")
    return dict(env, LD_LIBRARY_PATH=libdir + (":" + path if path else ""))


def check_other_runtime(work, libdir, env):
    """InputError unless every instrumented executable, run with libdir
    first on LD_LIBRARY_PATH, loads its runtime from there: a count with
    the build's own runtime would pass for the other's (a static link, an
    RPATH that LD_LIBRARY_PATH cannot override, a folder without it)."""
    if not os.path.isfile(os.path.join(libdir, RUNTIME)):
        raise InputError("--against-runtime %s: no %s there" % (libdir, RUNTIME))
    want = os.path.realpath(os.path.join(libdir, RUNTIME))
    for exe in sorted(set(w["instr"] for w in work)):
        # What ldd prints: the dynamic loader's resolution, without running main.
        proc = subprocess.run([exe], env=dict(other_runtime_env(env, libdir), LD_TRACE_LOADED_OBJECTS="1"),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        found = None
        for line in proc.stdout.splitlines():
            parts = line.split()
            if parts and parts[0] == RUNTIME and len(parts) >= 3 and parts[1] == "=>":
                found = parts[2]
        if found is None:
            raise InputError("--against-runtime: %s does not load %s dynamically" % (exe, RUNTIME))
        if os.path.realpath(found) != want:
            raise InputError("--against-runtime: %s loads %s from %s, not from %s (an RPATH?)" % (
                exe, RUNTIME, os.path.dirname(found), libdir))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory holding examples/ (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=7, help="runs per build (>= 5)")
    ap.add_argument("--threads", type=int, default=0,
                    help="OMP_NUM_THREADS (default: leave the runtime's default)")
    ap.add_argument("--quick", action="store_true", help="tiny workloads of the examples (smoke test)")
    ap.add_argument("--examples", default="all", metavar="none|all|LIST",
                    help="bundled examples to run: all, none, or a comma list of %s (default: %%(default)s)"
                         % ",".join(EXAMPLES))
    ap.add_argument("--app", action="append", default=[], metavar="NAME=DIR[:ARGS]",
                    help="an application: a folder with the executables 'instr' and 'plain' "
                         "(bench/accuracy/prepare_apps.sh); ARGS may use {threads}; repeat NAME for "
                         "more workloads")
    ap.add_argument("--apps-file", action="append", default=[], metavar="FILE",
                    help="a file of --app specs, one a line ('#' comments, '--ok-exit NAME=CODES' lines), "
                         "as prepare_apps.sh writes")
    ap.add_argument("--ok-exit", action="append", default=[], metavar="NAME=CODES",
                    help="exit codes besides 0 that mean success for application NAME (comma list)")
    ap.add_argument("--out", help="result file (default: bench/results/overhead-<date>.txt)")
    ap.add_argument("--sampling", choices=("off", "on"), default="off",
                    help="PHASEPROBE_SAMPLING of the instrumented runs (default: off)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of one run of each build under valgrind "
                         "(deterministic; about 50x slower than a run)")
    ap.add_argument("--also-env", action="append", default=[], metavar="NAME=VALUE",
                    help="also time the instrumented build with NAME=VALUE set, in turn with the "
                         "others (repeat for several variables: one more column)")
    ap.add_argument("--against-runtime", metavar="DIR",
                    help="also count the instrumented builds with the libphaseprobe_rt.so in DIR "
                         "(another commit's build/lib) instead of their own; implies --instructions")
    opts = ap.parse_args()
    if opts.against_runtime:
        opts.instructions = True
    if opts.runs < 5:
        ap.error("--runs must be at least 5")
    also = {}
    for spec in opts.also_env:
        name, eq, value = spec.partition("=")
        if not eq or not name or not name.replace("_", "").isalnum():
            ap.error("--also-env %r: expected NAME=VALUE" % spec)
        also[name] = value
    opts.also = also
    work = workloads(opts)
    problem = opts.out != "-" and textout.out_dir_problem(opts.out)
    if problem:
        raise InputError(problem)
    env = dict(os.environ, PHASEPROBE_SAMPLING=opts.sampling)
    if opts.against_runtime:
        opts.against_runtime = os.path.abspath(opts.against_runtime)
        check_other_runtime(work, opts.against_runtime, env)
    if opts.instructions and not instructions.available():
        ap.error("--instructions needs valgrind (apt-get install valgrind)")
    if opts.threads:
        env["OMP_NUM_THREADS"] = str(opts.threads)
    threads = default_threads(env)
    tmp = tempfile.mkdtemp(prefix="pp-overhead-")
    env["PHASEPROBE_OUT"] = os.path.join(tmp, "out.json")
    try:
        rows, counts = measure(opts, work, env, threads, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    pw = max([6] + [len(w["prog"]) for w in work])
    aw = max([10] + [len(w["label"]) for w in work])
    uses_threads = any("{threads}" in a for w in work if w["app"] for a in w["args"])
    lines = [
        "phaseprobe %s overhead (PHASEPROBE_SAMPLING=%s), plain vs instrumented" % (
            "timing-only" if opts.sampling == "off" else "stream-sampling", opts.sampling),
        "date:    %s" % datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine: %s" % provenance.machine(),
        "commit:  %s" % provenance.commit(ROOT, ["clang-plugin", "runtime", "examples"]),
        "command: %s" % " ".join(shlex.quote(a) for a in sys.argv),
        "threads: %s, runs: %d each, alternating plain/instrumented%s" % (
            env.get("OMP_NUM_THREADS", "default"), opts.runs, "/also" if also else ""),
    ]
    if also:
        lines.append("also:    the instrumented build with %s" % " ".join(
            "%s=%s" % kv for kv in sorted(also.items())))
    folders = [(w["prog"], w["path"]) for w in work if w["app"]]
    for name, path in sorted(set(folders), key=folders.index):
        lines.append("app:     %s = %s" % (name, path))
    lines += [
        "",
        "%-*s %-*s %10s %19s %10s %19s %9s %9s" % (
            pw, "prog", aw, "args", "plain s", "plain min..max", "inst s", "inst min..max",
            "overhead", "cpu ovh")
        + (" %10s %19s %9s" % ("also s", "also min..max", "also ovh") if also else ""),
    ]
    for w, r in rows:
        lines.append("%-*s %-*s %10.4f %9.4f..%-8.4f %10.4f %9.4f..%-8.4f %8.2f%% %8.2f%%" % (
            (pw, w["prog"], aw, w["label"]) + r[:8])
            + (" %10.4f %9.4f..%-8.4f %8.2f%%" % r[8:] if also else ""))
    lines.append("")
    lines.append("overhead: median wall time, instrumented / plain - 1; cpu ovh: the same"
                 " for user+sys CPU time")
    if also:
        lines.append("also ovh: the same for the instrumented build with the also: variables")
    if uses_threads:
        lines.append("{threads} in an application's args: %d in the timed runs%s" % (
            threads, ", 1 in the counted ones" if counts else ""))
    if any(w["app"] for w in work):
        lines.append("outputs: the examples' must be identical in both builds; the applications'"
                     " are not compared (they print timings), only their exit codes")
    # The "mm 8" row is the fixed cost, not a workload: leave it out.
    fixed = any(w["fixed"] for w in work)
    walls = [r[6] for w, r in rows if not w["fixed"]]
    if walls:
        lines.append("largest median wall-time overhead of the workloads%s: %.2f%% (goal: <= %s)" % (
            " (mm 8 = fixed start-up + exit cost, excluded)" if fixed else "", max(walls),
            "3%" if opts.sampling == "off" else "10%, target 3%"))
    if counts:
        other = opts.against_runtime
        lines += ["", "instructions (valgrind callgrind, one run each, OMP_NUM_THREADS=1, "
                      "PHASEPROBE_SAMPLING=%s):" % opts.sampling]
        if other:
            lines.append("other rt: the instrumented build with %s/%s loaded instead of its own;"
                         " change: inst / other rt - 1" % (other, RUNTIME))
        lines.append("%-*s %-*s %14s %14s %9s" % (pw, "prog", aw, "args", "plain", "inst", "overhead")
                     + (" %14s %9s" % ("other rt", "change") if other else ""))
        for w, c in counts:
            lines.append("%-*s %-*s %14d %14d %8.2f%%" % ((pw, w["prog"], aw, w["label"]) + c[:3])
                         + (" %14d %+8.2f%%" % c[3:] if other else ""))
        ovh = [c[2] for w, c in counts if not w["fixed"]]
        if ovh:
            lines.append("largest instruction overhead of the workloads%s: %.2f%%" % (
                " (mm 8 excluded)" if fixed else "", max(ovh)))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    out = opts.out or os.path.join(
        ROOT, "bench", "results", "overhead-%s.txt" % datetime.date.today().isoformat())
    if out != "-":
        textout.write_or_exit("run.py", out, text)
        print("written: %s" % out)


def measure(opts, work, env, threads, tmp):
    """Runs every workload; returns (rows, counts): (workload, timing tuple)
    and (workload, (plain, inst, overhead %)) pairs. The programs run in tmp
    (an application may write files where it runs)."""
    rows, counts = [], []
    for w in work:
        plain, inst, ok, app = w["plain"], w["instr"], w["ok"], w["prog"] if w["app"] else None
        args = expand_args(w["args"], threads)
        tp, ti, cp, ci, ta = [], [], [], [], []
        out_p = out_i = out_a = None
        also_env = dict(env, **opts.also)
        run_once(plain, args, env, ok, tmp, app)  # warm caches and the page cache once
        for _ in range(opts.runs):
            t, c, out_p = run_once(plain, args, env, ok, tmp, app)
            tp.append(t)
            cp.append(c)
            t, c, out_i = run_once(inst, args, env, ok, tmp, app)
            ti.append(t)
            ci.append(c)
            if opts.also:
                t, c, out_a = run_once(inst, args, also_env, ok, tmp, app)
                ta.append(t)
        # The examples print only results, which the instrumentation must not
        # change. The applications print their own timings (and XSBench, say,
        # a run-time-dependent rate), so their outputs always differ: for them
        # the exit code, checked by run_once, is all that is compared.
        if not w["app"] and (out_p != out_i or (opts.also and out_p != out_a)):
            sys.exit("run.py: %s: instrumented output differs from plain%s" % (
                w["prog"], "" if out_p != out_i else " (with the --also-env variables)"))
        mp, mi = statistics.median(tp), statistics.median(ti)
        row = (mp, min(tp), max(tp), mi, min(ti), max(ti), (mi / mp - 1.0) * 100.0,
               (statistics.median(ci) / statistics.median(cp) - 1.0) * 100.0)
        if opts.also:
            ma = statistics.median(ta)
            row += (ma, min(ta), max(ta), (ma / mp - 1.0) * 100.0)
        rows.append((w, row))
        if opts.instructions:
            one = dict(env, OMP_NUM_THREADS="1")
            args1 = expand_args(w["args"], 1)
            ip = instructions.count(plain, args1, one, ok, tmp)
            ii = instructions.count(inst, args1, one, ok, tmp)
            c = (ip, ii, (ii / ip - 1.0) * 100.0)
            if opts.against_runtime:
                io = instructions.count(inst, args1, other_runtime_env(one, opts.against_runtime), ok, tmp)
                c += (io, (ii / io - 1.0) * 100.0)
            counts.append((w, c))
    return rows, counts


if __name__ == "__main__":
    try:
        main()
    except InputError as ex:
        print("run.py: %s" % ex, file=sys.stderr)
        sys.exit(2)
