//===- Passes.h - npu passes ------------------------------------*- C++ -*-===//

#ifndef NPU_TRANSFORMS_PASSES_H
#define NPU_TRANSFORMS_PASSES_H

#include "NPU/IR/NPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::npu {

#define GEN_PASS_DECL
#include "NPU/Transforms/Passes.h.inc"

/// Appends the `qnn-to-npu` pipeline to `pm` (a module pass manager):
/// canonicalize, npu-fuse on every function, canonicalize.
void buildQNNToNPUPipeline(OpPassManager &pm);

/// Registers the passes and the `qnn-to-npu` pipeline.
void registerNPUPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "NPU/Transforms/Passes.h.inc"

} // namespace mlir::npu

#endif // NPU_TRANSFORMS_PASSES_H
