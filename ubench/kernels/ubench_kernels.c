/*===- ubench_kernels.c - The uB kernels and their measurement loop -------===*
 *
 * The microbenchmarks of METHOD.md, "Stage 1": OpenMP loops over one, two or
 * three memory streams (or a small L1-resident stream under a compute chain)
 * with a controlled footprint, stride, element type, access (shared: every
 * thread walks the same region; private: each thread its own slice) and
 * pattern (strided or random). phaseprobe-ubench runs this program once per
 * thread count with OMP_NUM_THREADS / OMP_PROC_BIND / OMP_PLACES set, and
 * feeds it one configuration per stdin line; it answers one line per
 * configuration with the iterations per repetition, the stream tuples the
 * kernel touches BY CONSTRUCTION (computed here from the very regions and
 * steps the loops use) and the time of every repetition.
 *
 * Definitions kept identical to the phase file's (METHOD.md, "Terms"):
 *  - one repetition is one parallel region (one invocation); inside it every
 *    thread sweeps its region R times (R calibrated so a repetition lasts at
 *    least min_rep_s), so the footprint is the span one invocation touches;
 *  - iterations = executions of the innermost loop body by the slowest
 *    thread in one repetition; tpi = repetition time / iterations;
 *  - stride = distance between consecutive accesses of one thread: a strided
 *    stream visits its region as columns (offset 0, step, 2 step, ..., then
 *    offset 1, ...) so every element is touched once per sweep and the
 *    dominant local stride is step*elem; a random stream's "stride" is the
 *    mean |jump| between consecutive accesses, as the runtime reports it.
 *
 * Built by the project with ${PHASEPROBE_CLANG} -O2 -fopenmp (no plugin), and
 * buildable with -fplugin=libphaseprobe.so for the cross-check test.
 *
 * Input line:  ID KERNEL TYPE NSTREAMS ACCESS PATTERN K1 S1 K2 S2 K3 S3
 *              MIN_REPS MAX_REPS CV_PCT CAP_S MIN_REP_S
 *   KERNEL  sum sum3 madd add2 copy update store triad cadd cmul cfma
 *   TYPE    double float int
 *   ACCESS  one letter per stream, c (shared) or p (private); stores must be p
 *   PATTERN one letter per stream, s (strided) or r (random)
 *   Kn, Sn  footprint in KiB and stride in bytes of stream n (unused: 0)
 * Output line: ID ok ITERATIONS SWEEPS STREAMS T1,T2,...   or   ID error MESSAGE
 *   ITERATIONS per repetition (slowest thread), SWEEPS per repetition (R),
 *   STREAMS in the CSV notation k:s:e:access;... in kernel operand order.
 *   Before the measured repetitions come one calibration invocation (one
 *   sweep) and one warm-up invocation (R sweeps).
 *===----------------------------------------------------------------------===*/
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STREAMS 3
#define MAX_THREADS 1024
#define LCG_A 6364136223846793005ULL
#define LCG_C 1442695040888963407ULL

typedef struct {
  long id;
  char kernel[16], type[8], access[MAX_STREAMS + 1], pattern[MAX_STREAMS + 1];
  int ns;
  double k[MAX_STREAMS], s[MAX_STREAMS];
  int min_reps, max_reps;
  double cv_pct, cap_s, min_rep_s;
} config_t;

/* One stream as the loops see it. */
typedef struct {
  char *base;   /* allocation */
  long region;  /* elements one thread walks */
  long step;    /* elements between consecutive accesses (strided) */
  int random;   /* random pattern: LCG over the region, with replacement */
  int shift;    /* random: 64 - log2(region) */
  int priv;     /* private: thread t walks [t*region, (t+1)*region) */
  int store;    /* written by the kernel */
  long sweep;   /* accesses of one thread in one sweep of this stream */
} stream_t;

/* Per-thread position of one stream. */
typedef struct {
  long i, lo, hi, off, step;
  uint64_t x;
  int random, shift;
} walk_t;

