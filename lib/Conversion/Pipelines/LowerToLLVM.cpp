//===- LowerToLLVM.cpp - the qnn -> LLVM dialect pipeline
//------------------===//

#include "NPU/Transforms/Passes.h"
#include "QNN/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

LogicalResult qnn::buildLowerToLLVMPipeline(OpPassManager &pm,
                                            const LowerToLLVMOptions &options) {
  bool loops = options.target == "loops";
  // The targets whose code runs on x86 only (little-endian lanes).
  bool x86 = options.target == "avx512-vnni" || options.target == "int16" ||
             options.target == "int16-avx512bw";
  // Threads: the kernels' row loops and the tile loops of large elementwise
  // ops become OpenMP worksharing loops (num_threads only when a count is
  // given: 0 leaves the team size to libomp).
  bool parallel = options.threads != 1 && !loops;
  const char *parallelFlag = parallel ? "true" : "false";
  // The fusion of --qnn-to-npu decides which chains become one operator
  // (the CPU is one more target of the npu dialect); its remarks about
  // chains it leaves are not news here. convert-qnn-to-linalg then lowers
  // each npu convolution or dense layer straight to its kernel with the
  // epilogue inside, and the remaining qnn operators one by one.
  // Calls are inlined first (without the inliner's canonicalization of
  // every callee): a network written as one function per layer then
  // fuses, shares constants and folds each layer's input conversion into
  // the previous epilogue as a single function does. Unused private
  // functions go with their last call.
  pm.addPass(createInlinerPass(llvm::StringMap<OpPassManager>(),
                               [](OpPassManager &) {}));
  if (options.fuseToNPU) {
    pm.addPass(createCanonicalizerPass());
    npu::NPUFuseOptions fuseOptions;
    fuseOptions.remarks = false;
    pm.addNestedPass<func::FuncOp>(npu::createNPUFuse(fuseOptions));
  }
  std::string pipeline;
  llvm::raw_string_ostream os(pipeline);
  os << "convert-qnn-to-linalg{target=" << options.target
     << " fuse-depthwise-epilogues="
     << (options.fuseDepthwiseEpilogues ? "true" : "false")
     << " depthwise-self-padding-min-bytes="
     << options.depthwiseSelfPaddingMinBytes
     << " floor-affine=" << (options.floorAffine ? "true" : "false")
     << " add-affine=" << (options.addAffine ? "true" : "false")
     << "},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
        "tosa-to-tensor,convert-elementwise-to-linalg),canonicalize,";
  // Elementwise chains (bias add, requantize, clamp, activations) are fused
  // into one linalg.generic, moved into the kernels where they follow one,
  // and vectorized before bufferization; qnn-simplify-int-ranges removes
  // the clamps and 8-bit round trips of the fused bodies that value ranges
  // make redundant. target=loops keeps the scalar loops of every op (the
  // simplest path, to compare the others with).
  if (!loops)
    os << "linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues"
       << (options.fuseDepthwiseEpilogues ? "" : "{fuse-depthwise=false}")
       << ",qnn-simplify-int-ranges,qnn-vectorize-elementwise{parallel="
       << parallelFlag << " width=" << (options.target == "int16" ? 8 : 16)
       << " even-odd-products=" << (x86 ? "true" : "false")
       << "},canonicalize,";
  // Results become out-parameters so that callers (the JIT, C code) own
  // every output buffer; static allocations of the results are hoisted to
  // the call sites. qnn-order-constant-globals names and places the
  // constants' globals by first use: bufferization visits the functions
  // of a module in an order that varies from run to run.
  os << "one-shot-bufferize{bufferize-function-boundaries "
        "function-boundary-type-conversion=identity-layout-map},"
        "qnn-order-constant-globals,"
        "buffer-results-to-out-params{hoist-static-allocs "
        "modify-public-functions},"
        "func.func(cse,canonicalize,qnn-copies-to-linalg,"
        "convert-linalg-to-loops),"
        "buffer-deallocation-pipeline,func.func(qnn-plan-buffers),"
        "qnn-materialize-conv-kernels{emulate-vnni="
     << (options.emulateVNNI ? "true" : "false") << " parallel=" << parallelFlag
     << " vbmi=" << (options.vbmi ? "true" : "false") << "},";
  // scf-to-openmp wraps each body in a memref.alloca_scope, which
  // qnn-prepare-llvm-lowering inlines where it allocates nothing (scf-to-cf
  // cannot split the blocks of a scope). Without threads, the foralls of
  // the kernels' input preparation run as loops.
  if (parallel)
    os << "func.func(scf-forall-to-parallel),convert-scf-to-openmp{num-threads="
       << options.threads << "},";
  else
    os << "func.func(scf-forall-to-for),";
  // qnn-prepare-llvm-lowering expands memref views and lowers vector
  // transfers, slices and masks (expand-strided-metadata and the first
  // phase of convert-vector-to-llvm, on the operations that need them
  // only); then one dialect conversion (convert-to-llvm, through each
  // dialect's ConvertToLLVMPatternInterface, vector's included) replaces
  // the passes that each walked the whole module. For MobileNet v2 one
  // conversion took 0.18 s less than seven passes, and the preparation
  // about 0.2 s less than the two whole-module rewrites; the same IR.
  // qnn-fold-llvm-descriptors then reads the kernels' pointers from their
  // arguments instead of from descriptor structs (which OpenMP regions
  // captured whole).
  // qnn-byte-globals first: the constants become flat byte arrays (the
  // translation and the object writer handle i16/i32 arrays element by
  // element). The two whole-module conversions run without pattern
  // rollback (their patterns do not fail after rewriting): the driver
  // then keeps no undo log, and convert-to-llvm took a quarter less time
  // on MobileNet v2 (0.25 -> 0.19 s under qnn-opt; the serial code's
  // object byte for byte the same).
  os << "qnn-byte-globals,qnn-prepare-llvm-lowering,lower-affine,"
        "convert-scf-to-cf{allow-pattern-rollback=false},"
        "convert-to-llvm{allow-pattern-rollback=false},"
     << (parallel ? "convert-openmp-to-llvm," : "")
     << "reconcile-unrealized-casts,qnn-fold-llvm-descriptors"
     << (options.profileKernels ? ",qnn-profile-kernel-calls" : "");
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
      llvm::cl::init(true)};
  Option<bool> fuseToNPU{
      *this, "npu-fuse",
      llvm::cl::desc("fuse qnn chains into npu operators first (npu-fuse)"),
      llvm::cl::init(true)};
  Option<bool> emulateVNNI{
      *this, "emulate-vnni",
      llvm::cl::desc("compute vpdpbusd with generic vector code (testing on "
                     "CPUs without AVX512-VNNI)"),
      llvm::cl::init(false)};
  Option<bool> vbmi{
      *this, "vbmi",
      llvm::cl::desc("the VNNI kernels may use AVX512-VBMI (a CPU that has "
                     "it: Ice Lake, Zen 4 and later)"),
      llvm::cl::init(false)};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("threads of the compiled kernels: 1 = serial code, 0 = "
                     "OpenMP's default team, N = N threads (OpenMP)"),
      llvm::cl::init(1)};
  Option<int64_t> depthwiseSelfPaddingMinBytes{
      *this, "depthwise-self-padding-min-bytes",
      llvm::cl::desc("non-VNNI depthwise kernels pad by themselves from "
                     "inputs of this many bytes (convert-qnn-to-linalg)"),
      llvm::cl::init(qnn::kDefaultDepthwiseSelfPaddingMinBytes)};
  Option<bool> floorAffine{
      *this, "floor-affine",
      llvm::cl::desc("rescale accumulators in the floor-affine form on the "
                     "AVX-512 targets (convert-qnn-to-linalg)"),
      llvm::cl::init(true)};
  Option<bool> addAffine{
      *this, "add-affine",
      llvm::cl::desc("8-bit ADD and SUB in their integer affine form where "
                     "one is exact (convert-qnn-to-linalg)"),
      llvm::cl::init(true)};
  Option<bool> profileKernels{
      *this, "profile-kernels",
      llvm::cl::desc("end with qnn-profile-kernel-calls: each kernel call "
                     "counts its cycles and calls"),
      llvm::cl::init(false)};
};
} // namespace

void qnn::registerLowerToLLVMPipeline() {
  // Idempotent: the tools, initializeCompiler and embedders may all ask.
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  PassPipelineRegistration<PipelineOptions>(
      "qnn-lower-to-llvm",
      "Lower a qnn or npu program to the LLVM dialect (qnn -> npu -> "
      "kernels/linalg -> vector/loops -> llvm), bufferized with memref "
      "results as out-parameters",
      [](OpPassManager &pm, const PipelineOptions &options) {
        qnn::LowerToLLVMOptions opts;
        opts.target = options.target;
        opts.emulateVNNI = options.emulateVNNI;
        opts.vbmi = options.vbmi;
        opts.fuseDepthwiseEpilogues = options.fuseDepthwiseEpilogues;
        opts.fuseToNPU = options.fuseToNPU;
        opts.threads = options.threads;
        opts.depthwiseSelfPaddingMinBytes =
            options.depthwiseSelfPaddingMinBytes;
        opts.floorAffine = options.floorAffine;
        opts.addAffine = options.addAffine;
        opts.profileKernels = options.profileKernels;
        if (failed(qnn::buildLowerToLLVMPipeline(pm, opts)))
          llvm::report_fatal_error("invalid qnn-lower-to-llvm pipeline");
      });
}
