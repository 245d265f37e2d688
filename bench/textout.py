"""Plain-text output shared by the benches in bench/: aligned tables, and
result files written whole (a temporary file beside the target, then a
rename), so that an interrupted bench never leaves half a table behind.

Python 3 standard library only."""
import os
import sys
import tempfile


def table(head, rows):
    """Lines of a left-aligned table: the header, a rule, one line per row."""
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    out = ["  ".join(str(x).ljust(n) for x, n in zip(head, w)).rstrip(), "  ".join("-" * n for n in w)]
    return out + ["  ".join(str(x).ljust(n) for x, n in zip(r, w)).rstrip() for r in rows]


def out_dir_problem(path):
    """Why a result file cannot go to path before a bench spends minutes on
    it ("--out F: no such directory"), or None."""
    if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        return "--out %s: no such directory" % path
    return None


def write_atomically(path, text):
    """Writes text to path, or leaves path as it was (OSError propagates)."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)),
                               prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_or_exit(prog, path, text):
    """write_atomically, or one line on stderr ("PROG: PATH: cannot write:
    REASON") and exit status 2, with nothing written."""
    try:
        write_atomically(path, text)
    except OSError as ex:
        sys.stderr.write("%s: %s: cannot write: %s\n" % (prog, path, ex.strerror))
        sys.exit(2)


def emit(prog, lines, path=None):
    """Prints the lines as one text and, given a path, writes the same text
    there whole (write_or_exit); returns the text."""
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if path:
        write_or_exit(prog, path, text)
    return text