static void walk_init(walk_t *w, const stream_t *s, int t) {
  w->lo = s->priv ? (long)t * s->region : 0;
  w->hi = w->lo + s->region;
  w->step = s->step;
  w->off = 0;
  w->random = s->random;
  w->shift = s->shift;
  w->x = 0x9E3779B97F4A7C15ULL * (uint64_t)(t + 1);
  w->i = w->lo;
  if (w->random) {
    w->x = w->x * LCG_A + LCG_C;
    w->i = w->lo + (long)(w->x >> w->shift);
  }
}

/* Advance to the next access: the column walk of a strided stream, or the
 * next LCG draw of a random one. The branch is taken once per column. */
#define WALK_NEXT(w)                                                           \
  do {                                                                         \
    if ((w).random) {                                                          \
      (w).x = (w).x * LCG_A + LCG_C;                                           \
      (w).i = (w).lo + (long)((w).x >> (w).shift);                             \
    } else {                                                                   \
      (w).i += (w).step;                                                       \
      if ((w).i >= (w).hi) {                                                   \
        if (++(w).off >= (w).step || (w).lo + (w).off >= (w).hi)               \
          (w).off = 0;                                                         \
        (w).i = (w).lo + (w).off;                                              \
      }                                                                        \
    }                                                                          \
  } while (0)

static volatile double Sink[MAX_THREADS * 8];

/* The kernels, one instance per element type. ACC is the accumulator type
 * (int sums accumulate in long long: no signed overflow). Single-stream
 * strided kernels use the plain column loops so the compiler sees the same
 * loop a phase would have; multi-stream and random kernels advance a walker
 * per stream, sized by the stream with the most accesses. */
