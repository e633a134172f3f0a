//===- ONNXImport.h - ONNX model to qnn IR -----------------------*- C++ -*-===//
//
// Imports the graph of a quantized ONNX model (PyTorch's and ONNX Runtime's
// exports) into one `func.func @main` of qnn ops and upstream ops, in
// ONNX's NCHW layout, with ONNX's arithmetic: requantizes and quantizes
// carry `#qnn.rounding<onnx>` (ONNX Runtime's float32 rescale, halves to
// even; docs/Arithmetic.md).
//
// Two forms are accepted:
//  - operator form: QuantizeLinear, DequantizeLinear, QLinearConv,
//    QLinearMatMul, ConvInteger, MatMulInteger and the data-movement ops
//    around them (MaxPool, Reshape, Flatten, Transpose);
//  - QDQ form: DequantizeLinear -> float Conv / MatMul / Gemm (+ Relu or
//    Clip) -> QuantizeLinear chains become the qnn ops they stand for, as
//    ONNX Runtime's QDQ fusion turns them into QLinearConv/QLinearMatMul;
//    data-movement ops between a DequantizeLinear and a QuantizeLinear act
//    on the integers.
// Anything else is refused with one error listing every unsupported op.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_TARGET_ONNX_ONNXIMPORT_H
#define QNN_TARGET_ONNX_ONNXIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::qnn {

struct ONNXImportOptions {
  /// The largest single tensor (initializer or intermediate), in bytes.
  int64_t maxTensorBytes = int64_t(1) << 31;
  /// The sum over all initializers, in bytes.
  int64_t maxTotalBytes = int64_t(1) << 33;
};

/// Whether this build has the ONNX importer (Debian's libonnx-dev).
bool isONNXImportAvailable();

/// Registers the dialects that imported modules use.
void registerONNXImportDialects(DialectRegistry &registry);

/// Imports `buffer` (the bytes of a .onnx file). On failure, emits one
/// error through the context's diagnostic engine (located at `sourceName`,
/// naming the node index, name and op type, and the tensor involved) and
/// returns a null module.
OwningOpRef<ModuleOp> importONNX(llvm::StringRef buffer, MLIRContext *context,
                                 llvm::StringRef sourceName = "<onnx>",
                                 const ONNXImportOptions &options = {});

/// Registers `--import-onnx` with mlir-translate style drivers.
void registerONNXImportTranslation();

} // namespace mlir::qnn

#endif // QNN_TARGET_ONNX_ONNXIMPORT_H
