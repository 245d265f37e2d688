"""Application specs shared by the benches in bench/ that run public OpenMP
codes (the accuracy harness, the overhead bench): --app NAME=PATH[:ARGS],
--apps-file FILE (such specs one a line, as prepare_apps.sh writes them) and
--ok-exit NAME=CODES. The codes themselves are never part of the project:
whoever runs a bench fetches them and builds them with
bench/accuracy/prepare_apps.sh, which writes the apps file.

Python 3 standard library only. Bad input raises InputError (the benches
print its one line and exit 2)."""

import json
import os
import re
import shlex
import subprocess
import sys
import time


class InputError(Exception):
    """Bad usage or input: exit 2."""


def parse_app(spec, folder_only=False):
    """NAME=PATH[:ARGS]. PATH is a C/C++ source file (built here, both ways)
    or a directory holding executables 'instr' and 'plain' (prebuilt, e.g. by
    prepare_apps.sh). ARGS is one shell-quoted argument string; '{threads}'
    in it becomes the configuration's thread count. Repeating a NAME with other
    ARGS (or another PATH) adds a workload of the same application.
    folder_only: only the folder form (for a bench that builds nothing)."""
    if "=" not in spec:
        raise InputError("--app %r: expected NAME=PATH[:ARGS]" % spec)
    name, rest = spec.split("=", 1)
    if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
        raise InputError("--app %r: NAME may only hold letters, digits, '.', '_', '-'" % spec)
    path, _, args = rest.partition(":")
    path = os.path.abspath(os.path.expanduser(path))
    if not os.path.exists(path):
        raise InputError("--app %r: %s: no such file or directory" % (spec, path))
    if os.path.isdir(path):
        for exe in ("instr", "plain"):
            if not os.access(os.path.join(path, exe), os.X_OK):
                raise InputError("--app %r: %s: directory lacks the executable '%s' (%s)" % (
                    spec, path, exe, "prepare_apps.sh builds 'instr' and 'plain'" if folder_only
                    else "give a source file, or a folder with 'instr' and 'plain'"))
    elif folder_only:
        raise InputError("--app %r: %s: not a folder with the executables 'instr' and 'plain' "
                         "(prepare_apps.sh builds them)" % (spec, path))
    elif not path.endswith((".c", ".cc", ".cpp", ".cxx")):
        raise InputError("--app %r: %s: not a C/C++ source nor a folder with 'instr'/'plain'" % (spec, path))
    try:
        argv = shlex.split(args)
    except ValueError as ex:
        raise InputError("--app %r: ARGS: %s" % (spec, ex))
    workload = args.strip() or os.path.basename(path.rstrip("/"))
    return {"app": name, "path": path, "args": argv, "workload": workload}


def parse_ok_exit(specs):
    """--ok-exit NAME=CODE[,CODE...] options -> {NAME: [codes]}."""
    codes = {}
    for spec in specs:
        name, _, vals = spec.partition("=")
        try:
            codes.setdefault(name, []).extend(int(v) for v in vals.split(",") if v)
        except ValueError:
            raise InputError("--ok-exit %r: expected NAME=CODE[,CODE...]" % spec)
        if not name or not vals:
            raise InputError("--ok-exit %r: expected NAME=CODE[,CODE...]" % spec)
    return codes


def load_apps(apps_files, app_specs, ok_exit, folder_only=False):
    """The applications of the --apps-file FILEs (in order), then of the
    --app specs, parsed with parse_app. The files' '--ok-exit NAME=CODES'
    lines are added to ok_exit (a dict from parse_ok_exit, changed in place);
    '#' starts a comment line. An error names the file and line."""
    specs = []
    for fname in apps_files:
        try:
            with open(fname) as f:
                lines = f.read().splitlines()
        except OSError as ex:
            raise InputError("--apps-file %s: cannot read: %s" % (fname, ex.strerror))
        for n, line in enumerate(lines, 1):
            line = line.strip()
            if line.startswith("--ok-exit "):
                # An application's own success codes travel with its specs.
                name, _, vals = line.split(None, 1)[1].partition("=")
                try:
                    ok_exit.setdefault(name, []).extend(int(v) for v in vals.split(",") if v)
                except ValueError:
                    raise InputError("%s:%d: expected --ok-exit NAME=CODE[,CODE...]" % (fname, n))
            elif line and not line.startswith("#"):
                specs.append((line, "%s:%d: " % (fname, n)))
    specs += [(s, "") for s in app_specs]
    apps = []
    for s, where in specs:
        try:
            apps.append(parse_app(s, folder_only))
        except InputError as ex:
            raise InputError(where + str(ex))
    return apps


def ok_codes(ok_exit, name):
    """The exit codes that mean success for application NAME."""
    return (0,) + tuple(ok_exit.get(name, ()))


def expand_args(args, threads):
    """An application's arguments with '{threads}' replaced."""
    return [a.replace("{threads}", str(threads)) for a in args]


def clean_env(extra):
    """The caller's environment without OpenMP/phaseprobe knobs, plus extra:
    a configuration must be exactly what its label says."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMP_", "KMP_", "GOMP_", "PHASEPROBE_"))}
    env.update(extra)
    return env


def wall_s(argv, env, who, what):
    """Seconds one run of argv takes with env; a failing run ends the bench
    with one line (WHO: the bench's name, WHAT: the run) and exit 2."""
    t0 = time.perf_counter()
    run = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = time.perf_counter() - t0
    if run.returncode != 0:
        sys.stderr.write("%s: %s exited %d: %s\n" % (who, what, run.returncode, (
            run.stderr.strip().splitlines() or ["no message on stderr"])[-1]))
        sys.exit(2)
    return t


def instrumented_phases(app, threads, ok_exit, cwd, who, env=None):
    """The phases of one run of APP's instrumented build (its folder's
    instr) on THREADS threads in folder CWD, with the knobs of ENV; a
    failing program ends the bench with one line (WHO: the bench's name)
    and exit 1."""
    out = os.path.join(cwd, "phases.json")
    run_env = clean_env(dict(env or {}, OMP_NUM_THREADS=str(threads), PHASEPROBE_OUT=out))
    cmd = [os.path.join(app["path"], "instr")] + expand_args(app["args"], threads)
    p = subprocess.run(cmd, env=run_env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode not in ok_codes(ok_exit, app["app"]):
        sys.exit("%s: %s: exit %d: %s" % (who, " ".join(cmd), p.returncode, p.stderr.strip()[-200:]))
    with open(out) as f:
        return json.load(f)["phases"]
