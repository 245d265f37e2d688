"""`phaseprobe-ubench run --params`, measured and read back: the one way the
benches that measure a handful of uB configurations (bench/ubench/
clone_shape.py, bench/ubench/calibration.py) run them.

Python 3 standard library only."""
import os
import sqlite3
import subprocess

from apps import clean_env


class RunError(Exception):
    """The run failed; the message is the last line it wrote on stderr."""


def measure(exe, lines, threads, tmp, tag, rounds=1, places=None, bind=None):
    """Runs the params lines (`UB K:S[...]`) on `threads` threads in a
    scratch NPPDB under tmp (a fresh one per call) and returns {`UB
    REQUESTED`: tpi_us}, the requested streams as the NPPDB keeps them
    (params.requested; the median round's tpi with rounds > 1). places and
    bind: OMP_PLACES and OMP_PROC_BIND (None: phaseprobe-ubench's
    defaults, cores and close)."""
    params = os.path.join(tmp, tag + ".params")
    db = os.path.join(tmp, tag + ".sqlite")
    with open(params, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    if os.path.exists(db):
        os.remove(db)
    placement = (["--places", places] if places is not None else []) + \
        (["--bind", bind] if bind is not None else [])
    run = subprocess.run([exe, "run", "--node", "x", "--db", db, "--threads", str(threads),
                          "--params", params, "--rounds", str(rounds)] + placement,
                         env=clean_env({}), capture_output=True, text=True)
    if run.returncode != 0:
        raise RunError((run.stderr.strip().splitlines() or ["failed"])[-1])
    con = sqlite3.connect(db)
    try:
        return {ub + " " + req: tpi for ub, req, tpi in con.execute(
            "SELECT ubench, json_extract(params, '$.requested'), tpi_us FROM profiles")}
    finally:
        con.close()
