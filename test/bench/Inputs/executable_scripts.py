"""Every script under bench/ and scripts/ that starts with a shebang can be
run as its recorded commands run it (bench/results/*: 'command :
bench/accuracy/cross.py ...'): executable. Prints one line per file that is
not and exits 1, else 'ok N scripts'."""
import os
import sys

root = sys.argv[1]
bad, seen = [], 0
for top in ("bench", "scripts"):
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs[:] = [x for x in dirs if x not in ("raw", "__pycache__")]
        for f in files:
            p = os.path.join(d, f)
            try:
                with open(p, "rb") as fh:
                    if fh.read(2) != b"#!":
                        continue
            except OSError:
                continue
            seen += 1
            if not os.access(p, os.X_OK):
                bad.append(os.path.relpath(p, root))
for b in sorted(bad):
    print("not executable: %s" % b)
print("ok %d scripts" % seen if not bad else "%d of %d scripts not executable" % (len(bad), seen))
sys.exit(1 if bad else 0)
