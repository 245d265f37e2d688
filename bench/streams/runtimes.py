#!/usr/bin/env python3
"""Do two runtimes (or two builds, or two runs) report the same streams?

    bench/streams/runtimes.py --old-rt DIR [--new-rt DIR] [--build BUILD]
        [--examples] [--apps-file FILE] [--app NAME=PATH[:ARGS] ...]
        [--ok-exit NAME=CODES] [--threads 2] [--tolerance 5] [--out FILE]
    bench/streams/runtimes.py --old-apps-file OLD --apps-file NEW [--build BUILD] ...
    bench/streams/runtimes.py --phase-files OLD.json NEW.json [--tolerance 5]

A change to the stream analysis (runtime/src/streams.cpp) is meant to move
the streams of the programs it is about and no others. This runs each
instrumented program twice at --threads threads, once loading the
libphaseprobe_rt.so in --old-rt (say the lib folder of a build of the
previous commit) and once the one in --new-rt (default: BUILD/lib), through
LD_LIBRARY_PATH (the project links the runtime with a RUNPATH, which it
overrides; a program that would load another copy is refused), and
compares the significant streams of every phase: the same sites, element
size, stride (random streams: any mean jump), access, and footprints within
--tolerance percent; where both have one, hand-over shares within
--share-tolerance (absolute); and, where both files have them, the phase's
iterations (within --tolerance percent) and op mix. Per program the table
gives the lines each run found handed over (per phase, its significant
streams' handover_share x footprint in 64-byte lines x invocations: what
the estimator's hand-over term prices), old and new. Programs: the bundled
examples of BUILD (--examples: mm 500, nbody 2048 8, bt 32 10) and
application folders with 'instr' and
'plain' as bench/accuracy/prepare_apps.sh builds them. --phase-files
compares two phase files instead. --old-apps-file names the same programs
(line by line as --apps-file) built by another plugin (bench/accuracy/
prepare_apps.sh with another build): each program runs once from each file,
both with the runtime of BUILD/lib, for a change to the plugin's sampling
(clang-plugin/StreamSampling.cpp).

Exit status: 0 when every phase agrees, 1 when one does not, 2 for bad
input (one line, nothing written). Python 3 standard library only.
"""
import argparse
import json
import os
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
RUNTIME = "libphaseprobe_rt.so"
EXAMPLES = [("mm", ["500"]), ("nbody", ["2048", "8"]), ("bt", ["32", "10"])]


def load_phases(path):
    """{phase id: {"streams": [stream, ...], "iterations", "ops"}}: the
    significant streams, iterations and op mix of each phase of a phase file
    (iterations and ops None where the file has none)."""
    try:
        with open(path) as f:
            phases = json.load(f)["phases"]
        out = {}
        for p in phases:
            streams = []
            for s in p.get("streams", []):
                if not s.get("significant"):
                    continue
                sites = s.get("sites") or ([s["site"]] if "site" in s else [])
                share = s.get("handover_share")
                streams.append({"sites": tuple(sorted(sites)), "kib": float(s["footprint_kib"]),
                                "stride": s["stride_bytes"], "elem": s["elem_bytes"],
                                "access": s["access"], "random": s.get("pattern") == "random",
                                "op": s.get("op", ""),
                                "share": None if share is None else float(share)})
            ops = p.get("ops")
            out[p["id"]] = {"streams": sorted(streams, key=lambda s: s["sites"]),
                            "iterations": p.get("iterations"),
                            "ops": tuple(sorted(ops.items())) if isinstance(ops, dict) else None,
                            "handed": float(p.get("invocations", 1)) * sum(
                                (s["share"] or 0) * s["kib"] * 1024 / 64 for s in streams)}
        return out
    except (OSError, ValueError, KeyError, TypeError) as ex:
        raise InputError("%s: not a readable phase file (%s)" % (path, ex))


def same_stream(a, b, tolerance, share_tolerance):
    if (a["sites"], a["elem"], a["access"], a["random"], a["op"]) != (
            b["sites"], b["elem"], b["access"], b["random"], b["op"]):
        return False
    if not a["random"] and a["stride"] != b["stride"]:
        return False
    if a["share"] is not None and b["share"] is not None and abs(a["share"] - b["share"]) > share_tolerance:
        return False
    return abs(a["kib"] - b["kib"]) <= tolerance / 100.0 * max(a["kib"], b["kib"])


def describe(phase, counts):
    streams = phase["streams"]
    text = "none" if not streams else "; ".join("%s KiB %s%s B %s %s [%s]%s" % (
        "%.6g" % s["kib"], "random " if s["random"] else "", s["stride"], s["access"],
        s["op"] or "-", ",".join(x.split(":", 1)[-1] for x in s["sites"]),
        "" if s["share"] is None else " handed %.3g" % s["share"]) for s in streams)
    if counts:
        text += " | iterations %s, ops %s" % (phase["iterations"], ", ".join(
            "%s %s" % kv for kv in phase["ops"] or ()) or "-")
    return text


