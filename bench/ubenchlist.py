"""`phaseprobe-ubench list`, read: the one parser of its table the benches
share (bench/scaling, bench/ubench/quick_noise.py).

Python 3 standard library only."""


def parse(text):
    """uB name -> (kernel, type, access, pattern), from the table's rows
    (the header line and rows without an element type are skipped)."""
    defs = {}
    for line in text.splitlines()[1:]:
        f = line.split()
        if len(f) >= 5 and f[2] in ("double", "float", "int"):
            defs[f[0]] = (f[1], f[2], f[3], f[4])
    return defs
