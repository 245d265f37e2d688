#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  double *a = malloc(sizeof(double) * n), s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = 0.5 * i;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += a[i];
  printf("sum %.1f\n", s);
  free(a);
  return 0;
}
