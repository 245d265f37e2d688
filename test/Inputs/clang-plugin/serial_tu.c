// A translation unit compiled with the plugin but without -fopenmp (see
// Plugin_serial_tu_exec.c): it has no constructs, but its loops are counted.
long triangle(int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += j;
  return s;
}
