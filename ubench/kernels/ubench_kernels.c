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
 *  - where the threads outnumber the CPUs they are bound to (two on one
 *    core), each yields the CPU after a sweep (HANDOVER), as a program's
 *    threads hand the core over at every barrier; the ready line says
 *    whether it does (shares_cpus=yes|no handover=on|off);
 *  - the loops have an application's shape: R sweeps around innermost loop
 *    executions in which every stream moves by its step without leaving its
 *    region or column (never a wrap inside one execution), because the
 *    phaseprobe runtime extrapolates a sampled execution's range from its
 *    first accesses, its stride and its trip count (see SEGMENTS);
 *  - iterations = executions of the innermost loop body by the slowest
 *    thread in one repetition (R x the accesses of the stream with most
 *    accesses); tpi = repetition time / iterations;
 *  - stride = distance between consecutive accesses of one thread: a strided
 *    stream visits its region as columns (offset 0, step, 2 step, ..., then
 *    offset 1, ...) so every element is touched once per sweep and the
 *    dominant local stride is step*elem; a random stream's "stride" is the
 *    mean |jump| between consecutive accesses, as the runtime reports it;
 *  - a random stream draws uniformly over its region, or, asked for a
 *    stride of J > 1 elements, searches it: the region is cut into blocks
 *    of about 30 J elements, and each loop execution of WALK_EXEC accesses
 *    is a binary search in one block drawn uniformly: its middle, then a
 *    quarter of the block either way, an eighth, ... (mean |jump| about J).
 *    That is what XSBench's binary searches over a 36 MB table do (68
 *    tables of 540 KB, a 21 KB mean jump): the first probes of a block
 *    repeat and stay in the cache, the last ones are close together. A
 *    walk with uniform steps of the same mean jump (this kernel before)
 *    misses on nearly every access and took 1.5x as long per access
 *    (bench/results/search-shape-2026-11-23.txt). The runtime's jumps are
 *    those inside a loop execution, and so are the declared ones.
 *
 * Built by the project with ${PHASEPROBE_CLANG} -O2 -fopenmp (no plugin), and
 * buildable with -fplugin=libphaseprobe.so for the cross-check test.
 *
 * Input line:  ID KERNEL TYPE NSTREAMS ACCESS PATTERN K1 S1 K2 S2 K3 S3
 *              MIN_REPS MAX_REPS CV_PCT CAP_S MIN_REP_S
 *              [WORK [REP W1 W2 W3 [WORK_EVERY [B1 B2 B3 [COPIES [JUMP]]]]]]
 *   KERNEL  sum sum3 madd add2 copy axpy update store triad cadd cmul cfma cdiv
 *           csqrt ctadd ctmul, and
 *           sumb: sum with a barrier after every sweep (strided only),
 *           sumf: sum with a spin-wait handoff between neighbouring threads
 *           after every sweep (strided only; see Handoff),
 *           sumw: sum with every sweep an `omp for nowait` invocation of
 *           its own, one iteration a thread (its slice; strided only): the
 *           fixed cost of a worksharing loop's invocation beside sum,
 *           which yields the same way,
 *           touch: one store per page of a thread's slice, the stream
 *           given back to the system (madvise MADV_DONTNEED) by the master
 *           before every sweep: every store is a first-touch page fault
 *           (the stride must be the page size; an iteration is a page;
 *           only the stores are timed),
 *           release: the same sweeps, but what is timed is the master's
 *           give-back of the whole stream after each (an iteration is a
 *           page of a thread's slice, as for touch): what a program's
 *           serial code spends returning its temporaries to the system,
 *           dearer where the team's threads touched them from other CPUs
 *           (their TLBs are shot down),
 *           flip: an update (as update) of a private stream taken as one
 *           array in 64 KiB blocks dealt out to the threads, block b to
 *           thread (b + g) mod T in sweep g, a barrier after each: at two
 *           threads or more every line was last written by another thread
 *           (element stride only),
 *           keep: the same with block b to thread b mod T in every sweep
 *           (flip's reference: the difference is the hand-overs),
 *           gather: s += a[i] * x[idx[i]], a CSR sparse matrix-vector
 *           product's inner loop (TYPE double; streams a, idx, x with
 *           patterns s, s, r): idx is a stream of int (4-byte) indices,
 *           drawn uniformly over x's region, through which x is read;
 *           with patterns s, s, s (every stream at element stride) a
 *           banded matrix's rows instead, each summed on its own and
 *           reading the elements of x around its diagonal (GATHER_ROWS). A
 *           dependent sum of one stream (sum) runs at the add's latency
 *           at any footprint; this loop streams 12 bytes an iteration and
 *           gathers: over NPB CG A's arrays it scales 2.2x from two cores
 *           to one where the sum scales 2.0x
 *           (bench/results/gather-scaling-2026-11-24*.txt)
 *   TYPE    double float int
 *   ACCESS  one letter per stream, c (shared) or p (private); a written
 *           shared stream (strided, no window nor span) is split by
 *           columns: thread t writes columns [t*step/T, (t+1)*step/T)
 *   PATTERN one letter per stream, s (strided) or r (random)
 *   Kn, Sn  footprint in KiB and stride in bytes of stream n (unused: 0); a
 *           random stream's Sn is its mean jump (<= one element: uniform)
 *   WORK    padding (memory kernels, default 0): WORK steps of 4 independent
 *           multiply-add chains after every iteration's accesses, so that a
 *           phase clone can do the arithmetic its phase does between
 *           accesses (phaseprobe-ubench clone --calibrate). A padded
 *           configuration runs in its own function and parallel region: the
 *           padding loop is never the innermost loop of an unpadded one.
 *   REP Wn  reuse windows (phase clones): strided stream n walks its next Wn
 *           accesses REP times in a row, one loop execution each time, then
 *           the next Wn (0: no window). A matrix product re-reads a row of
 *           A for every column of B; a walk of the whole matrix does not,
 *           and its clone ran 1.3x slower than it. The stream's region is
 *           cut to whole windows and a sweep walks it REP times.
 *   WORK_EVERY  WORK steps per WORK_EVERY iterations (1 to 64, default
 *           1), spread evenly: an iteration runs a step each time the
 *           running count of WORK per iteration passes another
 *           WORK_EVERY (1/M: a step after every M-th iteration; 3/2: one,
 *           two, one, two...). A step costs about the latency of a
 *           multiply and an add (the chains are carried), 1.1-2 ns on the
 *           development VM: whole steps are too coarse for a phase 0.5 ns
 *           slower per iteration than its clone (NPB CG's sparse mat-vec)
 *           and for most phases within a few steps of theirs.
 *   Bn      column span (phase clones): strided stream n's region is cut
 *           into blocks of Bn x step elements (the last one the rest), each
 *           walked column by column (Bn accesses a column, one loop
 *           execution) before the next block (0: one block, the whole
 *           region; a step of one element is one column: ignored). A 3-D
 *           sweep along its slowest axes walks one plane at a time: the
 *           example bt's y sweep, 64 accesses 2560 B apart, comes back to a
 *           plane's lines within the plane; walked over a whole 10 MiB
 *           slice instead its
 *           clone took 4.5 ns an access at one thread and 2.5 at two, in
 *           blocks 0.73 and 0.69 (the loop itself scales 2.0x;
 *           bench/ubench/column_span.py).
 *           gather with a random x (spmv3): B1 is its rows' length
 *           instead, each row summed on its own (GATHER_ROWS), as NPB CG's
 *           SpMV sums its rows of 135: at two threads such rows ran
 *           10-14% faster per element than one sum over the slice on the
 *           AMD EPYC VM (bench/results/gather-rows-2026-11-28.txt).
 *   COPIES  reuse copies (phase clones, 1 to 64, default 1): every
 *           stream's region exists COPIES times and sweep g walks copy
 *           g mod COPIES, so that as much data passes between two sweeps
 *           of one copy as a program touches between two executions of the
 *           phase. The kernels sweep the same region again and again: the
 *           example bt's y sweep (34 MiB) came back from the cache a core
 *           gets at two threads (17 MiB a thread) and not at one, its
 *           clone up to 1.16x slower per thread at one (run el's NPPDB;
 *           how much varies by the minute), the loop 1.0x; over 4 copies
 *           0.99-1.00x (bench/results/slice-copies-2026-11-25-xeon-
 *           padded.txt). The
 *           declared footprint is one copy's (gather: each copy has its
 *           own indices into its own x). Not for touch, sumb, sumf nor the
 *           compute kernels.
 *   JUMP    jumping runs (0 or 1, default 0): a stream with a column span
 *           walks one column of a block (Bn accesses, one loop execution),
 *           then one column of a block drawn at random, and so on, as
 *           RSBench's lookups each read a window of poles at a random
 *           energy. Its blocks in order instead, nine executions re-read
 *           one block's lines and the prefetcher brings the next.
 * Output line: ID ok ITERATIONS SWEEPS STREAMS T1,T2,...   or   ID error MESSAGE
 *   ITERATIONS per repetition (slowest thread), SWEEPS per repetition (R),
 *   STREAMS in the CSV notation k:s:e:access;... in kernel operand order.
 *   Before the measured repetitions come one calibration invocation (one
 *   sweep) and one warm-up invocation (R sweeps).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_STREAMS 3
#define MAX_THREADS 1024
#define LCG_A 6364136223846793005ULL
#define LCG_C 1442695040888963407ULL
#define WALK_EXEC 16

typedef struct {
  long id;
  char kernel[16], type[8], access[MAX_STREAMS + 1], pattern[MAX_STREAMS + 1];
  int ns;
  double k[MAX_STREAMS], s[MAX_STREAMS];
  long work, repeats, window[MAX_STREAMS], work_every, span[MAX_STREAMS], copies;
  int jump;
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
  long reach;   /* random search: blocks of reach elements; 0: uniform */
  int priv;     /* private: thread t walks [t*region, (t+1)*region) */
  int split;    /* threads splitting the columns of a written shared stream
                 * (0: none): thread t walks columns [t*step/split,
                 * (t+1)*step/split) of the one region, as the threads of a
                 * sweep along a slow axis write their own lines of it */
  int store;    /* written by the kernel */
  long sweep;   /* accesses of one thread in one sweep of this stream */
  long window;  /* strided: accesses of a reuse window (0: none) */
  long repeats; /* consecutive walks of each window (window > 0) */
  long span;    /* strided: accesses per column inside a block (0: none) */
  int jump;     /* span walked in jumping runs: one column of a random block,
                 * then another (JUMP) */
  long row;     /* gather's matrix (S[0]): elements of a row, each summed on
                 * its own (0: one sum over the sweep, or a banded matrix's
                 * rows of its own length) */
  long copies;  /* regions allocated one after another (S[0]'s: all streams') */
  size_t cbytes; /* bytes from one copy of the region to the next */
} stream_t;

/* Per-thread position of one stream: a strided stream is at element pos of
 * column off of the block of bcur elements that starts at blo, with left
 * accesses to go in that column (columns o < extra hold full + 1
 * elements, the others full); blocks hold blen elements, the last one the
 * rest (without a span one block, the whole region); a random stream at
 * LCG state x, whose draw is the next access (a random walk at element
 * lo + at). */
typedef struct {
  long lo, hi, step, off, pos, left, full, extra, at, half, reach, blo, blen, bcur;
  /* The columns this thread walks, [olo, ohi) (all: 0 to step), and its
   * accesses in one sweep of them (own). */
  long olo, ohi, own;
  uint64_t x;
  int random, shift;
  /* A reuse window: the next wlen accesses of the walk, walked wrep times
   * in a row (count: walks done) from the position saved at its start
   * (soff, spos, sleft); wleft accesses to go in this walk of it. */
  long wlen, wrep, wcount, wleft, soff, spos, sleft;
  /* The region's blocks: the last is the first with fewer than blen + 4
   * steps left, and holds the rest (walk_block); jumping runs draw one. */
  int jump;
  long blocks;
} walk_t;

/* The next element (from lo) of a random stream, from the LCG state *X: a
 * uniform draw, or (REACH > 0) the next probe of a binary search: *AT, after
 * which the search moves *HALF / 2 either way (the direction: the draw's top
 * bit, as a key compared with the probe would choose). The probes never
 * leave the block walk_restart chose: B/2 + B/4 + ... < B. */
static inline long random_next(uint64_t *x, long *at, long *half, int shift, long reach) {
  uint64_t v = *x;
  *x = v * LCG_A + LCG_C;
  if (!reach) return (long)(v >> shift);
  long p = *at;
  *half /= 2;
  *at = (v >> 63) ? p + *half : p - *half;
  return p;
}

/* A search's next loop execution: the middle of a block drawn uniformly
 * among the region's whole blocks. */
static inline void walk_restart(walk_t *w) {
  uint64_t blocks = (uint64_t)((w->hi - w->lo) / w->reach);
  long b = (long)(((w->x >> 32) * blocks) >> 32);
  w->x = w->x * LCG_A + LCG_C;
  w->half = w->reach / 2;
  w->at = b * w->reach + w->half;
  w->left = WALK_EXEC;
}

/* Enters the block that starts at blo: blen elements, or the rest of the
 * region where fewer than blen + 4 steps are left (a last block of a few
 * rows would make loop executions of a few accesses). The region is not
 * cut to whole blocks: its footprint is the same at every thread count. */
static inline void walk_block(walk_t *w) {
  long rest = w->hi - w->blo;
  w->bcur = rest < w->blen + 4 * w->step ? rest : w->blen;
  w->full = w->bcur / w->step;
  w->extra = w->bcur % w->step;
}

/* A jumping run's next column: one of the region's blocks and one of this
 * thread's columns of it, drawn from the walker's LCG. */
static inline void walk_jump(walk_t *w) {
  uint64_t v = w->x;
  w->x = v * LCG_A + LCG_C;
  long b = (long)(((v >> 32) * (uint64_t)w->blocks) >> 32);
  long cols = w->ohi - w->olo;
  w->blo = w->lo + b * w->blen;
  walk_block(w);
  w->off = w->olo + (long)(((v & 0xffffffffULL) * (uint64_t)cols) >> 32);
  w->pos = w->blo + w->off;
  w->left = w->full + (w->off < w->extra);
}

/* Of the columns [olo, ohi), those among the first EXTRA, which hold one
 * element more than the others. */
static inline long longer_columns(long extra, long olo, long ohi) {
  return extra > olo ? (extra < ohi ? extra : ohi) - olo : 0;
}

/* The columns [*OLO, *OHI) thread T walks of stream S: all of them, 0 to
 * step, unless S is split. */
static void thread_columns(const stream_t *s, int t, long *olo, long *ohi) {
  *olo = s->split ? (long)t * s->step / s->split : 0;
  *ohi = s->split ? (long)(t + 1) * s->step / s->split : s->step;
}

/* Accesses of thread T in one sweep of a split stream (one block: split
 * streams take no span); 0 for a stream that is not split. */
static long split_accesses(const stream_t *s, int t) {
  if (!s->split) return 0;
  long olo, ohi;
  thread_columns(s, t, &olo, &ohi);
  return (ohi - olo) * (s->region / s->step) + longer_columns(s->region % s->step, olo, ohi);
}

static void walk_init(walk_t *w, const stream_t *s, int t) {
  w->lo = s->priv ? (long)t * s->region : 0;
  w->hi = w->lo + s->region;
  w->step = s->step;
  thread_columns(s, t, &w->olo, &w->ohi);
  w->off = w->olo;
  w->blo = w->lo;
  w->pos = w->lo + w->olo;
  /* A span cuts the region into blocks of span accesses a column, walked
   * column by column one block after the other. */
  w->blen = s->span ? s->span * s->step : s->region;
  walk_block(w);
  w->left = w->full + (w->olo < w->extra);
  w->own = split_accesses(s, t);
  long region = w->hi - w->lo;
  w->jump = s->jump;
  w->blocks = region >= w->blen + 4 * w->step ? (region - 4 * w->step) / w->blen + 1 : 1;
  w->random = s->random;
  w->shift = s->shift;
  w->reach = s->reach;
  w->x = 0x9E3779B97F4A7C15ULL * (uint64_t)(t + 1) * LCG_A + LCG_C;
  if (w->reach) walk_restart(w);
  w->wlen = s->window;
  w->wrep = s->repeats;
  w->wcount = 0;
  w->wleft = w->wlen;
  w->soff = w->off, w->spos = w->pos, w->sleft = w->left;
}

/* Accesses left in the current column or walk execution (a uniform random
 * stream has neither). */
static inline long walk_left(const walk_t *w) {
  if (w->random && !w->reach) return LONG_MAX;
  return w->wlen && w->wleft < w->left ? w->wleft : w->left;
}

/* After LEN accesses that stayed in the column: the next column when this
 * one is done, column 0 after the last. No division: with columns of 16
 * elements this runs every 16 iterations. */
static inline void walk_advance(walk_t *w, long len) {
  if (w->random) {
    if (w->reach && (w->left -= len) == 0) walk_restart(w);
    return;
  }
  w->pos += len * w->step;
  w->left -= len;
  if (w->left == 0 && w->jump) {
    walk_jump(w);
  } else if (w->left == 0) {
    if (++w->off >= w->ohi) {
      w->off = w->olo;
      if ((w->blo += w->bcur) >= w->hi) w->blo = w->lo;
      walk_block(w);
    }
    w->pos = w->blo + w->off;
    w->left = w->full + (w->off < w->extra);
  }
  if (w->wlen && (w->wleft -= len) == 0) {
    if (++w->wcount < w->wrep) { /* the same window again */
      w->off = w->soff, w->pos = w->spos, w->left = w->sleft;
    } else { /* the next one starts here */
      w->wcount = 0;
      w->soff = w->off, w->spos = w->pos, w->sleft = w->left;
    }
    w->wleft = w->wlen;
  }
}

/* Positions a strided walker at access K of its sweep (columns in order;
 * column o holds ceil((region - o) / step) elements). No loop: the plugin
 * would count its iterations as the phase's. */
static inline void walk_seek_plain(walk_t *w, long k) {
  if (w->own) k %= w->own; /* split columns: a thread with fewer wraps */
  long o, j, b = k / w->blen;
  if (b > w->blocks - 1) b = w->blocks - 1; /* the last one holds the rest */
  w->blo = w->lo + b * w->blen;
  k -= b * w->blen;
  walk_block(w);
  long full = w->full, extra = w->extra;
  /* this thread's columns of full + 1 elements: the first ones of its own */
  long longer = longer_columns(extra, w->olo, w->ohi);
  if (k < longer * (full + 1)) {
    o = w->olo + k / (full + 1);
    j = k % (full + 1);
  } else {
    k -= longer * (full + 1);
    o = w->olo + longer + k / full;
    j = k % full;
  }
  w->off = o;
  w->pos = w->blo + o + j * w->step;
  w->left = full + (o < extra) - j;
}

/* Access K of a sweep; with a reuse window, a sweep walks each window wrep
 * times (the region holds whole windows). */
static inline void walk_seek(walk_t *w, long k) {
  if (w->random) return;
  if (!w->wlen) {
    walk_seek_plain(w, k);
    return;
  }
  long per = w->wlen * w->wrep, win = k / per, in = k % per;
  walk_seek_plain(w, win * w->wlen);
  w->soff = w->off, w->spos = w->pos, w->sleft = w->left;
  w->wcount = in / w->wlen;
  walk_seek_plain(w, win * w->wlen + in % w->wlen);
  w->wleft = w->wlen - in % w->wlen;
}

/* Where every stream starts sweep G when the streams differ in accesses or
 * step: a golden-ratio sequence over each stream's accesses. Then loop
 * executions end where the shortest column ends, and the other streams are
 * walked in pieces; without the rotation the same pieces would come at the
 * same execution of every sweep, and a sampler that takes every k-th
 * execution could miss the first or last pieces of a stream for good
 * (measured: mbw2hp 4096:8;1024:8 gave 3584 KiB, mbw2pc 1024:4;16:4 812). */
static inline long sweep_phase(long g, long accesses) {
  if (accesses < 1) return 0;
  double f = (double)g * 0.6180339887498949;
  return (long)((f - floor(f)) * (double)accesses) % accesses;
}

static volatile double Sink[MAX_THREADS * 8];

/* cadd, cmul, cfma, cdiv, csqrt: arithmetic on one stream's element (not copy). */
static int compute_kernel(const char *K) { return K[0] == 'c' && K[1] != 'o'; }

/* touch and release: a store to every page of a slice, the stream given
 * back between sweeps; they differ in what they time. */
static int page_kernel(const char *K) { return !strcmp(K, "touch") || !strcmp(K, "release"); }

/* flip and keep: an update of a stream dealt out in blocks of
 * HANDOVER_BLOCK bytes, to other threads than in the sweep before (flip) or
 * to the same (keep): the hand-over uBs ho1p and hk1p. 64 KiB: dealt out in
 * pages, the walk itself was 7x slower than in contiguous slices at two
 * threads on the AMD EPYC VM with no line changing hands (a block boundary
 * costs about a cross-L3 round trip: the prefetchers reach into the
 * neighbour's block); in 64 KiB blocks 1.4x, and keep walks the same blocks
 * as flip (bench/results/handover-uB-2026-11-29.txt). */
#define HANDOVER_BLOCK 65536L
static int hand_kernel(const char *K) { return !strcmp(K, "flip") || !strcmp(K, "keep"); }

/* The kernels of the pricing uBs (bar1p, spin1p, inv1p, pf1p, gb1p, ho1p, hk1p):
 * their sweeps end in a synchronization or a give-back, so they take no
 * padding, copies, spans nor windows (phaseprobe-ubench's
 * isPricingUBench). */
static int pricing_kernel(const char *K) {
  return !strcmp(K, "sumb") || !strcmp(K, "sumf") || !strcmp(K, "sumw") || page_kernel(K) ||
         hand_kernel(K);
}

/* The touch kernel's time of one invocation: of each sweep, from the
 * first thread's first store to the last thread's last (what a program's
 * region spends faulting; threads on a shared core take turns), not the
 * give-backs between sweeps nor the barriers around them. The release
 * kernel's: the master's give-backs after each sweep, nothing else. */
static double TouchS;
/* PHASEPROBE_UBENCH_GIVE_BACK=thread: each thread gives back its own slice
 * before its sweep, timed with it (the touch kernel until 2026-11-25; at two
 * threads on two cores 0.53 us of wall a fault on the project's Xeon VM,
 * where LULESH's temporaries cost 0.73 and the master's give-back 0.73:
 * bench/results/fault-cost-2026-11-25-lulesh-xeon.txt). */
static int GiveBackThread;
static double TouchBegin[MAX_THREADS * 8], TouchEnd[MAX_THREADS * 8];

static void touch_sweep_done(int nt) {
  double b = TouchBegin[0], e = TouchEnd[0];
  for (int i = 1; i < nt; ++i) {
    if (TouchBegin[i * 8] < b) b = TouchBegin[i * 8];
    if (TouchEnd[i * 8] > e) e = TouchEnd[i * 8];
  }
  TouchS += e - b;
}

/* sumf's handoff, NPB LU's pipelined wavefront: a thread starts sweep r
 * once its left neighbour has finished sweep r, and publishes the end of
 * its own sweep r once its right neighbour has started sweep r - 1 (taken
 * the previous one), spinning on `omp flush` for both as LU does on its
 * flags; neighbours then sweep side by side, one sweep apart. On idle
 * cores a round costs a cache-line transfer; on a core shared with the
 * thread waited for, the rest of a time slice per wait. started and done
 * count sweeps of this repetition, one cache line per thread. */
static struct {
  volatile long started, done;
  char pad[64 - 2 * sizeof(long)];
} Handoff[MAX_THREADS] __attribute__((aligned(64)));
static long SweepsDone; /* sweeps of all invocations so far (phases) */

/* Threads that outnumber the CPUs they are bound to (two threads on one
 * core) take turns at the scheduler's time slice, several milliseconds,
 * where a program's parallel loops hand the core over at every barrier:
 * left alone, a thread would run several sweeps of its slice in a row and
 * find them in the cache, which an application never does there (NPB CG
 * A's sparse mat-vec clone, 10 ms repetitions: 1.85x per thread from one
 * thread to one shared core, 2.11x with the yields, the program's own code
 * 2.0x; bench/results/handover-2026-11-24-quick.txt). So each thread, in
 * such a placement, yields the core after every sweep, or after every few
 * sweeps that together make HANDOVER_ITERS iterations, so that a yield (a
 * context switch, a few microseconds) costs little beside the work (0.2-
 * 1.2% of a dependent sum's time; small update, store and copy slices pay
 * 4-9%, the L2 refill after a switch that a program's threads pay too:
 * handover-2026-11-24-quick-clones.txt). Sweeps that end in a
 * synchronization of their own (sumb, sumf) and page-fault sweeps (touch,
 * no reuse) do not yield. PHASEPROBE_UBENCH_HANDOVER=off turns it off,
 * for the comparison. */
#define HANDOVER_ITERS (1L << 18)
static int Handover;

/* Sweeps between two yields of a thread whose sweeps are ITERS long; 0:
 * never. */
static long handover_every(long iters) {
  if (!Handover) return 0;
  return iters >= HANDOVER_ITERS ? 1 : (HANDOVER_ITERS + iters - 1) / (iters > 0 ? iters : 1);
}

#define HANDOVER(r)                                                            \
  if (hv && ((r) + 1) % hv == 0) sched_yield();

/* Whether the team's threads outnumber the CPUs they may run on (the
 * union of their affinity masks); *floating: whether they do not, but two
 * of them may run on one CPU (their masks overlap), so that the scheduler,
 * not the placement, decides whether they share it: OMP_PLACES=cores is
 * one place {0,1} where libomp reads two vCPUs as one core's threads (the
 * Oxide Turin-like VM, whose sysfs says two cores), and a uB's short
 * repetitions then often ran both threads on one vCPU (run hk). */
static int threads_share_cpus(int *floating) {
  static cpu_set_t masks[MAX_THREADS];
  cpu_set_t all;
  CPU_ZERO(&all);
  int n = 1, known = 1;
#pragma omp parallel
  {
    cpu_set_t m;
    CPU_ZERO(&m);
    int ok = sched_getaffinity(0, sizeof m, &m) == 0;
    int t = omp_get_thread_num();
    if (t < MAX_THREADS) masks[t] = m;
#pragma omp critical
    {
      if (ok)
        CPU_OR(&all, &all, &m);
      else
        known = 0;
    }
#pragma omp single
    n = omp_get_num_threads();
  }
  int shared = known && CPU_COUNT(&all) < n;
  *floating = 0;
  for (int a = 0; known && !shared && a < n && a < MAX_THREADS; ++a)
    for (int b = a + 1; b < n && b < MAX_THREADS; ++b) {
      cpu_set_t both;
      CPU_AND(&both, &masks[a], &masks[b]);
      if (CPU_COUNT(&both) > 0) *floating = 1;
    }
  return shared;
}

/* Index of stream Q's N-th access in the current loop execution. */
#define IX_STRIDED(q) (p##q + n * st##q)
#define IX_MIXED(q)                                                            \
  (rnd##q ? (y##q = lo##q + (long)(x##q >> sh##q),                             \
             x##q = x##q * LCG_A + LCG_C, y##q)                                \
          : p##q + n * st##q)
/* With a random walk among the streams. Not folded into IX_MIXED: the walk's
 * test in the uniform draw's loop slowed that loop by about a third when
 * tried (mbw1cr 32 MiB, 2 threads; one development run, not kept). */
#define IX_WALK(q)                                                             \
  (rnd##q ? lo##q + random_next(&x##q, &at##q, &hf##q, sh##q, re##q)           \
          : p##q + n * st##q)

/* The loop nest of every memory kernel: R sweeps; in a sweep, loop
 * executions of LEN iterations in which every stream moves linearly by its
 * step inside one column of its region. An execution ends where any
 * stream's column ends (the stream with most accesses ends the sweep), so
 * each execution walks each stream once, never past its region: what an
 * application's loop does, and what the runtime's extrapolation of a
 * sampled execution (first address + stride x trip count) assumes. Streams
 * with fewer accesses than the sweep wrap between executions; when the
 * streams differ, every one starts each sweep elsewhere (sweep_phase;
 * ROTATE). BODY uses i0, i1, i2. No
 * loops besides the three: the plugin counts every innermost loop's
 * iterations as the phase's. */
#define SEGMENTS(IX, BODY)                                                     \
  for (long r = 0; r < R; ++r) {                                               \
    if (S[0].copies > 1) {                                                     \
      long cp = (g0 + r) % S[0].copies;                                        \
      a = (__typeof__(a))(S[0].base + (size_t)cp * S[0].cbytes);               \
      if (ns > 1) b = (__typeof__(b))(S[1].base + (size_t)cp * S[1].cbytes);   \
      ix = (const int *)b; /* gather's indices: each copy has its own */      \
      if (ns > 2) c = (__typeof__(c))(S[2].base + (size_t)cp * S[2].cbytes);   \
    }                                                                          \
    if (rotate) {                                                              \
      walk_seek(&w[0], sweep_phase(g0 + r, S[0].sweep));                       \
      walk_seek(&w[1], sweep_phase(g0 + r, S[1].sweep));                       \
      walk_seek(&w[2], sweep_phase(g0 + r, S[2].sweep));                       \
    }                                                                          \
    for (long done = 0; done < iters;) {                                       \
      long len = iters - done, l;                                              \
      if ((l = walk_left(&w[0])) < len) len = l;                               \
      if (ns > 1 && (l = walk_left(&w[1])) < len) len = l;                     \
      if (ns > 2 && (l = walk_left(&w[2])) < len) len = l;                     \
      long p0 = w[0].pos, p1 = w[1].pos, p2 = w[2].pos;                        \
      long st0 = w[0].step, st1 = w[1].step, st2 = w[2].step;                  \
      long lo0 = w[0].lo, lo1 = w[1].lo, lo2 = w[2].lo;                        \
      int rnd0 = w[0].random, rnd1 = w[1].random, rnd2 = w[2].random;          \
      int sh0 = w[0].shift, sh1 = w[1].shift, sh2 = w[2].shift;                \
      uint64_t x0 = w[0].x, x1 = w[1].x, x2 = w[2].x;                          \
      long at0 = w[0].at, at1 = w[1].at, at2 = w[2].at, y0, y1, y2;            \
      long re0 = w[0].reach, re1 = w[1].reach, re2 = w[2].reach;               \
      long hf0 = w[0].half, hf1 = w[1].half, hf2 = w[2].half;                  \
      (void)p0, (void)p1, (void)p2, (void)st0, (void)st1, (void)st2;           \
      (void)lo0, (void)lo1, (void)lo2, (void)rnd0, (void)rnd1, (void)rnd2;     \
      (void)sh0, (void)sh1, (void)sh2, (void)at0, (void)at1, (void)at2;        \
      (void)re0, (void)re1, (void)re2, (void)hf0, (void)hf1, (void)hf2;        \
      (void)y0, (void)y1, (void)y2;                                            \
      for (long n = 0; n < len; ++n) {                                         \
        BODY                                                                   \
      }                                                                        \
      w[0].x = x0, w[1].x = x1, w[2].x = x2;                                   \
      w[0].at = at0, w[1].at = at1, w[2].at = at2;                             \
      w[0].half = hf0, w[1].half = hf1, w[2].half = hf2;                       \
      walk_advance(&w[0], len);                                                \
      walk_advance(&w[1], len);                                                \
      walk_advance(&w[2], len);                                                \
      done += len;                                                             \
    }                                                                          \
    HANDOVER(r)                                                                \
  }

/* Kernel K over the streams, strided-only or with random streams. */
#define RUN(IX, T, PAD)                                                        \
  if (!strcmp(K, "sum")) {                                                     \
    SEGMENTS(IX, long i0 = IX(0); acc += a[i0]; PAD)                           \
  } else if (!strcmp(K, "update")) {                                           \
    SEGMENTS(IX, long i0 = IX(0); a[i0] = a[i0] * (T)3 + (T)1; PAD)            \
  } else if (!strcmp(K, "store")) {                                            \
    SEGMENTS(IX, long i0 = IX(0); a[i0] = (T)n; PAD)                           \
  } else if (!strcmp(K, "madd")) {                                             \
    SEGMENTS(IX, long i0 = IX(0); long i1 = IX(1); acc += a[i0] * b[i1]; PAD)  \
  } else if (!strcmp(K, "add2")) {                                             \
    SEGMENTS(IX, long i0 = IX(0); long i1 = IX(1); acc += a[i0] + b[i1]; PAD)  \
  } else if (!strcmp(K, "copy")) {                                             \
    SEGMENTS(IX, long i0 = IX(0); long i1 = IX(1); b[i1] = a[i0]; PAD)         \
  } else if (!strcmp(K, "axpy")) {                                             \
    SEGMENTS(IX, long i0 = IX(0); long i1 = IX(1);                             \
             a[i0] = a[i0] + (T)3 * b[i1]; PAD)                                \
  } else if (!strcmp(K, "sum3")) {                                             \
    SEGMENTS(IX, long i0 = IX(0); long i1 = IX(1); long i2 = IX(2);            \
             acc += a[i0] + b[i1] + c[i2]; PAD)                                \
  } else if (!strcmp(K, "triad")) {                                            \
    SEGMENTS(IX, long i0 = IX(0); long i1 = IX(1); long i2 = IX(2);            \
             a[i0] = b[i1] + (T)3 * c[i2]; PAD)                                \
  } else if (!strcmp(K, "gather")) {                                           \
    SEGMENTS(IX, long i0 = IX(0); long i1 = IX(1);                             \
             acc += a[i0] * c[ix[i1]]; PAD)                                    \
  }

/* One step of padding: 4 independent chains, each a multiply and an add
 * (the chains converge: |0.5| < 1), carried from iteration to iteration so
 * that no step can be skipped or hoisted. */
#define PAD_STEP                                                               \
  d0 = d0 * 0.5 + 1.0; d1 = d1 * 0.5 + 2.0;                                    \
  d2 = d2 * 0.5 + 3.0; d3 = d3 * 0.5 + 4.0;

/* The padding of a padded kernel: WORK steps after every iteration. */
#define PAD_WORK                                                               \
  for (long q = 0; q < work; ++q) {                                            \
    PAD_STEP                                                                   \
  }

/* WORK steps per PE iterations, spread evenly (WORK_EVERY > 1): its own
 * loop nests, so that WORK_EVERY = 1 runs exactly the padding it always
 * ran; for WORK = 1 a step after every PE-th iteration. */
#define PAD_WORK_SPREAD                                                        \
  for (pc += work; pc >= pe; pc -= pe) {                                       \
    PAD_STEP                                                                   \
  }

/* What every kernel thread sets up: its walkers, the stream pointers, and
 * which loop nest the streams need (walks, random draws, rotation). */
#define KERNEL_PROLOGUE(T)                                                     \
      int t = omp_get_thread_num();                                            \
      walk_t w[MAX_STREAMS];                                                   \
      walk_init(&w[0], &S[0], t);                                              \
      w[1] = w[2] = w[0];                                                      \
      if (ns > 1) walk_init(&w[1], &S[1], t);                                  \
      if (ns > 2) walk_init(&w[2], &S[2], t);                                  \
      T *a = (T *)S[0].base;                                                   \
      T *b = ns > 1 ? (T *)S[1].base : a;                                      \
      T *c = ns > 2 ? (T *)S[2].base : a;                                      \
      const int *ix = (const int *)b; /* gather's indices */                  \
      (void)ix;                                                                \
      long hv = handover_every(iters); /* sweeps between yields */             \
      /* gather reads x through its indices, not a draw: strided loops. */    \
      int mixed = S[0].random || (ns > 1 && S[1].random) ||                    \
                  (ns > 2 && S[2].random && strcmp(K, "gather"));              \
      int walks = S[0].reach || (ns > 1 && S[1].reach) ||                      \
                  (ns > 2 && S[2].reach);                                      \
      /* gather in rows, over a banded matrix or a random one with a row     \
       * length (B1): its own loop nest (GATHER_ROWS). */                     \
      int rows = ns == 3 && !strcmp(K, "gather") && (!S[2].random || S[0].row); \
      (void)rows;                                                              \
      int rotate = (ns > 1 && (S[1].sweep != S[0].sweep ||                     \
                               S[1].step != S[0].step)) ||                     \
                   (ns > 2 && (S[2].sweep != S[0].sweep ||                     \
                               S[2].step != S[0].step));

/* gather in rows: the rows of a CSR product, each a sum of its own that
 * the next row does not wait for, as a matrix-vector product runs them
 * (HPCCG's 27-point rows, NPB CG's random ones: their sums overlap, so the
 * loop streams its 12 bytes an iteration as fast as memory gives them,
 * where one sum over the whole sweep waits for the add at every element).
 * A banded matrix's row (pattern sss) is as long as the matrix has
 * elements per element of x and its indices ascend into the thread's own
 * part of x; a random one's (pattern ssr) is B1 long (the phase's loop
 * executions) and its indices draw over all of x. A thread's rows are its
 * slice of a and of the indices. Copies as SEGMENTS takes them. */
#define GATHER_ROWS(T, PAD)                                                    \
  {                                                                            \
    long nt = omp_get_num_threads();                                           \
    long na = S[0].priv ? S[0].region * nt : S[0].region;                      \
    long nx = S[2].priv ? S[2].region * nt : S[2].region;                      \
    long row = S[0].row ? S[0].row : na / nx > 1 ? na / nx : 1;                \
    long m = w[0].hi - w[0].lo;                                                \
    for (long r = 0; r < R; ++r) {                                             \
      long cp = S[0].copies > 1 ? (g0 + r) % S[0].copies : 0;                  \
      const T *ap = (const T *)(S[0].base + (size_t)cp * S[0].cbytes) + w[0].lo; \
      const int *ip = (const int *)(S[1].base + (size_t)cp * S[1].cbytes) + w[1].lo; \
      const T *xp = (const T *)(S[2].base + (size_t)cp * S[2].cbytes);         \
      for (long b = 0; b < m; b += row) {                                      \
        long e = b + row < m ? b + row : m;                                    \
        T sr = 0;                                                              \
        for (long j = b; j < e; ++j) {                                         \
          sr += ap[j] * xp[ip[j]];                                             \
          PAD                                                                  \
        }                                                                      \
        acc += sr;                                                             \
      }                                                                        \
      HANDOVER(r)                                                              \
    }                                                                          \
  }

/* The kernels, one instance per element type. ACC is the accumulator type
 * (int sums accumulate in long long: no signed overflow). Single-stream
 * strided kernels use the plain column loops (one execution per column);
 * the others the loop nest of SEGMENTS, which for one stream, or streams of
 * equal accesses and step, is the same: one execution per column. G0 is
 * the number of sweeps before this invocation. */
#define DEFINE_KERNELS(T, ACC, SUFFIX)                                         \
  static void kernel_##SUFFIX(const char *K, stream_t *S, int ns, long R,     \
                              long iters, long g0) {                           \
    _Pragma("omp parallel")                                                    \
    {                                                                          \
      KERNEL_PROLOGUE(T)                                                       \
      ACC acc = 0, c0 = 1, c1 = 1, c2 = 1, c3 = 1;                             \
      int plain = ns == 1 && !S[0].random && !S[0].window && !S[0].span &&    \
                  S[0].copies <= 1;                                            \
      long lo = w[0].lo, hi = w[0].hi, st = w[0].step;                         \
      long ol = w[0].olo, oh = w[0].ohi; /* its columns */                    \
      if (!strcmp(K, "sum") && plain) {                                        \
        for (long r = 0; r < R; ++r) {                                         \
          for (long o = ol; o < oh && lo + o < hi; ++o)                        \
            for (long i = lo + o; i < hi; i += st)                             \
              acc += a[i];                                                     \
          HANDOVER(r)                                                          \
        }                                                                      \
      } else if (!strcmp(K, "sumb") && plain) {                               \
        for (long r = 0; r < R; ++r) {                                         \
          for (long o = ol; o < oh && lo + o < hi; ++o)                        \
            for (long i = lo + o; i < hi; i += st)                             \
              acc += a[i];                                                     \
          _Pragma("omp barrier")                                               \
        }                                                                      \
      } else if (!strcmp(K, "sumf") && plain) {                               \
        int nt = omp_get_num_threads();                                        \
        Handoff[t].started = Handoff[t].done = 0;                              \
        _Pragma("omp barrier")                                                 \
        for (long r = 0; r < R; ++r) {                                         \
          if (t > 0)                                                           \
            while (Handoff[t - 1].done <= r) {                                 \
              _Pragma("omp flush")                                             \
            }                                                                  \
          Handoff[t].started = r + 1;                                          \
          _Pragma("omp flush")                                                 \
          for (long o = ol; o < oh && lo + o < hi; ++o)                        \
            for (long i = lo + o; i < hi; i += st)                             \
              acc += a[i];                                                     \
          if (t + 1 < nt)                                                      \
            while (Handoff[t + 1].started < r) {                               \
              _Pragma("omp flush")                                             \
            }                                                                  \
          _Pragma("omp flush")                                                 \
          Handoff[t].done = r + 1;                                             \
          _Pragma("omp flush")                                                 \
        }                                                                      \
      } else if (page_kernel(K) && plain) {                                    \
        /* Whole pages inside the slice only. st elements are one page     \
         * (run_config checks the stride). The master gives the whole      \
         * stream back between sweeps, as a program's serial code frees    \
         * its temporaries: pages a thread gave back itself come back to   \
         * it cheaper (TouchS). Only the stores are timed, but for         \
         * GiveBackThread, each thread's own give-back too (the kernel of  \
         * before, for the comparison); for release only the give-backs,   \
         * each of a stream the last sweep made resident whole. */         \
        int rel = !strcmp(K, "release");                                       \
        uintptr_t pg = (uintptr_t)st * sizeof(T);                              \
        uintptr_t p0 = ((uintptr_t)(a + lo) + pg - 1) & ~(pg - 1);             \
        uintptr_t p1 = (uintptr_t)(a + hi) & ~(pg - 1);                        \
        int nt = omp_get_num_threads();                                        \
        size_t all = (size_t)(S[0].priv ? S[0].region * nt : S[0].region) *   \
                     sizeof(T);                                                \
        all = all / pg * pg;                                                   \
        for (long r = 0; r <= R; ++r) {                                        \
          _Pragma("omp barrier")                                               \
          _Pragma("omp master")                                                \
          {                                                                    \
            if (rel) {                                                         \
              double g0 = omp_get_wtime();                                     \
              madvise(S[0].base, all, MADV_DONTNEED);                          \
              if (r > 0) TouchS += omp_get_wtime() - g0;                       \
            } else {                                                           \
              if (r > 0) touch_sweep_done(nt);                                 \
              if (r < R && !GiveBackThread)                                    \
                madvise(S[0].base, all, MADV_DONTNEED);                        \
            }                                                                  \
          }                                                                    \
          if (r == R) break;                                                   \
          _Pragma("omp barrier")                                               \
          TouchBegin[t * 8] = omp_get_wtime();                                 \
          if (GiveBackThread && !rel && p1 > p0)                               \
            madvise((void *)p0, p1 - p0, MADV_DONTNEED);                       \
          for (uintptr_t p = p0; p < p1; p += pg)                              \
            *(volatile T *)p = (T)r;                                           \
          TouchEnd[t * 8] = omp_get_wtime();                                   \
        }                                                                      \
      } else if (!strcmp(K, "update") && plain) {                              \
        for (long r = 0; r < R; ++r) {                                         \
          for (long o = ol; o < oh && lo + o < hi; ++o)                        \
            for (long i = lo + o; i < hi; i += st)                             \
              a[i] = a[i] * (T)3 + (T)1;                                       \
          HANDOVER(r)                                                          \
        }                                                                      \
      } else if (hand_kernel(K) && plain) {                                    \
        /* The stream, all threads' slices, in 4 KiB blocks dealt out:      \
         * block b to thread (b + g) mod T in sweep g (flip: every line     \
         * another thread wrote in the sweep before) or b mod T in every    \
         * sweep (keep: none). Both walk every T-th block, so the two       \
         * differ only in who wrote a line last, not in what the            \
         * prefetchers see. The barrier ends a sweep's writes before the    \
         * next split reads them. */                                        \
        int nt = omp_get_num_threads(), fl = K[0] == 'f';                      \
        long bl = HANDOVER_BLOCK / (long)sizeof(T);                            \
        long nb = S[0].region * nt / bl;                                       \
        T *base = (T *)S[0].base;                                              \
        for (long r = 0; r < R; ++r) {                                         \
          long b0 = (t + nt - (fl ? (g0 + r) % nt : 0)) % nt;                  \
          for (long b = b0; b < nb; b += nt)                                   \
            for (long i = b * bl; i < (b + 1) * bl; ++i)                       \
              base[i] = base[i] * (T)3 + (T)1;                                 \
          _Pragma("omp barrier")                                               \
        }                                                                      \
      } else if (!strcmp(K, "store") && plain) {                               \
        for (long r = 0; r < R; ++r) {                                         \
          for (long o = ol; o < oh && lo + o < hi; ++o)                        \
            for (long i = lo + o; i < hi; i += st)                             \
              a[i] = (T)r;                                                     \
          HANDOVER(r)                                                          \
        }                                                                      \
      } else if (K[0] == 'c' && K[1] == 't') { /* ctadd ctmul: 16 x 1 */      \
        /* 16 independent chains, one step each per element: the same 16    \
         * operations an element as the 4 x 4 kernels, but more in flight   \
         * than a core's latency x pipes, so their time is the pipes'       \
         * throughput (a loop whose iterations are independent work). One   \
         * loop per operation: a choice inside would be work of its own.    \
         * No mixed kernel: d += x * c with 16 constants, tried, spills    \
         * SSE2's 16 registers at -O2 (its assembly), so it would time the  \
         * spills. */                                                        \
        T d0 = 1, d1 = 1, d2 = 1, d3 = 1, d4 = 1, d5 = 1, d6 = 1, d7 = 1;      \
        T d8 = 1, d9 = 1, d10 = 1, d11 = 1, d12 = 1, d13 = 1, d14 = 1;         \
        T d15 = 1;                                                             \
        if (K[2] == 'a') {                                                     \
          for (long r = 0; r < R; ++r)                                         \
            for (long i = lo; i < hi; ++i) {                                   \
              T x = a[i];                                                      \
              d0 = d0 + x; d1 = d1 + x; d2 = d2 + x; d3 = d3 + x;              \
              d4 = d4 + x; d5 = d5 + x; d6 = d6 + x; d7 = d7 + x;              \
              d8 = d8 + x; d9 = d9 + x; d10 = d10 + x; d11 = d11 + x;          \
              d12 = d12 + x; d13 = d13 + x; d14 = d14 + x; d15 = d15 + x;      \
            }                                                                  \
        } else {                                                               \
          for (long r = 0; r < R; ++r)                                         \
            for (long i = lo; i < hi; ++i) {                                   \
              T x = a[i];                                                      \
              d0 = d0 * x; d1 = d1 * x; d2 = d2 * x; d3 = d3 * x;              \
              d4 = d4 * x; d5 = d5 * x; d6 = d6 * x; d7 = d7 * x;              \
              d8 = d8 * x; d9 = d9 * x; d10 = d10 * x; d11 = d11 * x;          \
              d12 = d12 * x; d13 = d13 * x; d14 = d14 * x; d15 = d15 * x;      \
            }                                                                  \
        }                                                                      \
        c0 = c0 + (ACC)(d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7 + d8 + d9 +     \
                        d10 + d11 + d12 + d13 + d14 + d15);                    \
      } else if (K[0] == 'c' && K[1] != 'o') { /* cadd ... csqrt: 4 x 4 */    \
        int op = K[1] == 'a' ? 0 : K[1] == 'm' ? 1 : K[1] == 'd' ? 3           \
                 : K[1] == 's' ? 4 : 2;                                        \
        for (long r = 0; r < R; ++r)                                           \
          for (long i = lo; i < hi; ++i) {                                     \
            T x = a[i];                                                        \
            if (op == 0) {                                                     \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
              c0 = c0 + x; c1 = c1 + x; c2 = c2 + x; c3 = c3 + x;              \
            } else if (op == 3) { /* y / c: bounded, never 0 */             \
              T y = x + (T)1.5;                                                \
              c0 = y / c0; c1 = y / c1; c2 = y / c2; c3 = y / c3;              \
              c0 = y / c0; c1 = y / c1; c2 = y / c2; c3 = y / c3;              \
              c0 = y / c0; c1 = y / c1; c2 = y / c2; c3 = y / c3;              \
              c0 = y / c0; c1 = y / c1; c2 = y / c2; c3 = y / c3;              \
            } else if (op == 4) { /* an add on the chain: x stays live */     \
              c0 = sqrt(c0 + x); c1 = sqrt(c1 + x);                            \
              c2 = sqrt(c2 + x); c3 = sqrt(c3 + x);                            \
              c0 = sqrt(c0 + x); c1 = sqrt(c1 + x);                            \
              c2 = sqrt(c2 + x); c3 = sqrt(c3 + x);                            \
              c0 = sqrt(c0 + x); c1 = sqrt(c1 + x);                            \
              c2 = sqrt(c2 + x); c3 = sqrt(c3 + x);                            \
              c0 = sqrt(c0 + x); c1 = sqrt(c1 + x);                            \
              c2 = sqrt(c2 + x); c3 = sqrt(c3 + x);                            \
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
      } else if (rows) {                                                       \
        GATHER_ROWS(T, )                                                       \
      } else if (walks) {                                                      \
        RUN(IX_WALK, T, )                                                      \
      } else if (mixed) {                                                      \
        RUN(IX_MIXED, T, )                                                     \
      } else {                                                                 \
        RUN(IX_STRIDED, T, )                                                   \
      }                                                                        \
      Sink[t * 8] = (double)acc + (double)(c0 + c1 + c2 + c3);                 \
    }                                                                          \
  }                                                                            \
  /* The same memory kernels, each iteration padded with WORK steps. */       \
  static void kernel_pad_##SUFFIX(const char *K, stream_t *S, int ns, long R, \
                                  long iters, long g0, long work, long pe) {   \
    _Pragma("omp parallel")                                                    \
    {                                                                          \
      KERNEL_PROLOGUE(T)                                                       \
      ACC acc = 0;                                                             \
      double d0 = 0, d1 = 0, d2 = 0, d3 = 0;                                   \
      long pc = 0;                                                             \
      if (rows && pe == 1) {                                                   \
        GATHER_ROWS(T, PAD_WORK)                                               \
      } else if (rows) {                                                       \
        GATHER_ROWS(T, PAD_WORK_SPREAD)                                        \
      } else if (walks && pe == 1) {                                           \
        RUN(IX_WALK, T, PAD_WORK)                                              \
      } else if (walks) {                                                      \
        RUN(IX_WALK, T, PAD_WORK_SPREAD)                                       \
      } else if (mixed && pe == 1) {                                           \
        RUN(IX_MIXED, T, PAD_WORK)                                             \
      } else if (mixed) {                                                      \
        RUN(IX_MIXED, T, PAD_WORK_SPREAD)                                      \
      } else if (pe == 1) {                                                    \
        RUN(IX_STRIDED, T, PAD_WORK)                                           \
      } else {                                                                 \
        RUN(IX_STRIDED, T, PAD_WORK_SPREAD)                                    \
      }                                                                        \
      Sink[t * 8] = (double)acc + d0 + d1 + d2 + d3;                           \
    }                                                                          \
  }

DEFINE_KERNELS(double, double, double)
DEFINE_KERNELS(float, float, float)
DEFINE_KERNELS(int, long long, int)

#define DEFINE_INV_KERNEL(T, ACC, SUFFIX)                                      \
  /* sumw: sum's sweeps, each an `omp for nowait` invocation of its own.    \
   * Static schedule, one iteration a thread: iteration t is thread t's,     \
   * its own slice, as in sum; nowait, so nothing but the invocation         \
   * (bounds, entry and exit calls) differs from sum. A region of its own,   \
   * instantiated on lines of its own: an instrumented build (the            \
   * cross-check's) names a phase by its pragma's line, and a worksharing    \
   * loop in kernel_##SUFFIX's region would change that phase's kind. */     \
  static void kernel_inv_##SUFFIX(const char *K, stream_t *S, int ns, long R, \
                                  long iters, long g0) {                       \
    (void)K, (void)ns, (void)g0;                                               \
    _Pragma("omp parallel")                                                    \
    {                                                                          \
      int t = omp_get_thread_num(), nt = omp_get_num_threads();                \
      walk_t w;                                                                \
      walk_init(&w, &S[0], t);                                                 \
      const T *a = (const T *)S[0].base;                                       \
      long hv = handover_every(iters); /* sweeps between yields */             \
      ACC acc = 0;                                                             \
      long lo = w.lo, hi = w.hi, st = w.step, ol = w.olo, oh = w.ohi;          \
      for (long r = 0; r < R; ++r) {                                           \
        _Pragma("omp for schedule(static) nowait")                             \
        for (int c = 0; c < nt; ++c)                                           \
          for (long o = ol; o < oh && lo + o < hi; ++o)                        \
            for (long i = lo + o; i < hi; i += st)                             \
              acc += a[i];                                                     \
        HANDOVER(r)                                                            \
      }                                                                        \
      Sink[t * 8] = (double)acc;                                               \
    }                                                                          \
  }

DEFINE_INV_KERNEL(double, double, double)
DEFINE_INV_KERNEL(float, float, float)
DEFINE_INV_KERNEL(int, long long, int)

static int is_store(const char *K, int q) {
  return (!strcmp(K, "update") || !strcmp(K, "store") || !strcmp(K, "triad") ||
          !strcmp(K, "axpy") || page_kernel(K) || hand_kernel(K)) ? q == 0
         : !strcmp(K, "copy")                                                   ? q == 1
                                                                                : 0;
}

static int kernel_streams(const char *K) {
  if (!strcmp(K, "sum") || !strcmp(K, "sumb") || !strcmp(K, "sumf") || !strcmp(K, "sumw") ||
      !strcmp(K, "update") || !strcmp(K, "store") || page_kernel(K) || hand_kernel(K) ||
      !strcmp(K, "cadd") || !strcmp(K, "cmul") || !strcmp(K, "cfma") || !strcmp(K, "cdiv") ||
      !strcmp(K, "csqrt") || !strcmp(K, "ctadd") || !strcmp(K, "ctmul"))
    return 1;
  if (!strcmp(K, "madd") || !strcmp(K, "add2") || !strcmp(K, "copy") || !strcmp(K, "axpy"))
    return 2;
  if (!strcmp(K, "sum3") || !strcmp(K, "triad") || !strcmp(K, "gather")) return 3;
  return 0;
}

/* The mean |jump| of thread 0's first 10^5 accesses of a random stream,
 * inside loop executions: the same sequence the kernels draw. */
static double mean_abs_jump(const stream_t *S, size_t elem) {
  walk_t w;
  walk_init(&w, S, 0);
  long n = S->sweep < 100000 ? S->sweep : 100000;
  double sum = 0;
  long prev = 0;
  long jumps = 0;
  for (long k = 0; k < n; ++k) {
    long i = w.lo + random_next(&w.x, &w.at, &w.half, w.shift, w.reach);
    if (k && (!w.reach || w.left != WALK_EXEC)) sum += (double)labs(i - prev), ++jumps;
    prev = i;
    if (w.reach) walk_advance(&w, 1);
  }
  return jumps ? sum / (double)jumps * (double)elem : 0;
}

/* The mean |jump| of gather's x: between the indices thread 0 reads one
 * after another in a column of its index stream (a loop execution), over
 * its first 10^5 accesses; in bytes of x's element \p elem. */
static double gather_mean_jump(const stream_t *I, size_t elem) {
  walk_t w;
  walk_init(&w, I, 0);
  const int *ix = (const int *)I->base;
  long n = I->sweep < 100000 ? I->sweep : 100000, prev = 0, prev_off = -1, jumps = 0;
  double sum = 0;
  for (long k = 0; k < n; ++k) {
    long off = w.off, v = ix[w.pos];
    if (off == prev_off) sum += (double)labs(v - prev), ++jumps;
    prev = v, prev_off = off;
    walk_advance(&w, 1);
  }
  return jumps ? sum / (double)jumps * (double)elem : 0;
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
  int gather = !strcmp(C->kernel, "gather");
  /* Per stream: the type's size, but gather's index stream holds ints. */
  size_t el[MAX_STREAMS] = {elem, gather ? sizeof(int) : elem, elem};
  int ns = kernel_streams(C->kernel);
  if (ns == 0) FAIL("unknown kernel '%s'", C->kernel);
  if (strcmp(C->type, "double") && strcmp(C->type, "float") && strcmp(C->type, "int"))
    FAIL("unknown type '%s'", C->type);
  if (compute_kernel(C->kernel) && !strcmp(C->type, "int"))
    FAIL("compute kernels are float or double");
  if (ns != C->ns) FAIL("kernel %s has %d streams, not %d", C->kernel, ns, C->ns);
  if ((int)strlen(C->access) != ns || (int)strlen(C->pattern) != ns)
    FAIL("access and pattern need one letter per stream");
  if (threads > MAX_THREADS) FAIL("more than %d threads", MAX_THREADS);
  if ((!strcmp(C->kernel, "sumb") || !strcmp(C->kernel, "sumf") || !strcmp(C->kernel, "sumw")) &&
      C->pattern[0] != 's')
    FAIL("kernel %s walks a strided stream only", C->kernel);
  if (hand_kernel(C->kernel) &&
      (C->pattern[0] != 's' || C->access[0] != 'p' || C->s[0] != (double)elem ||
       C->k[0] * 1024 < (double)(HANDOVER_BLOCK * threads)))
    FAIL("kernel %s walks a private strided stream at element stride, a %ld-byte block a "
         "thread or more",
         C->kernel, HANDOVER_BLOCK);
  if (C->work < 0 || C->work > 1000000) FAIL("work %ld is not within 0 to 1000000", C->work);
  if (C->work_every < 1 || C->work_every > 64)
    FAIL("work every %ld iterations is not within 1 to 64", C->work_every);
  if (C->copies < 1 || C->copies > 64) FAIL("copies %ld is not within 1 to 64", C->copies);
  if (C->jump < 0 || C->jump > 1) FAIL("jump %d is neither 0 nor 1", C->jump);
  if (C->copies > 1 && compute_kernel(C->kernel))
    FAIL("compute kernels take no copies");
  if (C->copies > 1 && pricing_kernel(C->kernel))
    FAIL("kernel %s takes no copies", C->kernel);
  if (C->work && compute_kernel(C->kernel))
    FAIL("compute kernels take no padding (work)");
  if (C->work && pricing_kernel(C->kernel))
    FAIL("kernel %s takes no padding (work)", C->kernel);
  if (gather && (strcmp(C->type, "double") ||
                 !((!strcmp(C->pattern, "ssr") && C->access[2] == 'c') ||
                   !strcmp(C->pattern, "sss"))))
    FAIL("kernel gather is double with patterns ssr and a shared x, or sss (a, its int indices, x)");
  int paged = page_kernel(C->kernel);
  if (paged && (C->pattern[0] != 's' || C->s[0] != (double)sysconf(_SC_PAGESIZE) ||
                C->window[0]))
    FAIL("kernel %s walks one strided stream whose stride is the page size (%ld B)",
         C->kernel, sysconf(_SC_PAGESIZE));
  long iters = 0;
  for (int q = 0; q < ns; ++q) {
    stream_t *s = &S[q];
    s->priv = C->access[q] == 'p';
    s->random = C->pattern[q] == 'r';
    s->store = is_store(C->kernel, q);
    if (!s->priv && C->access[q] != 'c') FAIL("access letter '%c' is not c or p", C->access[q]);
    if (!s->random && C->pattern[q] != 's') FAIL("pattern letter '%c' is not s or r", C->pattern[q]);
    size_t elem = el[q];
    double bytes = C->k[q] * 1024.0;
    long n = (long)(bytes / (double)elem);
    s->region = s->priv ? n / threads : n;
    if (s->region < 1) FAIL("stream %d: footprint %g KiB is too small", q + 1, C->k[q]);
    if (s->random && gather) {
      /* x is read through the indices, drawn over the whole region: any
       * size, never a search. */
      s->step = 1;
      if (s->region < 2) FAIL("stream %d: a gathered stream needs 2 elements or more", q + 1);
    } else if (s->random) {
      int lg = 0;
      while ((2L << lg) <= s->region) ++lg;
      s->region = 1L << lg;
      s->shift = 64 - lg;
      if (lg == 0) FAIL("stream %d: a random stream needs 2 elements or more", q + 1);
      s->step = 1;
      /* A search of WALK_EXEC probes in a block of B elements jumps B/4,
       * B/8, ... (15 jumps, B/2 - B/2^16 in all, less rounding): a mean of
       * J takes B = 30 J + 16, at most the region (then the jumps are
       * shorter, and the measured mean says so). A mean jump of a third
       * of the region or more is the uniform draw's. phaseprobe-ubench's
       * isSearchJump mirrors this test. */
      double jump = floor(C->s[q] / (double)elem + 0.5);
      if (jump > 1 && 3 * jump < (double)s->region && jump < (double)(1L << 30)) {
        long block = 30 * (long)jump + 16;
        s->reach = block < s->region ? block : s->region;
      }
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
    if (C->window[q] < 0 || C->window[q] > 1000000000L)
      FAIL("stream %d: window %ld is not within 0 to 1e9 accesses", q + 1, C->window[q]);
    if (C->window[q] && C->repeats < 1)
      FAIL("stream %d: a window needs repeats of 1 or more", q + 1);
    if (C->window[q] && (s->random || compute_kernel(C->kernel) || pricing_kernel(C->kernel)))
      FAIL("stream %d: only strided streams of memory kernels take a window", q + 1);
    s->sweep = s->region;
    if (C->window[q]) {
      /* Whole windows, so that the last one ends where the sweep does. */
      if (C->window[q] > s->region)
        FAIL("stream %d: window of %ld accesses exceeds the %ld elements per thread", q + 1,
             C->window[q], s->region);
      s->region -= s->region % C->window[q];
      if (s->region < 4 * s->step)
        FAIL("stream %d: whole windows of %ld accesses hold fewer than 4 strides per thread",
             q + 1, C->window[q]);
      s->window = C->window[q];
      s->repeats = C->repeats;
      s->sweep = s->region * s->repeats;
    }
    if (C->span[q] < 0 || C->span[q] > 1000000000L)
      FAIL("stream %d: span %ld is not within 0 to 1e9 accesses", q + 1, C->span[q]);
    if (C->span[q] && (s->random || C->window[q] || compute_kernel(C->kernel) ||
                       pricing_kernel(C->kernel)))
      FAIL("stream %d: only strided streams of memory kernels without a window take a span",
           q + 1);
    if (C->span[q] && C->span[q] < 4)
      FAIL("stream %d: a span of %ld accesses holds fewer than 4 strides", q + 1, C->span[q]);
    /* A slice smaller than one block (more threads than the phase ran
     * with) is walked whole: its columns are shorter than the span. A step
     * of one element is one column, walked in order: nothing to confine. */
    if (C->span[q] && s->step > 1 && C->span[q] * s->step <= s->region) s->span = C->span[q];
    s->jump = C->jump && s->span;
    if (s->store && !s->priv) {
      /* A written shared stream: its threads split its columns, each
       * writing its own lines of the one region (no two threads write an
       * element), as a sweep along a slow axis (the example bt's z sweep)
       * does. One block, every thread a column at least. */
      if (s->random || C->window[q] || C->span[q] || pricing_kernel(C->kernel))
        FAIL("stream %d: a written shared stream is strided, without a window or span", q + 1);
      if (s->step < threads)
        FAIL("stream %d: a written shared stream needs a stride of %d elements or more "
             "(its %d threads split its columns)", q + 1, threads, threads);
      s->split = threads;
      s->sweep = 0;
      for (int t = 0; t < threads; ++t) {
        long own = split_accesses(s, t);
        if (own > s->sweep) s->sweep = own;
      }
    }
    if (s->sweep > iters) iters = s->sweep;
    if (paged) iters = s->region / s->step; /* a page per iteration */
    size_t total = (size_t)(s->priv ? s->region * threads : s->region) * elem;
    s->copies = C->copies;
    s->cbytes = (total + 4095) / 4096 * 4096;
    s->base = aligned_alloc(4096, s->cbytes * (size_t)s->copies);
    if (!s->base) FAIL("cannot allocate %zu bytes", s->cbytes * (size_t)s->copies);
    /* A fault of a small page, as a program's fresh temporaries take
     * where transparent huge pages are only on request. */
    if (paged) madvise(s->base, (total + 4095) / 4096 * 4096, MADV_NOHUGEPAGE);
    /* First touch by the thread that walks the data (NUMA-local pages). */
    long cnt = (long)(total / elem);
    for (long cp = 0; cp < s->copies; ++cp) {
      char *at = s->base + (size_t)cp * s->cbytes;
#pragma omp parallel for schedule(static)
      for (long i = 0; i < cnt; ++i) {
        if (elem == 8)
          ((double *)at)[i] = 1.0 + 1e-9 * (double)(i & 7);
        else if (!strcmp(C->type, "float"))
          ((float *)at)[i] = 1.0f + 1e-6f * (float)(i & 7);
        else
          ((int *)at)[i] = (int)(i & 7) + 1;
      }
    }
  }
  if (gather && !S[2].random)
    for (int q = 0; q < ns; ++q)
      if (S[q].step != 1 || S[q].window || S[q].span)
        FAIL("stream %d: a banded gather (patterns sss) walks every stream at element stride, "
             "without a window or span", q + 1);
  if (gather && S[2].random && C->span[0]) {
    /* Rows of B1 elements: a and the indices at element stride, the one
     * span the matrix's (a step of one element takes no column span). */
    if (S[0].step != 1 || S[1].step != 1 || S[0].window || S[1].window || C->span[1])
      FAIL("a gather in rows (B1) walks a and its indices at element stride, without a "
           "window, and takes its row length as B1 only");
    /* A slice shorter than a row (more threads than the phase ran with)
     * is one row, as a column span's block is walked whole. */
    S[0].row = C->span[0] < S[0].region ? C->span[0] : S[0].region;
  }
  if (gather) {
    /* The indices: uniform over x's region, from a hash of the position
     * (splitmix64), so the first touch can stay with the walking thread;
     * for a strided x (pattern s, spmv3p) a banded matrix's, so that a
     * thread's rows read its own part of x (GATHER_ROWS). */
    long xr = S[2].priv ? S[2].region * threads : S[2].region;
    if (xr > INT_MAX) FAIL("stream 3: more than %d elements to index", INT_MAX);
    long cnt = S[1].priv ? S[1].region * threads : S[1].region;
    for (long cp = 0; cp < S[1].copies; ++cp) {
      int *ix = (int *)(S[1].base + (size_t)cp * S[1].cbytes);
      if (!S[2].random) {
        /* A banded matrix: row r (ROW elements of the matrix, as many as
         * it has per element of x) reads the ROW elements of x around its
         * diagonal, r's place in x, one after the other. */
        long row = cnt / xr > 1 ? cnt / xr : 1, rows = (cnt + row - 1) / row;
#pragma omp parallel for schedule(static)
        for (long i = 0; i < cnt; ++i) {
          long r = i / row, col = (long)((unsigned __int128)r * (unsigned long)xr /
                                         (unsigned long)rows) + i % row - row / 2;
          ix[i] = (int)(col < 0 ? 0 : col >= xr ? xr - 1 : col);
        }
        continue;
      }
#pragma omp parallel for schedule(static)
      for (long i = 0; i < cnt; ++i) {
        uint64_t z = (uint64_t)i * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        ix[i] = (int)((z ^ (z >> 31)) % (uint64_t)xr);
      }
    }
  }
  /* Every stream is swept completely at least once per sweep: loops run for
   * the stream with the most accesses, smaller streams wrap. */
  void (*plain)(const char *, stream_t *, int, long, long, long) =
      elem == 8 ? kernel_double : !strcmp(C->type, "float") ? kernel_float : kernel_int;
  if (!strcmp(C->kernel, "sumw"))
    plain = elem == 8 ? kernel_inv_double
            : !strcmp(C->type, "float") ? kernel_inv_float
                                        : kernel_inv_int;
  void (*padded)(const char *, stream_t *, int, long, long, long, long, long) =
      elem == 8 ? kernel_pad_double : !strcmp(C->type, "float") ? kernel_pad_float : kernel_pad_int;
#define fn(K, S, NS, R, IT, G)                                                 \
  (C->work ? padded(K, S, NS, R, IT, G, C->work, C->work_every) : plain(K, S, NS, R, IT, G))

  /* Calibrate R: one sweep, then enough sweeps for min_rep_s. */
  double t0 = omp_get_wtime();
  TouchS = 0;
  fn(C->kernel, S, ns, 1, iters, SweepsDone++);
  double one = paged ? TouchS : omp_get_wtime() - t0;
  long R = 1;
  if (one < C->min_rep_s) R = (long)ceil(C->min_rep_s / (one > 1e-7 ? one : 1e-7));
  if (R > 1000000) R = 1000000;
  fn(C->kernel, S, ns, R, iters, SweepsDone); /* warm-up at the measured size */
  SweepsDone += R;

  times = malloc(sizeof(double) * (size_t)(C->max_reps > 0 ? C->max_reps : 1));
  int count = 0;
  double start = omp_get_wtime();
  for (;;) {
    double a = omp_get_wtime();
    TouchS = 0;
    fn(C->kernel, S, ns, R, iters, SweepsDone);
    SweepsDone += R;
    times[count++] = paged ? TouchS : omp_get_wtime() - a;
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
    size_t elem = el[q];
    double span = (double)(s->priv ? s->region * threads : s->region) * (double)elem;
    double stride = gather && q == 2 && s->random ? gather_mean_jump(&S[1], elem)
                    : s->random      ? mean_abs_jump(s, elem)
                                     : (double)(s->step * (long)elem);
    if (s->random) stride = floor(stride / (double)elem + 0.5) * (double)elem;
    printf("%s%.17g:%.17g:%zu:%s", q ? ";" : "", span / 1024.0, stride, elem,
           s->priv ? "private" : "shared");
  }
  printf(" ");
  for (int i = 0; i < count; ++i) printf("%s%.9g", i ? "," : "", times[i]);
  printf("\n");
out:
  /* The streams go back before the answer does: freeing a footprint of twice
   * the L3 keeps this process busy on its CPUs for a while, which must not
   * overlap the next measurement, another configuration's process in an
   * interleaved run. */
  free(times);
  for (int q = 0; q < MAX_STREAMS; ++q) free(S[q].base);
  fflush(stdout);
#undef fn
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
  int floating;
  int shared = threads_share_cpus(&floating);
  const char *hv = getenv("PHASEPROBE_UBENCH_HANDOVER");
  Handover = shared && !(hv && !strcmp(hv, "off"));
  const char *gb = getenv("PHASEPROBE_UBENCH_GIVE_BACK");
  GiveBackThread = gb && !strcmp(gb, "thread");
  /* The runner reads the thread count; the rest says how sweeps are run. */
  printf("ready threads=%d shares_cpus=%s handover=%s give_back=%s floating=%s\n", threads,
         shared ? "yes" : "no", Handover ? "on" : "off", GiveBackThread ? "thread" : "master",
         floating ? "yes" : "no");
  fflush(stdout);
  char line[1024];
  while (fgets(line, sizeof line, stdin)) {
    if (line[0] == '\n' || line[0] == '#') continue;
    config_t C;
    memset(&C, 0, sizeof C);
    int got = sscanf(line,
                     "%ld %15s %7s %d %3s %3s %lf %lf %lf %lf %lf %lf %d %d %lf %lf %lf %ld %ld "
                     "%ld %ld %ld %ld %ld %ld %ld %ld %d",
                     &C.id, C.kernel, C.type, &C.ns, C.access, C.pattern, &C.k[0], &C.s[0],
                     &C.k[1], &C.s[1], &C.k[2], &C.s[2], &C.min_reps, &C.max_reps,
                     &C.cv_pct, &C.cap_s, &C.min_rep_s, &C.work, &C.repeats, &C.window[0],
                     &C.window[1], &C.window[2], &C.work_every, &C.span[0], &C.span[1],
                     &C.span[2], &C.copies, &C.jump);
    if (got != 17 && got != 18 && got != 22 && got != 23 && got != 26 && got != 27 &&
        got != 28) {
      printf("%ld error malformed configuration line (%d fields)\n", got > 0 ? C.id : -1L, got);
      fflush(stdout);
      continue;
    }
    if (got < 23) C.work_every = 1;
    if (got < 27) C.copies = 1;
    if (C.min_reps < 1) C.min_reps = 1;
    if (C.max_reps < C.min_reps) C.max_reps = C.min_reps;
    run_config(&C, threads);
  }
  return 0;
}
