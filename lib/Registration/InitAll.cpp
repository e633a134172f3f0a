//===- InitAll.cpp - register everything qnn-mlir provides ----------------===//

#include "QNN/InitAll.h"

#include "NPU/Transforms/Passes.h"
#include "QNN/Compiler/Compiler.h"
#include "QNN/Conversion/Passes.h"
#include "QNN/Target/ONNX/ONNXImport.h"
#include "QNN/Target/TFLite/TFLiteImport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void qnn::registerAllDialects(DialectRegistry &registry) {
  registerCompilerDialects(registry);
  registerTFLiteImportDialects(registry);
  registerONNXImportDialects(registry);
}

void qnn::registerAllPasses() {
  // Both are idempotent (initializeCompiler also registers the former).
  registerQNNConversions();
  npu::registerNPUPassesAndPipelines();
}

void qnn::buildQNNToNPUPipeline(OpPassManager &pm) {
  npu::buildQNNToNPUPipeline(pm);
}
