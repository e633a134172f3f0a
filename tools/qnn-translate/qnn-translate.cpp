//===- qnn-translate.cpp - qnn-mlir translation driver
//---------------------===//
//
// `qnn-translate --import-tflite model.tflite -o model.mlir`,
// `qnn-translate --import-onnx model.onnx -o model.mlir`.
//
//===----------------------------------------------------------------------===//

#include "QNN/Target/ONNX/ONNXImport.h"
#include "QNN/Target/TFLite/TFLiteImport.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::qnn::registerTFLiteImportTranslation();
  mlir::qnn::registerONNXImportTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "qnn-mlir translation driver"));
}
