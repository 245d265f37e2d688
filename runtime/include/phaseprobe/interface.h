/*===- phaseprobe/interface.h - Compiler <-> runtime ABI ----------*- C -*-===*
 *
 * The only contract between code instrumented by the phaseprobe Clang plugin
 * (libphaseprobe.so) and the runtime (libphaseprobe_rt). The plugin emits
 * calls to these entry points; nothing else of the runtime is visible to
 * instrumented code. It is an ABI: any change to a layout or a signature
 * below bumps PHASEPROBE_ABI_VERSION, which the plugin stamps into every
 * object it instruments and the runtime checks when the object registers.
 *
 * Two things never change across versions, so that a mismatch can always be
 * detected and reported instead of producing garbage:
 *   - the signature of __phaseprobe_register, and
 *   - the first field of __phaseprobe_construct (the runtime-assigned index,
 *     which the runtime sets to PHASEPROBE_DISABLED on a mismatch).
 *
 *===----------------------------------------------------------------------===*/
#ifndef PHASEPROBE_INTERFACE_H
#define PHASEPROBE_INTERFACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PHASEPROBE_API __attribute__((visibility("default")))

/** Version of this interface; the plugin passes it to __phaseprobe_register. */
#define PHASEPROBE_ABI_VERSION 2u

/** Index value of a construct the runtime does not track (ABI mismatch). */
#define PHASEPROBE_DISABLED 0xffffffffu

/** What a construct is; the phase file's "kind" string is derived from it. */
enum __phaseprobe_kind {
  __PHASEPROBE_PARALLEL = 1,          /* parallel region (fork/join)         */
  __PHASEPROBE_PARALLEL_FOR = 2,      /* combined parallel for (one phase)   */
  __PHASEPROBE_PARALLEL_SECTIONS = 3, /* combined parallel sections          */
  __PHASEPROBE_TEAMS = 4,             /* teams region executed on the host   */
  __PHASEPROBE_FOR = 16,              /* worksharing loop inside a region    */
  __PHASEPROBE_SECTIONS = 17,         /* sections inside a region            */
  __PHASEPROBE_SINGLE = 18,           /* single (one thread executes)        */
  __PHASEPROBE_MASTER = 19,           /* master / masked                     */
  __PHASEPROBE_DISTRIBUTE = 20        /* distribute inside teams             */
};

/** One static OpenMP construct. The plugin emits one per construct and
 *  source location into a module-local array; the runtime owns `index`. */
typedef struct __phaseprobe_construct {
  uint32_t index;       /* set by __phaseprobe_register; first in every ABI */
  uint32_t kind;        /* enum __phaseprobe_kind */
  uint32_t line;        /* line of the pragma */
  uint32_t column;      /* column of the pragma */
  const char *file;     /* file as the compiler saw it (may be a header)  */
  const char *function; /* enclosing source function */
} __phaseprobe_construct;

/** Emitted once per instrumented object, in a module constructor that runs
 *  before any user constructor: registers the object's `count` constructs.
 *  `module` names the object's main source file (for messages) and
 *  `construct_size` is sizeof(__phaseprobe_construct) as the plugin laid it
 *  out (so a mismatching runtime can still walk the array). When
 *  `abi_version` differs from the runtime's, one line is printed on stderr
 *  and every construct of the object is set to PHASEPROBE_DISABLED: the
 *  program runs normally, that object is simply not measured. */
PHASEPROBE_API void __phaseprobe_register(uint32_t abi_version, const char *module,
                           __phaseprobe_construct *constructs, uint32_t count,
                           uint32_t construct_size);

/** Emitted in the forking thread immediately before __kmpc_fork_call,
 *  __kmpc_fork_teams and __kmpc_serialized_parallel. */
PHASEPROBE_API void __phaseprobe_region_begin(__phaseprobe_construct *c);

/** Emitted in the forking thread immediately after the fork call returns
 *  (the join), and after __kmpc_end_serialized_parallel. */
PHASEPROBE_API void __phaseprobe_region_end(__phaseprobe_construct *c);

