//===- Passes.h - qnn conversion passes -------------------------*- C++ -*-===//

#ifndef QNN_CONVERSION_PASSES_H
#define QNN_CONVERSION_PASSES_H

#include "QNN/Conversion/KernelDefaults.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir::qnn {

#define GEN_PASS_DECL
#include "QNN/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QNN/Conversion/Passes.h.inc"

/// qnn-profile-kernel-calls: the module attribute naming the kernel of each
/// call site it timed (an array of strings, in site order) and its global
/// array of counters (two i64 per site: cycles, then calls).
constexpr llvm::StringLiteral kProfileSitesAttrName = "qnn.profile_sites";
constexpr llvm::StringLiteral kProfileCountersName = "__qnn_profile_counters";

/// Options of the whole qnn -> LLVM pipeline.
struct LowerToLLVMOptions {
  /// generic, avx512-vnni, int16, int16-avx512bw or loops.
  std::string target = "generic";
  /// Emulate vpdpbusd with generic vector code (testing without VNNI).
  bool emulateVNNI = false;
  /// The VNNI kernels may use AVX512-VBMI (qnn-materialize-conv-kernels'
  /// vbmi): for CPUs that have it.
  bool vbmi = false;
  /// Also fuse depthwise kernels' epilogues (qnn-fuse-kernel-epilogues and
  /// the npu lowering).
  bool fuseDepthwiseEpilogues = true;
  /// Fuse qnn chains into npu operators first (npu-fuse, as --qnn-to-npu),
  /// so that convolutions and dense layers reach their kernels as npu
  /// operators, epilogue included. Off: qnn operators are lowered one by
  /// one and qnn-fuse-kernel-epilogues moves the epilogues it recognizes.
  bool fuseToNPU = true;
  /// Threads of the compiled code: 1 is serial code without OpenMP; 0 runs
  /// the kernels' row loops on OpenMP's default team (the cores available,
  /// or OMP_NUM_THREADS); N > 1 on N threads. The code then calls libomp.
  unsigned threads = 1;
  /// convert-qnn-to-linalg's depthwise-self-padding-min-bytes.
  int64_t depthwiseSelfPaddingMinBytes = kDefaultDepthwiseSelfPaddingMinBytes;
  /// convert-qnn-to-linalg's floor-affine.
  bool floorAffine = true;
  /// convert-qnn-to-linalg's add-affine.
  bool addAffine = true;
  /// End with qnn-profile-kernel-calls: every kernel call counts its
  /// cycles (for the JIT's getProfile; the same results).
  bool profileKernels = false;
};

/// Appends npu-fuse (canonicalize first), qnn/npu -> linalg, tosa -> linalg,
/// one-shot bufferization (function boundaries included, memref results become
/// out-parameters), linalg -> loops and the conversions to the LLVM dialect to
/// `pm`.
LogicalResult buildLowerToLLVMPipeline(OpPassManager &pm,
                                       const LowerToLLVMOptions &options);

/// Registers `--qnn-lower-to-llvm` (with option `target`).
void registerLowerToLLVMPipeline();

/// The fused activation of npu operator `op` applied to `value` (a tensor
/// of the op's result type, already clamped to the storage range): a
/// tosa.clamp to [act_min, act_max] when narrower than the storage range,
/// or one 256-entry table lookup (npu::getActivationTable) for leaky_relu
/// and lut. Shared by npu-expand-to-qnn and the npu lowering of
/// convert-qnn-to-linalg (npu.add and the pools).
Value applyNPUActivation(OpBuilder &b, Operation *op, Value value);

/// The qnn operator at the core of npu operator `op`: for npu.conv2d and
/// npu.fully_connected the i32 accumulator (qnn.conv2d NHWC/OHWI or
/// qnn.dense, no bias), for npu.add and the pools their result before the
/// activation (qnn.add, qnn.avg_pool2d, qnn.max_pool2d of the op's result
/// type). Null for other operations.
Value createNPUCore(OpBuilder &b, Operation *op);

/// Registers every qnn conversion pass and pipeline.
inline void registerQNNConversions() {
  registerQNNConversionPasses();
  registerLowerToLLVMPipeline();
}

} // namespace mlir::qnn

#endif // QNN_CONVERSION_PASSES_H
