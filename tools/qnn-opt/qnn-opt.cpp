//===- qnn-opt.cpp - the qnn-mlir optimizer driver
//-------------------------===//

#include "QNN/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::qnn::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::qnn::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "qnn-mlir optimizer driver\n", registry));
}