/** Emitted at the entry of a region's outlined function: every thread of
 *  the team calls it when it starts executing the region body. */
PHASEPROBE_API void __phaseprobe_thread_begin(__phaseprobe_construct *c);

/** Emitted before every return of a region's outlined function. */
PHASEPROBE_API void __phaseprobe_thread_end(__phaseprobe_construct *c);

/** Emitted immediately before __kmpc_for_static_init_*, __kmpc_dispatch_init_*,
 *  __kmpc_single, __kmpc_master and __kmpc_masked of a worksharing construct
 *  that is a phase of its own (not the loop of a combined `parallel for`). */
PHASEPROBE_API void __phaseprobe_ws_begin(__phaseprobe_construct *c);

/** Emitted immediately after __kmpc_single / __kmpc_master / __kmpc_masked
 *  with their result: a thread that does not execute the block (0) leaves
 *  the construct without recording a share. */
PHASEPROBE_API void __phaseprobe_ws_entered(int32_t executes);

/** Emitted immediately after __kmpc_dispatch_next_* with its result: the
 *  thread's share of a dynamic/guided/runtime loop ends when it is 0. */
PHASEPROBE_API void __phaseprobe_ws_next(int32_t more);

/** Emitted immediately after __kmpc_for_static_fini, __kmpc_end_single,
 *  __kmpc_end_master and __kmpc_end_masked: the thread's share ends. */
PHASEPROBE_API void __phaseprobe_ws_end(void);

/** Innermost-loop iterations executed by the calling thread. Instrumented
 *  functions count their innermost loops in a local counter and add it here
 *  before every probe call and every return; probes read it. The variable is
 *  initial-exec TLS, so the addition is one instruction. */
PHASEPROBE_API extern __thread uint64_t __phaseprobe_iterations
    __attribute__((tls_model("initial-exec")));

/** OpenMP barriers crossed by the calling thread: instrumented code adds one
 *  before every __kmpc_barrier / __kmpc_cancel_barrier call (ABI 2). Objects
 *  that do not reference it (built before it existed) are counted only
 *  their regions' joins. */
PHASEPROBE_API extern __thread uint64_t __phaseprobe_barriers
    __attribute__((tls_model("initial-exec")));

/** Spin loops of the calling thread (loops that store no memory and no loop
 *  state and read through `omp flush`, an atomic or a volatile load: they
 *  end only by another thread's write; those that give the core away, e.g.
 *  with sched_yield, are not counted, clang-plugin/SyncLoops.h): instrumented code adds
 *  one to __phaseprobe_spin_entries at every entry into one and one to
 *  __phaseprobe_spin_waits each time one goes round at least once. Objects
 *  built before they existed count none. */
PHASEPROBE_API extern __thread uint64_t __phaseprobe_spin_waits
    __attribute__((tls_model("initial-exec")));
PHASEPROBE_API extern __thread uint64_t __phaseprobe_spin_entries
    __attribute__((tls_model("initial-exec")));

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PHASEPROBE_INTERFACE_H */

/*===-- Stream sampling (Instrumentation II, issue 3) ---------------------===*
 *
 * Added without changing anything above, so objects built for ABI 1 without
 * sampling keep working. The plugin gives every function that parallel code
 * runs a sampling copy, entered for one invocation in
 * PHASEPROBE_SAMPLE_INVOCATIONS (see __phaseprobe_invocation_begin); in the
 * copy, every innermost loop is cloned into an instrumented copy. Before each execution
 * of the loop it decrements a thread-local, per-loop countdown (initially 1);
 * when that reaches zero it calls __phaseprobe_burst_begin, and a non-zero
 * result runs that many iterations in the copy, which reports every load and
 * store through __phaseprobe_sample, then continues in the original loop.
 * See clang-plugin/README.md, "Stream sampling".
 *===----------------------------------------------------------------------===*/
#ifndef PHASEPROBE_INTERFACE_SAMPLING_H
#define PHASEPROBE_INTERFACE_SAMPLING_H