def same_counts(a, b, tolerance):
    """Iterations within tolerance and the same op mix, where both files have them
    (a change to the plugin may move them; a runtime's does not)."""
    ia, ib = a["iterations"], b["iterations"]
    if ia is not None and ib is not None and abs(ia - ib) > tolerance / 100.0 * max(ia, ib):
        return False
    return a["ops"] is None or b["ops"] is None or a["ops"] == b["ops"]


def compare(old, new, tolerance, share_tolerance):
    """(phases compared, [(phase, old text, new text)] of those that differ)."""
    rows = []
    ids = sorted(set(old) | set(new))
    for pid in ids:
        a, b = old.get(pid), new.get(pid)
        if a is None or b is None:
            rows.append((pid, "no such phase" if a is None else describe(a, False),
                         "no such phase" if b is None else describe(b, False)))
            continue
        counts = not same_counts(a, b, tolerance)
        if counts or len(a["streams"]) != len(b["streams"]) or not all(
                same_stream(x, y, tolerance, share_tolerance)
                for x, y in zip(a["streams"], b["streams"])):
            rows.append((pid, describe(a, counts), describe(b, counts)))
    return len(ids), rows


def handed(phases):
    """Lines a run found handed over, over its phases."""
    return sum(p["handed"] for p in phases.values())