#define DEFINE_KERNELS(T, ACC, SUFFIX)                                         \
  static void kernel_##SUFFIX(const char *K, stream_t *S, int ns, long R,     \
                              long iters) {                                    \
    _Pragma("omp parallel")                                                    \
    {                                                                          \
      int t = omp_get_thread_num();                                            \
      walk_t w[MAX_STREAMS];                                                   \
      for (int q = 0; q < ns; ++q)                                             \
        walk_init(&w[q], &S[q], t);                                            \
      T *a = (T *)S[0].base;                                                   \
      T *b = ns > 1 ? (T *)S[1].base : a;                                      \
      T *c = ns > 2 ? (T *)S[2].base : a;                                      \
      ACC acc = 0, c0 = 1, c1 = 1, c2 = 1, c3 = 1;                             \
      int plain = ns == 1 && !S[0].random;                                     \
      long lo = w[0].lo, hi = w[0].hi, st = w[0].step;                         \
      if (!strcmp(K, "sum") && plain) {                                        \
        for (long r = 0; r < R; ++r)                                           \
          for (long o = 0; o < st && lo + o < hi; ++o)                         \
            for (long i = lo + o; i < hi; i += st)                             \
              acc += a[i];                                                     \
      } else if (!strcmp(K, "update") && plain) {                              \
        for (long r = 0; r < R; ++r)                                           \
          for (long o = 0; o < st && lo + o < hi; ++o)                         \
            for (long i = lo + o; i < hi; i += st)                             \
              a[i] = a[i] * (T)3 + (T)1;                                       \
      } else if (!strcmp(K, "store") && plain) {                               \
        for (long r = 0; r < R; ++r)                                           \
          for (long o = 0; o < st && lo + o < hi; ++o)                         \
            for (long i = lo + o; i < hi; i += st)                             \
              a[i] = (T)r;                                                     \
      } else if (!strcmp(K, "sum")) {                                          \
        for (long n = 0; n < R * iters; ++n) {                                 \
          acc += a[w[0].i];                                                    \
          WALK_NEXT(w[0]);                                                     \
        }                                                                      \
      } else if (!strcmp(K, "update")) {                                       \
        for (long n = 0; n < R * iters; ++n) {                                 \
          a[w[0].i] = a[w[0].i] * (T)3 + (T)1;                                 \
          WALK_NEXT(w[0]);                                                     \
        }                                                                      \
      } else if (!strcmp(K, "store")) {                                        \
        for (long n = 0; n < R * iters; ++n) {                                 \
          a[w[0].i] = (T)n;                                                    \
          WALK_NEXT(w[0]);                                                     \
        }                                                                      \
      } else if (!strcmp(K, "madd")) {                                         \
        for (long n = 0; n < R * iters; ++n) {                                 \
          acc += a[w[0].i] * b[w[1].i];                                        \
          WALK_NEXT(w[0]);                                                     \
          WALK_NEXT(w[1]);                                                     \
        }                                                                      \
      } else if (!strcmp(K, "add2")) {                                         \
        for (long n = 0; n < R * iters; ++n) {                                 \
          acc += a[w[0].i] + b[w[1].i];                                        \
          WALK_NEXT(w[0]);                                                     \
          WALK_NEXT(w[1]);                                                     \
        }                                                                      \
      } else if (!strcmp(K, "copy")) {                                         \
        for (long n = 0; n < R * iters; ++n) {                                 \
          b[w[1].i] = a[w[0].i];                                               \
          WALK_NEXT(w[0]);                                                     \
          WALK_NEXT(w[1]);                                                     \
        }                                                                      \
      } else if (!strcmp(K, "sum3")) {                                         \
        for (long n = 0; n < R * iters; ++n) {                                 \
          acc += a[w[0].i] + b[w[1].i] + c[w[2].i];                            \
          WALK_NEXT(w[0]);                                                     \
          WALK_NEXT(w[1]);                                                     \
          WALK_NEXT(w[2]);                                                     \
        }                                                                      \
      } else if (!strcmp(K, "triad")) {                                        \
        for (long n = 0; n < R * iters; ++n) {                                 \
          a[w[0].i] = b[w[1].i] + (T)3 * c[w[2].i];                            \
          WALK_NEXT(w[0]);                                                     \
          WALK_NEXT(w[1]);                                                     \
          WALK_NEXT(w[2]);                                                     \
        }                                                                      \
      } else if (K[0] == 'c') { /* cadd, cmul, cfma: 4 chains x 4 ops */       \
        int op = K[1] == 'a' ? 0 : K[1] == 'm' ? 1 : 2;                        \
        for (long r = 0; r < R; ++r)                                           \
          for (long i = lo; i < hi; ++i) {                                     \
            T x = a[i];                                                        \
            if (op == 0) {                                                     \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
            } else if (op == 1) {                                              \
              c0 = c0 * x; c1 = c1 * x; c2 = c2 * x; c3 = c3 * x;              \
              c0 = c0 * x; c1 = c1 * x; c2 = c2 * x; c3 = c3 * x;              \
              c0 = c0 * x; c1 = c1 * x; c2 = c2 * x; c3 = c3 * x;              \
              c0 = c0 * x; c1 = c1 * x; c2 = c2 * x; c3 = c3 * x;              \
            } else {                                                           \
              c0 = c0 * x + x; c1 = c1 * x + x; c2 = c2 * x + x;               \
              c3 = c3 * x + x; c0 = c0 * x + x; c1 = c1 * x + x;               \
              c2 = c2 * x + x; c3 = c3 * x + x; c0 = c0 * x + x;               \
              c1 = c1 * x + x; c2 = c2 * x + x; c3 = c3 * x + x;               \
              c0 = c0 * x + x; c1 = c1 * x + x; c2 = c2 * x + x;               \
              c3 = c3 * x + x;                                                 \
            }                                                                  \
          }                                                                    \
      }                                                                        \
      Sink[t * 8] = (double)acc + (double)(c0 + c1 + c2 + c3);                 \
    }                                                                          \
  }

DEFINE_KERNELS(double, double, double)
DEFINE_KERNELS(float, float, float)
DEFINE_KERNELS(int, long long, int)

static int is_store(const char *K, int q) {
  return (!strcmp(K, "update") || !strcmp(K, "store") || !strcmp(K, "triad")) ? q == 0
         : !strcmp(K, "copy")                                                   ? q == 1
                                                                                : 0;
}

static int kernel_streams(const char *K) {
  if (!strcmp(K, "sum") || !strcmp(K, "update") || !strcmp(K, "store") ||
      !strcmp(K, "cadd") || !strcmp(K, "cmul") || !strcmp(K, "cfma"))
    return 1;
  if (!strcmp(K, "madd") || !strcmp(K, "add2") || !strcmp(K, "copy")) return 2;
  if (!strcmp(K, "sum3") || !strcmp(K, "triad")) return 3;
  return 0;
}

