//===- LowerToLLVM.cpp - the qnn -> LLVM dialect pipeline
//------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

LogicalResult qnn::buildLowerToLLVMPipeline(OpPassManager &pm,
                                            const LowerToLLVMOptions &options) {
  // Elementwise chains (bias add, requantize, clamp, activations) are
  // fused into one linalg.generic and vectorized before bufferization.
  // Results become out-parameters so that callers (the JIT, C code) own
  // every output buffer; static allocations of the results are hoisted to
  // the call sites.
  // npu operators (from --qnn-to-npu) first go back to qnn sequences, so
  // that fused and unfused programs take the same road.
  std::string pipeline = llvm::formatv(
      "func.func(npu-expand-to-qnn),convert-qnn-to-linalg{{target={0}},"
      "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
      "tosa-to-tensor),"
      "canonicalize,{2}"
      "one-shot-bufferize{{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "buffer-results-to-out-params{{hoist-static-allocs "
      "modify-public-functions},"
      "func.func(qnn-copies-to-linalg,convert-linalg-to-loops),"
      "buffer-deallocation-pipeline,func.func(qnn-plan-buffers),"
      "qnn-materialize-conv-kernels{{emulate-vnni="
      "{1}},"
      "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
      "convert-vector-to-llvm,convert-ub-to-llvm,finalize-memref-to-llvm,"
      "convert-math-to-llvm,"
      "convert-arith-to-llvm,convert-index-to-llvm,convert-cf-to-llvm,"
      "convert-func-to-llvm,reconcile-unrealized-casts",
      options.target, options.emulateVNNI ? "true" : "false",
      // target=loops keeps the scalar loops of every op (the simplest
      // path, to compare the others with).
      options.target == "loops"
          ? std::string()
          : std::string("linalg-fuse-elementwise-ops,") +
                (options.fuseDepthwiseEpilogues
                     ? "qnn-fuse-kernel-epilogues{fuse-depthwise=true},"
                     : "qnn-fuse-kernel-epilogues,") +
                "qnn-vectorize-elementwise,"
                "canonicalize,");
  return parsePassPipeline(pipeline, pm);
}

namespace {
struct PipelineOptions : PassPipelineOptions<PipelineOptions> {
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("generic, avx512-vnni, int16, int16-avx512bw or loops"),
      llvm::cl::init("generic")};
  Option<bool> fuseDepthwiseEpilogues{
      *this, "fuse-depthwise-epilogues",
      llvm::cl::desc("also fuse the requantize epilogues of depthwise "
                     "kernels (see qnn-fuse-kernel-epilogues)"),
      llvm::cl::init(false)};
  Option<bool> emulateVNNI{
      *this, "emulate-vnni",
      llvm::cl::desc("compute vpdpbusd with generic vector code (testing on "
                     "CPUs without AVX512-VNNI)"),
      llvm::cl::init(false)};
};
} // namespace

void qnn::registerLowerToLLVMPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "qnn-lower-to-llvm",
      "Lower a qnn or npu program to the LLVM dialect (npu -> qnn -> linalg "
      "-> vector/loops -> "
      "llvm), bufferized with memref results as out-parameters",
      [](OpPassManager &pm, const PipelineOptions &options) {
        qnn::LowerToLLVMOptions opts;
        opts.target = options.target;
        opts.emulateVNNI = options.emulateVNNI;
        opts.fuseDepthwiseEpilogues = options.fuseDepthwiseEpilogues;
        if (failed(qnn::buildLowerToLLVMPipeline(pm, opts)))
          llvm::report_fatal_error("invalid qnn-lower-to-llvm pipeline");
      });
}
