"""Instruction counts of one process under valgrind's callgrind, for the
benchmarks in bench/: the same count for the same binary and input whatever
else the machine does, so an overhead of a few percent survives the noise
that wall times carry on a shared VM. It does not see costs that are not
instructions (cache misses). Run with one OpenMP thread: with more, libomp's
spin-waiting at barriers adds a count that varies from run to run."""
import os
import shutil
import subprocess
import sys
import tempfile


def available():
    return shutil.which("valgrind") is not None


def count(exe, args, env, ok=(0,), cwd=None):
    """Instructions executed by `exe args` (all threads), or exits with a
    message. ok: the program's exit codes that mean success (valgrind exits
    with the program's code)."""
    with tempfile.TemporaryDirectory(prefix="pp-cg-") as d:
        proc = subprocess.run(["valgrind", "--tool=callgrind",
                               "--callgrind-out-file=" + os.path.join(d, "cg.out"), exe] + list(args),
                              env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in ok:
        sys.exit("valgrind %s %s failed with exit code %d" % (exe, " ".join(args), proc.returncode))
    for line in proc.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    sys.exit("valgrind %s: no instruction count in its output" % exe)
