//===- PassPlugin.cpp - LLVM pass-plugin side of libphaseprobe.so ---------===//
//
// clang's back end loads this library as a new-PM pass plugin (the AST action
// put its path into CodeGenOpts.PassPlugins) and calls llvmGetPassPluginInfo.
// The instrumentation runs at the pipeline start: on clang's raw IR, before
// any optimization, at every -O level (LLVM 14's O0 pipeline invokes the
// pipeline-start callbacks too); the counters' step is made opaque at the
// optimizer's end (CounterStep.h).
//
//===----------------------------------------------------------------------===//
#include "CounterStep.h"
#include "InstrumentPass.h"
#include "StreamSampling.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "phaseprobe", "0.1",
          [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(phaseprobe::InstrumentPass());
                  MPM.addPass(phaseprobe::StreamSamplingPass());
                });
            // After the vectorizer, before the back end's loop strength
            // reduction (CounterStep.h).
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(phaseprobe::CounterStepPass());
                });
          }};
}
