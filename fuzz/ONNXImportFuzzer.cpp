//===- ONNXImportFuzzer.cpp - fuzz the ONNX importer ----------------------===//
//
// Input: the bytes of a .onnx file (a serialized ModelProto). The importer
// must refuse anything it cannot take with an error, and whatever it
// returns must verify. Seeds: the models of test/Target/ONNX.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "QNN/Target/ONNX/ONNXImport.h"

#include "mlir/IR/Verifier.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = qnn_fuzz::makeContext();
  mlir::qnn::ONNXImportOptions options;
  options.maxTensorBytes = 1 << 20;
  options.maxTotalBytes = 1 << 24;
  llvm::StringRef buffer(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::qnn::importONNX(buffer, context.get(), "fuzz", options);
  if (module && mlir::failed(mlir::verify(*module)))
    std::abort(); // the importer returned IR that does not verify
  return 0;
}