#ifdef __cplusplus
extern "C" {
#endif

/** One static load or store site: a private constant emitted per site; its
 *  address identifies the site. */
typedef struct __phaseprobe_site {
  uint32_t elem_bytes; /* store size of the accessed type                 */
  uint32_t flags;      /* PHASEPROBE_SITE_* bits                          */
  const char *loc;     /* "file:line:col", or "function#n" without a line */
} __phaseprobe_site;

#define PHASEPROBE_SITE_STORE 1u
/* The address does not move with the inner loop, unrolled whole, that the
 * site sits in: the element sampled again right after itself is the same
 * access (the optimizer makes it once per iteration of the loop around).
 * Runtimes that predate the bit count each repetition, as before. */
#define PHASEPROBE_SITE_OUTER 2u

/** Emitted at the entry of a function that parallel code starts in (an
 *  outlined region body, a function with an orphaned worksharing construct)
 *  when its thread-local, per-function countdown (initially 1) reached zero.
 *  Returns non-zero when this invocation runs in the function's sampling
 *  copy (whose innermost loops are the instrumented ones described here),
 *  zero for the plain function, and stores into *countdown how many
 *  invocations the thread runs plain before asking again (added in ABI 2
 *  without a version change: an object that calls it needs this runtime,
 *  and says so at link time). */
PHASEPROBE_API uint32_t __phaseprobe_invocation_begin(int64_t *countdown);

/** Emitted in a loop's preheader when the loop's countdown reached zero.
 *  Returns the number of iterations to run instrumented (0: run the plain
 *  loop; PHASEPROBE_BURST_CONTROL: run the plain loop and report its end
 *  with __phaseprobe_burst_end, a timed control execution) and stores into
 *  *countdown how many executions of this loop the thread skips before
 *  asking again. */
PHASEPROBE_API uint32_t __phaseprobe_burst_begin(int64_t *countdown);

/** burst_begin's answer for a control execution (ABI 2). */
#define PHASEPROBE_BURST_CONTROL 0xffffffffu

/** Emitted in the instrumented copy before each load/store of a site, with
 *  the address accessed. */
PHASEPROBE_API void __phaseprobe_sample(const __phaseprobe_site *site,
                                        const void *addr);

/** Emitted when the instrumented copy has run its burst and jumps to the
 *  original loop for the rest of the execution. */
PHASEPROBE_API void __phaseprobe_burst_stop(void);

/** Emitted on every exit of a loop execution that called
 *  __phaseprobe_burst_begin with a non-zero result: `backedges` is the number
 *  of iterations the execution ran; the runtime sets the next countdown. */
PHASEPROBE_API void __phaseprobe_burst_end(int64_t *countdown,
                                           uint64_t backedges);

/** The same three calls as the plugin emits them now: the countdown's
 *  address is only the identity of the root or loop (never read nor
 *  written), and the next countdown goes to *next, a slot of the caller's,
 *  which the caller then stores into its countdown. The plugin tells the
 *  optimizer that these calls touch only the runtime's own memory and what
 *  their pointer arguments point to; with the countdown written here, every
 *  call would seem to write any memory the program shares, and a sampling
 *  copy would reload around it what the program's own code keeps in
 *  registers. Objects built before keep calling the three above. */
PHASEPROBE_API uint32_t __phaseprobe_invocation_begin2(const int64_t *root,
                                                       int64_t *next);
PHASEPROBE_API uint32_t __phaseprobe_burst_begin2(const int64_t *loop,
                                                  int64_t *next);
PHASEPROBE_API void __phaseprobe_burst_end2(int64_t *next, uint64_t backedges);

/** Non-zero while the calling thread runs a root's sampling copy: a root
 *  saves it at entry, sets it to 1 around the call of its copy and to 0 in
 *  its plain body (a root run plain inside another's copy samples nothing),
 *  and restores it at every return. The runtime counts the iterations of
 *  shares that end with it set apart, the iterations the sampled loops'
 *  samples stand among (streams' accesses per iteration). Added without a
 *  version change: an object that references it needs this runtime. */
PHASEPROBE_API extern __thread uint64_t __phaseprobe_in_copy
    __attribute__((tls_model("initial-exec")));

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PHASEPROBE_INTERFACE_SAMPLING_H */

/*===-- Branches on the thread count --------------------------------------===*
 *
 * Added without changing anything above. Where the plugin finds code that
 * branches on a value computed from the thread count (omp_get_max_threads()
 * and friends, clang-plugin/ThreadBranches.h), the object's module
 * constructor reports those sites after __phaseprobe_register. The object
 * references the entry point weakly and calls it only when it resolved, so
 * a runtime without it links and runs the object as before.
 *===----------------------------------------------------------------------===*/
#ifndef PHASEPROBE_INTERFACE_THREAD_BRANCHES_H
#define PHASEPROBE_INTERFACE_THREAD_BRANCHES_H
#ifdef __cplusplus
extern "C" {
#endif

/** `count` sites "file:line:col" (or "function <name>") of object `module`
 *  whose code branches on the thread count, each followed by the branch's
 *  test where the plugin knows it (" (threads > 1)"); the strings live as
 *  long as the object. The phase file lists them as program.thread_branches. */
PHASEPROBE_API void __phaseprobe_thread_branches(const char *module,
                                                 const char *const *sites,
                                                 uint32_t count);

/** `count` pairs (regions[i], tests[i]): region regions[i] of object
 *  `module` (already registered) runs only where the thread count passes
 *  tests[i] ("threads > 1"): only one way of a branch on the count reaches
 *  it. A region may come with several tests, all of which must hold. The
 *  strings live as long as the object. The phase file lists them as the
 *  phase's runs_if. Called after __phaseprobe_thread_branches, weakly too. */
PHASEPROBE_API void __phaseprobe_region_guards(const char *module,
                                               __phaseprobe_construct *const *regions,
                                               const char *const *tests, uint32_t count);

/** The arithmetic of each construct's code, by kind: `count` constructs
 *  (already registered) of object `module`, and PHASEPROBE_OP_KINDS counts
 *  per construct in `counts` (add, mul, div, sqrt, math: the floating-point
 *  operations of the innermost loops the construct runs and of what they
 *  call, counted statically; only their proportions mean something). The
 *  phase file lists them as the phase's ops. Called weakly too. */
#define PHASEPROBE_OP_KINDS 5
PHASEPROBE_API void __phaseprobe_op_mix(const char *module,
                                        __phaseprobe_construct *const *constructs,
                                        const uint32_t *counts, uint32_t count);

/** Memory allocated only under tests of the thread count (LULESH's force
 *  arrays under `if (numthreads > 1)`): the plugin calls
 *  __phaseprobe_alloc_note(p, bytes) after the allocator calls (malloc,
 *  calloc, realloc, aligned_alloc, new) that such a call may return the
 *  memory of, and __phaseprobe_guarded_alloc(p, tests, count) after the
 *  call, with the tests that all held ("threads > 1"; strings that live as
 *  long as the object). The runtime takes p for the memory of the last
 *  note of the calling thread only if that note is of p, and charges the
 *  first touches of its pages in top-level regions to the tests (the phase
 *  file's guarded_page_faults). Both are referenced weakly and called only
 *  where they resolved. */
PHASEPROBE_API void __phaseprobe_alloc_note(void *p, uint64_t bytes);
PHASEPROBE_API void __phaseprobe_guarded_alloc(void *p, const char *const *tests,
                                               uint32_t count);

/** Serial code only one way of a tested branch on the thread count reaches,
 *  where the other way does no work: the plugin calls
 *  __phaseprobe_serial_guard_begin(tests, count) on the way in and
 *  __phaseprobe_serial_guard_end() on every way out. The runtime times the
 *  outermost such stretch of a thread outside regions, less the top-level
 *  regions it forked meanwhile (the phase file's program.guarded_serial).
 *  Referenced weakly and called only where they resolved. */
PHASEPROBE_API void __phaseprobe_serial_guard_begin(const char *const *tests, uint32_t count);
PHASEPROBE_API void __phaseprobe_serial_guard_end(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PHASEPROBE_INTERFACE_THREAD_BRANCHES_H */
