/* nbody.c - direct-summation N-body steps (softened gravity).
 *
 * One dominant, compute-heavy phase: the force `parallel for` (N^2 pair
 * interactions per step, a square root and a division each). A cheap second
 * `parallel for` advances the bodies.
 * Usage: nbody [N] [steps]   (default 2048 4); prints a checksum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y, z, vx, vy, vz, m;
} Body;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048;
  int steps = argc > 2 ? atoi(argv[2]) : 4;
  if (n <= 0 || steps <= 0) {
    fprintf(stderr, "nbody: N and steps must be positive integers\n");
    return 2;
  }
  Body *p = malloc(sizeof(Body) * n);
  double *ax = malloc(sizeof(double) * n), *ay = malloc(sizeof(double) * n),
         *az = malloc(sizeof(double) * n);
  if (!p || !ax || !ay || !az) {
    fprintf(stderr, "nbody: out of memory for N=%d\n", n);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    p[i].x = (i % 17) - 8.0;
    p[i].y = (i % 13) * 0.5;
    p[i].z = (i % 11) * 0.25 - 1.0;
    p[i].vx = p[i].vy = p[i].vz = 0.0;
    p[i].m = 1.0 + (i % 3);
  }
  const double dt = 0.01, eps2 = 1e-3;
  for (int s = 0; s < steps; s++) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
      double fx = 0.0, fy = 0.0, fz = 0.0;
      for (int j = 0; j < n; j++) {
        double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
        double r2 = dx * dx + dy * dy + dz * dz + eps2;
        double inv = 1.0 / (r2 * sqrt(r2));
        fx += p[j].m * dx * inv;
        fy += p[j].m * dy * inv;
        fz += p[j].m * dz * inv;
      }
      ax[i] = fx;
      ay[i] = fy;
      az[i] = fz;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
      p[i].vx += ax[i] * dt;
      p[i].vy += ay[i] * dt;
      p[i].vz += az[i] * dt;
      p[i].x += p[i].vx * dt;
      p[i].y += p[i].vy * dt;
      p[i].z += p[i].vz * dt;
    }
  }
  double check = 0.0;
  for (int i = 0; i < n; i++)
    check += p[i].x + 2.0 * p[i].y + 3.0 * p[i].z;
  printf("nbody N=%d steps=%d checksum %.6e\n", n, steps, check);
  free(p);
  free(ax);
  free(ay);
  free(az);
  return 0;
}
