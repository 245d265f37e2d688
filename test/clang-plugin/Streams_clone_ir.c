// The stream-sampling pass on clang's raw IR: the region body gets a
// sampling copy (`.ppsampled`), entered from the plain body's entry when a
// per-function thread-local countdown runs out; the plain body keeps no
// sampling code. In the copy, the worksharing loop gets a per-loop
// thread-local countdown, a burst entry, an instrumented clone whose sites
// carry element size and load/store (float store: 4 bytes, flag 1; double
// load: 8 bytes, flag 0), a never-vectorized clone backedge, and an end
// report at the exit. The loop-invariant *scale (a register after
// mem2reg/LICM) is not sampled, and serial code is left alone.
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=ATTR %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | grep -c "call void @__phaseprobe_sample" | FileCheck --check-prefix=COUNT %s
// RUN: %clang -O0 -fopenmp %pp_plugin -S -emit-llvm %s -o - 2>/dev/null | FileCheck --check-prefix=FLAG %s
// COUNT: 2

// CHECK-DAG: @__phaseprobe.countdown.0 = internal thread_local global i64 1
// CHECK-DAG: @[[LOADLOC:__phaseprobe.site.loc[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}Streams_clone_ir.c:[[@LINE+28]]:22\00"
// CHECK-DAG: @[[LOAD:__phaseprobe.site[.0-9]*]] = private constant { i32, i32, i8* } { i32 8, i32 0, i8* getelementptr inbounds ({{.*}}@[[LOADLOC]],
// CHECK-DAG: @[[STORELOC:__phaseprobe.site.loc[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}Streams_clone_ir.c:[[@LINE+26]]:12\00"
// CHECK-DAG: @[[STORE:__phaseprobe.site[.0-9]*]] = private constant { i32, i32, i8* } { i32 4, i32 1, i8* getelementptr inbounds ({{.*}}@[[STORELOC]],
// CHECK-DAG: @__phaseprobe.invocations..omp_outlined. = internal thread_local global i64 1
// CHECK-NOT: @__phaseprobe.countdown.1
// CHECK-LABEL: define internal void @.omp_outlined.(
// CHECK-NOT: __phaseprobe_burst
// CHECK-NOT: __phaseprobe_sample
// CHECK: call i32 @__phaseprobe_invocation_begin2(i64* @__phaseprobe.invocations..omp_outlined., i64* %{{[0-9a-z.]+}})
// CHECK-NOT: __phaseprobe_burst
// CHECK-NOT: __phaseprobe_sample
// CHECK: call void @.omp_outlined..ppsampled(
// CHECK-NOT: __phaseprobe_burst
// CHECK-NOT: __phaseprobe_sample
// CHECK-LABEL: define dso_local double @serial(
// CHECK-NOT: __phaseprobe_burst
// CHECK-LABEL: ret double
// CHECK-LABEL: define internal void @.omp_outlined..ppsampled(
// CHECK-DAG: call void @__phaseprobe_burst_end2(i64* %{{[0-9a-z.]+}}, i64
// CHECK-DAG: call void @__phaseprobe_sample({ i32, i32, i8* }* @[[LOAD]], i8*
// CHECK-DAG: call void @__phaseprobe_sample({ i32, i32, i8* }* @[[STORE]], i8*
// CHECK-DAG: call void @__phaseprobe_burst_stop()
// CHECK-DAG: call i32 @__phaseprobe_burst_begin2(i64* @__phaseprobe.countdown.0, i64* %{{[0-9a-z.]+}})
// CHECK: !{!"llvm.loop.vectorize.enable", i1 false}
void kernel(float *restrict out, const double *in, const double *scale, long n) {
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    out[i] = (float)(in[i] * *scale);
}
double serial(const double *in, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += in[i];
  return s;
}

// The runtime's entry points touch only its own memory and what their
// arguments point to (the countdown's address is an identity, the answer
// goes to a slot of the caller's, the sampled address is only recorded):
// to the optimizer, no call writes the program's memory.
// ATTR-DAG: declare i32 @__phaseprobe_invocation_begin2(i64* readnone, i64* nocapture writeonly) #[[OWNARG:[0-9]+]]
// ATTR-DAG: declare i32 @__phaseprobe_burst_begin2(i64* readnone, i64* nocapture writeonly) #[[OWNARG]]
// ATTR-DAG: declare void @__phaseprobe_sample({ i32, i32, i8* }* readonly, i8* readnone) #[[OWNARG]]
// ATTR-DAG: declare void @__phaseprobe_burst_end2(i64* nocapture writeonly, i64) #[[OWNARG]]
// ATTR-DAG: declare void @__phaseprobe_burst_stop() #[[OWN:[0-9]+]]
// ATTR-DAG: attributes #[[OWNARG]] = { inaccessiblemem_or_argmemonly }
// ATTR-DAG: attributes #[[OWN]] = { inaccessiblememonly }

// The root tells the runtime whether the thread runs its sampling copy
// (the iterations the samples stand among): the caller's value saved at
// entry, 0 in the plain body, 1 around the copy, the caller's again at
// every return; the copy itself leaves it alone.
// FLAG: @__phaseprobe_in_copy = external thread_local(initialexec) global i64
// FLAG-LABEL: define internal void @.omp_outlined.(
// FLAG: [[CALLER:%[0-9a-z.]+]] = load i64, i64* @__phaseprobe_in_copy
// FLAG: store i64 0, i64* @__phaseprobe_in_copy
// FLAG: store i64 [[CALLER]], i64* @__phaseprobe_in_copy
// FLAG-NEXT: ret void
// FLAG: store i64 1, i64* @__phaseprobe_in_copy
// FLAG-NEXT: call void @.omp_outlined..ppsampled(
// FLAG-NEXT: store i64 [[CALLER]], i64* @__phaseprobe_in_copy
// FLAG-NEXT: ret void
// FLAG-LABEL: define internal void @.omp_outlined..ppsampled(
// FLAG-NOT: @__phaseprobe_in_copy