static double mean_abs_jump(const stream_t *S, size_t elem) {
  walk_t w;
  walk_init(&w, S, 0);
  long n = S->sweep < 100000 ? S->sweep : 100000;
  double sum = 0;
  for (long k = 1; k < n; ++k) {
    long prev = w.i;
    WALK_NEXT(w);
    sum += (double)labs(w.i - prev);
  }
  return n > 1 ? sum / (double)(n - 1) * (double)elem : 0;
}

/* Runs one configuration; writes the answer line to stdout. */
static void run_config(const config_t *C, int threads) {
#define FAIL(...)                                                              \
  do {                                                                         \
    printf("%ld error ", C->id);                                               \
    printf(__VA_ARGS__);                                                       \
    printf("\n");                                                              \
    goto out;                                                                  \
  } while (0)
  stream_t S[MAX_STREAMS];
  memset(S, 0, sizeof S);
  double *times = NULL;
  size_t elem = !strcmp(C->type, "double") ? 8 : 4;
  int ns = kernel_streams(C->kernel);
  if (ns == 0) FAIL("unknown kernel '%s'", C->kernel);
  if (strcmp(C->type, "double") && strcmp(C->type, "float") && strcmp(C->type, "int"))
    FAIL("unknown type '%s'", C->type);
  if (C->kernel[0] == 'c' && C->kernel[1] != 'o' && !strcmp(C->type, "int"))
    FAIL("compute kernels are float or double");
  if (ns != C->ns) FAIL("kernel %s has %d streams, not %d", C->kernel, ns, C->ns);
  if ((int)strlen(C->access) != ns || (int)strlen(C->pattern) != ns)
    FAIL("access and pattern need one letter per stream");
  if (threads > MAX_THREADS) FAIL("more than %d threads", MAX_THREADS);
  long iters = 0;
  for (int q = 0; q < ns; ++q) {
    stream_t *s = &S[q];
    s->priv = C->access[q] == 'p';
    s->random = C->pattern[q] == 'r';
    s->store = is_store(C->kernel, q);
    if (!s->priv && C->access[q] != 'c') FAIL("access letter '%c' is not c or p", C->access[q]);
    if (!s->random && C->pattern[q] != 's') FAIL("pattern letter '%c' is not s or r", C->pattern[q]);
    if (s->store && !s->priv) FAIL("stream %d is written and must be private", q + 1);
    double bytes = C->k[q] * 1024.0;
    long n = (long)(bytes / (double)elem);
    s->region = s->priv ? n / threads : n;
    if (s->region < 1) FAIL("stream %d: footprint %g KiB is too small", q + 1, C->k[q]);
    if (s->random) {
      int lg = 0;
      while ((2L << lg) <= s->region) ++lg;
      s->region = 1L << lg;
      s->shift = 64 - lg;
      if (lg == 0) FAIL("stream %d: a random stream needs 2 elements or more", q + 1);
      s->step = 1;
    } else {
      double st = C->s[q] / (double)elem;
      if (st < 1 || st != floor(st))
        FAIL("stream %d: stride %g B is not a multiple of the %zu-byte element", q + 1, C->s[q],
             elem);
      s->step = (long)st;
      /* Below 4 steps per column the column jumps would dominate: the
       * declared stride would not be what the runtime measures. */
      if (s->region < 4 * s->step && C->kernel[0] != 'c')
        FAIL("stream %d: footprint %g KiB holds fewer than 4 strides of %g B per thread",
             q + 1, C->k[q], C->s[q]);
    }
    s->sweep = s->region;
    if (s->sweep > iters) iters = s->sweep;
    size_t total = (size_t)(s->priv ? s->region * threads : s->region) * elem;
    s->base = aligned_alloc(4096, (total + 4095) / 4096 * 4096);
    if (!s->base) FAIL("cannot allocate %zu bytes", total);
    /* First touch by the thread that walks the data (NUMA-local pages). */
    long cnt = (long)(total / elem);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < cnt; ++i) {
      if (elem == 8)
        ((double *)s->base)[i] = 1.0 + 1e-9 * (double)(i & 7);
      else if (!strcmp(C->type, "float"))
        ((float *)s->base)[i] = 1.0f + 1e-6f * (float)(i & 7);
      else
        ((int *)s->base)[i] = (int)(i & 7) + 1;
    }
  }
  /* Every stream is swept completely at least once per sweep: loops run for
   * the stream with the most accesses, smaller streams wrap. */
  void (*fn)(const char *, stream_t *, int, long, long) =
      elem == 8 ? kernel_double : !strcmp(C->type, "float") ? kernel_float : kernel_int;

  /* Calibrate R: one sweep, then enough sweeps for min_rep_s. */
  double t0 = omp_get_wtime();
  fn(C->kernel, S, ns, 1, iters);
  double one = omp_get_wtime() - t0;
  long R = 1;
  if (one < C->min_rep_s) R = (long)ceil(C->min_rep_s / (one > 1e-7 ? one : 1e-7));
  if (R > 1000000) R = 1000000;
  fn(C->kernel, S, ns, R, iters); /* warm-up at the measured size */

  times = malloc(sizeof(double) * (size_t)(C->max_reps > 0 ? C->max_reps : 1));
  int count = 0;
  double start = omp_get_wtime();
  for (;;) {
    double a = omp_get_wtime();
    fn(C->kernel, S, ns, R, iters);
    times[count++] = omp_get_wtime() - a;
    if (count >= C->max_reps) break;
    if (omp_get_wtime() - start >= C->cap_s && count >= 2) break;
    if (count >= C->min_reps) {
      double m = 0, v = 0;
      for (int i = 0; i < count; ++i) m += times[i];
      m /= count;
      for (int i = 0; i < count; ++i) v += (times[i] - m) * (times[i] - m);
      double sd = sqrt(v / (count - 1));
      if (m > 0 && sd / m * 100.0 <= C->cv_pct) break;
    }
  }
  /* Declared streams, in kernel operand order. */
  printf("%ld ok %.17g %ld ", C->id, (double)R * (double)iters, R);
  for (int q = 0; q < ns; ++q) {
    const stream_t *s = &S[q];
    double span = (double)(s->priv ? s->region * threads : s->region) * (double)elem;
    double stride = s->random ? mean_abs_jump(s, elem) : (double)(s->step * (long)elem);
    if (s->random) stride = floor(stride / (double)elem + 0.5) * (double)elem;
    printf("%s%.17g:%.17g:%zu:%s", q ? ";" : "", span / 1024.0, stride, elem,
           s->priv ? "private" : "shared");
  }
  printf(" ");
  for (int i = 0; i < count; ++i) printf("%s%.9g", i ? "," : "", times[i]);
  printf("\n");