def runtime_of(exe, libdir, env):
    """The libphaseprobe_rt.so that exe loads with LD_LIBRARY_PATH=libdir."""
    p = subprocess.run(["ldd", exe], env=dict(env, LD_LIBRARY_PATH=libdir), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    for line in p.stdout.splitlines():
        if line.strip().startswith(RUNTIME) and "=>" in line:
            return line.split("=>", 1)[1].split("(")[0].strip()
    return None


def check_loads(app, libdir):
    exe = os.path.join(app["path"], "instr")
    got = runtime_of(exe, libdir, appspec.clean_env({}))
    want = os.path.realpath(os.path.join(libdir, RUNTIME))
    if got is None:
        raise InputError("%s: does not load %s (not instrumented with the shared runtime)" % (exe, RUNTIME))
    if os.path.realpath(got) != want:
        raise InputError("%s: loads %s even with LD_LIBRARY_PATH=%s (an RPATH, not a RUNPATH?)" % (
            exe, got, libdir))


def example_apps(build, tmp):
    apps = []
    for name, args in EXAMPLES:
        instr = os.path.join(os.path.abspath(build), "examples", name)
        if not os.access(instr, os.X_OK):
            raise InputError("--examples: %s: no such executable (build the project first)" % instr)
        folder = os.path.join(tmp, "examples", name)
        os.makedirs(folder)
        os.symlink(instr, os.path.join(folder, "instr"))
        os.symlink(instr + ".plain", os.path.join(folder, "plain"))
        apps.append({"app": name, "path": folder, "args": args, "workload": " ".join(args)})
    return apps


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old-rt", metavar="DIR", help="folder of the %s to compare against" % RUNTIME)
    ap.add_argument("--new-rt", metavar="DIR", help="folder of the other one (default BUILD/lib)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build folder (default ./build)")
    ap.add_argument("--examples", action="store_true", help="run the bundled examples of BUILD")
    ap.add_argument("--app", action="append", default=[], metavar="NAME=PATH[:ARGS]")
    ap.add_argument("--apps-file", action="append", default=[], metavar="FILE")
    ap.add_argument("--ok-exit", action="append", default=[], metavar="NAME=CODES")
    ap.add_argument("--old-apps-file", action="append", default=[], metavar="FILE",
                    help="the programs of --apps-file built by another plugin, line by line")
    ap.add_argument("--phase-files", nargs=2, metavar=("OLD", "NEW"), help="compare two phase files")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tolerance", type=float, default=5.0, help="footprints within this percent agree (default 5)")
    ap.add_argument("--share-tolerance", type=float, default=0.05,
                    help="hand-over shares this far apart agree (default 0.05)")
    ap.add_argument("--out", help="also write the table to this file (atomically)")
    opts = ap.parse_args(argv)
    if opts.threads < 1 or not opts.tolerance >= 0 or not opts.share_tolerance >= 0:
        raise InputError("--threads must be at least 1, --tolerance and --share-tolerance at least 0")
    if opts.old_apps_file:
        if opts.old_rt or opts.new_rt or opts.examples or opts.app or opts.phase_files:
            raise InputError("--old-apps-file compares builds: give it with --apps-file only "
                             "(not --old-rt, --new-rt, --examples, --app, --phase-files)")
        opts.old_rt = opts.new_rt = os.path.join(opts.build, "lib")
        if not os.path.isfile(os.path.join(opts.old_rt, RUNTIME)):
            raise InputError("%s: no %s there (build the project first)" % (opts.old_rt, RUNTIME))
    elif not opts.phase_files:
        if not opts.old_rt:
            raise InputError("give --old-rt DIR, --old-apps-file FILE or --phase-files OLD NEW")
        opts.new_rt = opts.new_rt or os.path.join(opts.build, "lib")
        for d in (opts.old_rt, opts.new_rt):
            if not os.path.isfile(os.path.join(d, RUNTIME)):
                raise InputError("%s: no %s there" % (d, RUNTIME))
    problem = textout.out_dir_problem(opts.out)
    if problem:
        raise InputError(problem)
    return opts


def main(argv=None):
    t0 = time.time()
    results = []  # (app, workload, phases compared, differing rows, handed lines old, new)
    try:
        opts = parse_args(argv)
        if opts.phase_files:
            a, b = load_phases(opts.phase_files[0]), load_phases(opts.phase_files[1])
            n, rows = compare(a, b, opts.tolerance, opts.share_tolerance)
            results.append(("phase files", " ".join(opts.phase_files), n, rows, handed(a), handed(b)))
        else:
            ok_exit = appspec.parse_ok_exit(opts.ok_exit)
            with tempfile.TemporaryDirectory(prefix="pp-runtimes.") as tmp:
                apps = (example_apps(opts.build, tmp) if opts.examples else []) + appspec.load_apps(
                    opts.apps_file, opts.app, ok_exit, folder_only=True)
                if not apps:
                    raise InputError("nothing to run: give --examples, --app or --apps-file")
                # Each program's old and new run: (app, runtime folder).
                olds = [(app, opts.old_rt) for app in apps]
                if opts.old_apps_file:
                    old_apps = appspec.load_apps(opts.old_apps_file, [], ok_exit, folder_only=True)
                    if [(a["app"], a["args"]) for a in old_apps] != [(a["app"], a["args"]) for a in apps]:
                        raise InputError("--old-apps-file: its programs and arguments must be "
                                         "--apps-file's, line by line")
                    olds = [(app, opts.old_rt) for app in old_apps]
                for (old, d), app in zip(olds, apps):
                    check_loads(old, d)
                    check_loads(app, opts.new_rt)
                for (old, old_rt), app in zip(olds, apps):
                    files = []
                    for k, (a, d) in enumerate(((old, old_rt), (app, opts.new_rt))):
                        cwd = os.path.join(tmp, "run-%s-%d-%d" % (app["app"], len(results), k))
                        os.makedirs(cwd)
                        appspec.instrumented_phases(a, opts.threads, ok_exit, cwd, "runtimes.py",
                                                    env={"LD_LIBRARY_PATH": os.path.abspath(d)})
                        files.append(os.path.join(cwd, "phases.json"))
                    a, b = load_phases(files[0]), load_phases(files[1])
                    n, rows = compare(a, b, opts.tolerance, opts.share_tolerance)
                    results.append((app["app"], app["workload"], n, rows, handed(a), handed(b)))
                    print("[runtimes] %s %s done" % (app["app"], app["workload"]), file=sys.stderr, flush=True)
    except InputError as ex:
        print("runtimes.py: %s" % ex, file=sys.stderr)
        return 2
    title = ("phaseprobe streams: the significant streams of two runtimes (or two builds, or two phase "
             "files) side by side")
    lines = provenance.header(title, ROOT, ["runtime", "clang-plugin"]) + [
        "compared: sites, element, stride (random: any), access, op; footprints and iterations within %g%%; "
        "hand-over shares within %g; op mix%s; %.0f s" % (
            opts.tolerance, opts.share_tolerance, "" if opts.phase_files else "; %d threads; old %s, new %s" % (
                opts.threads, " ".join(opts.old_apps_file) or opts.old_rt,
                " ".join(opts.apps_file) if opts.old_apps_file else opts.new_rt), time.time() - t0),
        ""]
    lines += textout.table(("app", "workload", "phases", "differing", "handed_lines_old", "handed_lines_new"),
                           [(a, w, n, len(rows), "%.4g" % ho, "%.4g" % hn)
                            for a, w, n, rows, ho, hn in results])
    for a, w, n, rows, _, _ in results:
        for pid, old, new in rows:
            lines += ["", "%s %s: %s" % (a, w, pid), "  old: %s" % old, "  new: %s" % new]
    bad = sum(len(rows) for _, _, _, rows, _, _ in results)
    lines += ["", "every phase's significant streams agree" if not bad else
              "%d phase(s) differ" % bad]
    textout.emit("runtimes.py", lines, opts.out)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
