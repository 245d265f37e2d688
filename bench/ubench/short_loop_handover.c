/* bench/ubench/short_loop_handover.c — what NPB SP W's lhs loops pay for
 * lines another loop wrote last. Each time step runs a short-loop nest
 * (for j, k: an `omp for` over i of 34 rows writing NL = 5 arrays at
 * [n][i][j][k], one statement each, SP's lhsx) and then a sweep that rewrites the same arrays
 * split over j ("flipped": x_solve's split, so at two threads half of the
 * lines the short loops write next step are the other thread's) or over i
 * as the short loops are ("same"). At one thread the two modes differ only
 * in the sweep's order.
 * Usage: short_loop_handover MODE STEPS   (MODE: same | flipped)
 * Prints: threads us_invocation us_sweep — the short loops' wall time per
 * invocation (its implicit barrier included) and the sweep's per step,
 * means over the STEPS timed steps after one untimed. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 36
#define NL 5
static double lhs[NL][N][N][N], us[N][N][N], rho[N][N][N];

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "same") && strcmp(argv[1], "flipped")) || atoi(argv[2]) < 1) {
    fprintf(stderr, "usage: short_loop_handover same|flipped STEPS\n");
    return 2;
  }
  const int Flipped = !strcmp(argv[1], "flipped"), Steps = atoi(argv[2]);
  for (int a = 0; a < N; a++)
    for (int b = 0; b < N; b++)
      for (int c = 0; c < N; c++) {
        us[a][b][c] = a + b * 0.5 + c;
        rho[a][b][c] = 1.0 / (1 + a + b + c);
      }
  double Loops = 0, Sweeps = 0;
  long Invocations = 0;
#pragma omp parallel
  for (int s = 0; s <= Steps; s++) {
    double T0 = omp_get_wtime();
    for (int j = 1; j < N - 1; j++)
      for (int k = 1; k < N - 1; k++) {
#pragma omp for
        for (int i = 1; i < N - 1; i++) {
          // One statement an array, as SP's lhsx writes them.
          lhs[0][i][j][k] = 0.0;
          lhs[1][i][j][k] = 0.5 * us[i][j][k] - rho[i][j][k];
          lhs[2][i][j][k] = 1.0 + 2.0 * rho[i][j][k];
          lhs[3][i][j][k] = 0.5 * us[i][j][k] + rho[i][j][k];
          lhs[4][i][j][k] = 0.0;
        }
      }
    double T1 = omp_get_wtime();
    if (Flipped) {
#pragma omp for
      for (int j = 1; j < N - 1; j++)
        for (int i = 1; i < N - 1; i++)
          for (int n = 0; n < NL; n++)
            for (int k = 1; k < N - 1; k++)
              lhs[n][i][j][k] = lhs[n][i][j][k] * 0.999 + 0.001;
    } else {
#pragma omp for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          for (int n = 0; n < NL; n++)
            for (int k = 1; k < N - 1; k++)
              lhs[n][i][j][k] = lhs[n][i][j][k] * 0.999 + 0.001;
    }
    double T2 = omp_get_wtime();
#pragma omp master
    if (s > 0) {
      Loops += T1 - T0;
      Sweeps += T2 - T1;
      Invocations += (N - 2) * (N - 2);
    }
  }
  printf("%d %.4f %.2f %g\n", omp_get_max_threads(), Loops / Invocations * 1e6, Sweeps / Steps * 1e6,
         lhs[1][5][5][5]);
  return 0;
}
