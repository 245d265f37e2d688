// A sampling copy keeps the program's store-to-load forwarding: a shared
// scalar written in the loop body (a race between threads that the plain
// build survives, since every thread reads back its own value from a
// register) is not loaded again in the copy. With a sample call before each
// access, the body grew past the optimizer's scan limit between the store
// and the use, the copy reloaded the scalar and read another thread's value:
// NPB BT class W (lhsx's tmp3) failed its verification at 2 threads. The
// samples now go at the end of each block.
// RUN: %clang -O2 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck %s
// CHECK-LABEL: define internal {{.*}}@.omp_outlined..ppsampled(
// CHECK-NOT: load double, double* @tmp
// CHECK: call void @__phaseprobe_sample(
// CHECK-NOT: load double, double* @tmp
// CHECK: {{^}}}
static double tmp;
double a[4096][48];

void f(int n, const double *u, const double *v) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    tmp = 1.0 / u[i];
    a[i][0] = v[i] * 1.0;
    a[i][1] = v[i] * 2.0;
    a[i][2] = v[i] * 3.0;
    a[i][3] = v[i] * 4.0;
    a[i][4] = v[i] * 5.0;
    a[i][5] = v[i] * 6.0;
    a[i][6] = v[i] * 7.0;
    a[i][7] = v[i] * 8.0;
    a[i][8] = v[i] * 9.0;
    a[i][9] = v[i] * 10.0;
    a[i][10] = v[i] * 11.0;
    a[i][11] = v[i] * 12.0;
    a[i][12] = v[i] * 13.0;
    a[i][13] = v[i] * 14.0;
    a[i][14] = v[i] * 15.0;
    a[i][15] = v[i] * 16.0;
    a[i][16] = v[i] * 17.0;
    a[i][17] = v[i] * 18.0;
    a[i][18] = v[i] * 19.0;
    a[i][19] = v[i] * 20.0;
    a[i][20] = v[i] * 21.0;
    a[i][21] = v[i] * 22.0;
    a[i][22] = v[i] * 23.0;
    a[i][23] = v[i] * 24.0;
    a[i][24] = v[i] * 25.0;
    a[i][25] = v[i] * 26.0;
    a[i][26] = v[i] * 27.0;
    a[i][27] = v[i] * 28.0;
    a[i][28] = v[i] * 29.0;
    a[i][29] = v[i] * 30.0;
    a[i][30] = v[i] * 31.0;
    a[i][31] = v[i] * 32.0;
    a[i][32] = v[i] * 33.0;
    a[i][33] = v[i] * 34.0;
    a[i][34] = v[i] * 35.0;
    a[i][35] = v[i] * 36.0;
    a[i][36] = v[i] * 37.0;
    a[i][37] = v[i] * 38.0;
    a[i][38] = v[i] * 39.0;
    a[i][39] = v[i] * 40.0;
    a[i][47] = tmp;
  }
}