out:
  fflush(stdout);
  free(times);
  for (int q = 0; q < MAX_STREAMS; ++q) free(S[q].base);
#undef FAIL
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc != 1) {
    fprintf(stderr, "phaseprobe-ubench-kernels: reads configurations on stdin; "
                    "run it through phaseprobe-ubench\n");
    return 2;
  }
  int threads = omp_get_max_threads();
  printf("ready threads=%d\n", threads);
  fflush(stdout);
  char line[1024];
  while (fgets(line, sizeof line, stdin)) {
    if (line[0] == '\n' || line[0] == '#') continue;
    config_t C;
    memset(&C, 0, sizeof C);
    int got = sscanf(line, "%ld %15s %7s %d %3s %3s %lf %lf %lf %lf %lf %lf %d %d %lf %lf %lf",
                     &C.id, C.kernel, C.type, &C.ns, C.access, C.pattern, &C.k[0], &C.s[0],
                     &C.k[1], &C.s[1], &C.k[2], &C.s[2], &C.min_reps, &C.max_reps,
                     &C.cv_pct, &C.cap_s, &C.min_rep_s);
    if (got != 17) {
      printf("%ld error malformed configuration line (%d fields)\n", got > 0 ? C.id : -1L, got);
      fflush(stdout);
      continue;
    }
    if (C.min_reps < 1) C.min_reps = 1;
    if (C.max_reps < C.min_reps) C.max_reps = C.min_reps;
    run_config(&C, threads);
  }
  return 0;
}
