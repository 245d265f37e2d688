/* bt.h - shared declarations of the bt example (see bt.c). */
#ifndef PHASEPROBE_EXAMPLE_BT_H
#define PHASEPROBE_EXAMPLE_BT_H

#define BT_NC 5 /* solution components per grid point, as in NAS BT */

/* Index of component m at grid point (i, j, k) of an n^3 grid. */
#define BT_IDX(n, i, j, k, m) (((((long)(k) * (n) + (j)) * (n) + (i)) * BT_NC) + (m))

/* Orphaned worksharing sweeps (bt_solve.c), called inside a parallel region. */
void bt_compute_rhs(int n, const double *u, double *rhs);
void bt_x_solve(int n, double *rhs);
void bt_y_solve(int n, double *rhs);
void bt_z_solve(int n, double *rhs);
void bt_add(int n, double *u, const double *rhs);

#endif
