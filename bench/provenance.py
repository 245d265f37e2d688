"""Where a benchmark result came from, for the header of every table that
bench/ writes: the machine (host, CPU model, CPU count) and the commit, with
a note when the code that produced the numbers had uncommitted changes."""
import os
import platform
import shlex
import subprocess
import sys
import time


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine():
    """One line: host, CPU model, CPU count."""
    return "%s, %s, %d CPUs" % (platform.node(), cpu_model(), os.cpu_count() or 0)


def commit(root, paths):
    """The short commit of `root`, noting uncommitted changes under `paths`
    (the code whose behaviour the benchmark measures)."""
    try:
        rev = subprocess.check_output(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                                      text=True, stderr=subprocess.DEVNULL).strip()
        # status, not diff: a new file not yet committed is a change too.
        dirty = subprocess.check_output(["git", "-C", root, "status", "--porcelain", "--"] + list(paths),
                                        text=True, stderr=subprocess.DEVNULL).strip() != ""
        return rev + (" (+ uncommitted changes to %s)" % "/".join(paths) if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def header(title, root, paths):
    """The first lines of a table: its title, the machine, the commit (see
    commit()), the date (UTC) and the command that wrote it."""
    return [title,
            "machine : %s" % machine(),
            "commit  : %s" % commit(root, paths),
            "date    : %s" % time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "command : %s" % " ".join(shlex.quote(a) for a in sys.argv)]
