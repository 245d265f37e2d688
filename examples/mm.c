/* mm.c - row-partitioned dense matrix multiply, C = A * B (N x N doubles).
 *
 * One dominant phase: the `parallel for` over the rows of C. The inner k loop
 * walks a column of B (stride N * 8 bytes) and a row of A (stride 8), the
 * memory behaviour of the original study's MM example.
 * Usage: mm [N]   (default 512); prints a checksum of C. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 512;
  if (n <= 0) {
    fprintf(stderr, "mm: N must be a positive integer\n");
    return 2;
  }
  double *a = malloc(sizeof(double) * n * n);
  double *b = malloc(sizeof(double) * n * n);
  double *c = malloc(sizeof(double) * n * n);
  if (!a || !b || !c) {
    fprintf(stderr, "mm: out of memory for N=%d\n", n);
    return 1;
  }
  for (long i = 0; i < (long)n * n; i++) {
    a[i] = (double)(i % 7) * 0.5;
    b[i] = (double)(i % 5) * 0.25;
  }

#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double sum = 0.0;
      for (int k = 0; k < n; k++)
        sum += a[(long)i * n + k] * b[(long)k * n + j];
      c[(long)i * n + j] = sum;
    }

  double check = 0.0;
  for (long i = 0; i < (long)n * n; i++)
    check += c[i];
  printf("mm N=%d checksum %.6e\n", n, check);
  free(a);
  free(b);
  free(c);
  return 0;
}
