//===- Pipeline.cpp - the qnn-to-npu pipeline -----------------------------===//

#include "NPU/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::npu::buildQNNToNPUPipeline(OpPassManager &pm) {
  // Normalization: qnn.quantize of constants folds to integer constants,
  // tensor.extract of constants folds, dead code goes.
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(npu::createNPUFuse());
  pm.addPass(createCanonicalizerPass());
}

void mlir::npu::registerNPUPassesAndPipelines() {
  // Idempotent: a pipeline registered twice is an error in MLIR.
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  registerNPUFuse();
  registerNPUBindParams();
  registerNPUPartition();
  PassPipelineRegistration<>(
      "qnn-to-npu",
      "Normalize qnn programs (fold quantized constant weights and biases) "
      "and fuse every supported chain into npu operators",
      buildQNNToNPUPipeline);
}
