//===- TFLiteImportFuzzer.cpp - fuzz the TFLite importer ------------------===//
//
// Input: the bytes of a .tflite file. The importer must refuse anything it
// cannot take with an error, and whatever it returns must verify.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "TFLiteMutator.h"

#include "mlir/IR/Verifier.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = qnn_fuzz::makeContext();
  llvm::StringRef buffer(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::qnn::importTFLite(
      buffer, context.get(), "fuzz", qnn_fuzz::fuzzImportOptions());
  if (module && mlir::failed(mlir::verify(*module)))
    std::abort(); // the importer returned IR that does not verify
  return 0;
}

QNN_FUZZ_DEFINE_TFLITE_MUTATOR()
