//===- qnn-opt.cpp - the qnn-mlir optimizer driver
//-------------------------===//

#include "QNN/Conversion/Passes.h"
#include "NPU/IR/NPUDialect.h"
#include "NPU/Transforms/Passes.h"
#include "QNN/IR/QNNDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::qnn::registerQNNConversions();
  mlir::npu::registerNPUPassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::qnn::QNNDialect>();
  registry.insert<mlir::npu::NPUDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "qnn-mlir optimizer driver\n", registry));
}
