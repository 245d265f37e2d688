/* Round trip of one cache line between two CPUs: thread A (pinned to the
 * first CPU) sets a flag, thread B (pinned to the second) clears it, and so
 * on. On one L3 (a CCX) a round trip takes tens of nanoseconds; between two
 * L3s (two CCDs of an AMD EPYC, two sockets) several times that. A VM's
 * vCPUs can be moved between them by the host while it runs, which changes
 * what a two-thread run of the same program costs (handoff_drift.py).
 *
 * Usage: handoff CPU_A CPU_B ROUND_TRIPS BURSTS
 * Prints one line per burst: "ok <ns per round trip>"; exit 2 on bad usage,
 * 1 when a thread cannot be pinned. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) atomic_int flag;
static long trips;
static int bursts;
static int cpu_b;
static atomic_int pinned_b;

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *answer(void *arg) {
  (void)arg;
  atomic_store(&pinned_b, pin(cpu_b) == 0 ? 1 : -1);
  // One extra burst: A warms up with the first, unreported.
  for (long i = 0; i < trips * (bursts + 1); ++i) {
    while (atomic_load_explicit(&flag, memory_order_acquire) != 1) {
    }
    atomic_store_explicit(&flag, 0, memory_order_release);
  }
  return NULL;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 5 || (trips = atol(argv[3])) < 1 || (bursts = atoi(argv[4])) < 1) {
    fprintf(stderr, "usage: handoff CPU_A CPU_B ROUND_TRIPS BURSTS\n");
    return 2;
  }
  int cpu_a = atoi(argv[1]);
  cpu_b = atoi(argv[2]);
  if (pin(cpu_a) != 0) {
    fprintf(stderr, "handoff: cannot pin a thread to CPU %d\n", cpu_a);
    return 1;
  }
  pthread_t other;
  if (pthread_create(&other, NULL, answer, NULL) != 0) {
    fprintf(stderr, "handoff: cannot start the second thread\n");
    return 1;
  }
  while (atomic_load(&pinned_b) == 0) {
  }
  if (atomic_load(&pinned_b) < 0) {
    fprintf(stderr, "handoff: cannot pin a thread to CPU %d\n", cpu_b);
    return 1;  // the other thread spins on: exit ends it
  }
  for (int b = 0; b <= bursts; ++b) {
    double t0 = now_ns();
    for (long i = 0; i < trips; ++i) {
      atomic_store_explicit(&flag, 1, memory_order_release);
      while (atomic_load_explicit(&flag, memory_order_acquire) != 0) {
      }
    }
    double per = (now_ns() - t0) / (double)trips;
    if (b > 0)
      printf("ok %.1f\n", per);
  }
  pthread_join(other, NULL);
  return 0;
}
