//===- TFLiteImport.h - TFLite flatbuffer to qnn IR -------------*- C++ -*-===//
//
// Imports the main subgraph of a TensorFlow Lite model into one
// `func.func @main` of qnn ops and upstream ops (tosa, tensor, linalg,
// arith). Quantization parameters are kept exactly: f32 scales bit for bit,
// zero points, per-channel axes; requantize scales are the exact double
// products `double(input_scale) * double(weight_scale[c])`.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_TARGET_TFLITE_TFLITEIMPORT_H
#define QNN_TARGET_TFLITE_TFLITEIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class SourceMgr;
namespace cl {
class OptionCategory;
} // namespace cl
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::qnn {

/// Limits that protect the importer and every later stage from absurd or
/// hostile models: a model whose tensors exceed them is refused with an
/// error instead of failing an allocation later.
struct TFLiteImportOptions {
  /// The rounding of TFLite's fixed-point rescales (MultiplyByQuantized-
  /// Multiplier) in CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, MUL,
  /// MEAN, QUANTIZE and RELU: `Single` is TFLite built with
  /// TFLITE_SINGLE_ROUNDING=1, the rule of the TFLite/LiteRT 2.x runtimes
  /// (`#qnn.rounding<tflite_single>`); `Double` is gemmlowp's double
  /// rounding, TFLite Micro's and older TFLite builds' rule
  /// (`#qnn.rounding<tflite>`).
  enum class Rounding { Single, Double };
  Rounding rounding = Rounding::Single;
  /// The largest single tensor, in bytes.
  int64_t maxTensorBytes = int64_t(1) << 31;
  /// The sum over all tensors of the subgraph, in bytes.
  int64_t maxTotalBytes = int64_t(1) << 33;
};

/// Registers the dialects that imported modules use.
void registerTFLiteImportDialects(DialectRegistry &registry);

/// Imports `buffer` (the bytes of a .tflite file). The buffer is verified
/// with the flatbuffers verifier before anything is read. On failure, emits
/// one error through the context's diagnostic engine (located at
/// `sourceName`, naming the operator index and tensor involved) and returns
/// a null module; it never reads outside `buffer`.
OwningOpRef<ModuleOp> importTFLite(llvm::StringRef buffer, MLIRContext *context,
                                   llvm::StringRef sourceName = "<tflite>",
                                   const TFLiteImportOptions &options = {});

/// Loads the program a tool is given: a `.tflite` or `.onnx` file is
/// imported (importTFLite, importONNX), any other file is parsed as MLIR into `sourceMgr` (whose diagnostic handler
/// reports parse errors). If the file cannot be read, prints
/// "<toolName>: <reason>" to stderr. Returns null on any failure.
OwningOpRef<ModuleOp> loadProgramFile(llvm::StringRef path,
                                      MLIRContext *context,
                                      llvm::SourceMgr &sourceMgr,
                                      llvm::StringRef toolName,
                                      const TFLiteImportOptions &options = {});

/// Registers the importer's command-line options (`--tflite-rounding`,
/// `--max-tensor-bytes`, `--max-total-bytes`) in their own category, for
/// tools that take .tflite files; call before parsing the command line.
llvm::cl::OptionCategory &registerTFLiteImportCLOptions();
/// The options given on the command line (defaults where none were given or
/// the options were not registered).
TFLiteImportOptions getTFLiteImportCLOptions();

/// Registers `--import-tflite` with mlir-translate style drivers.
void registerTFLiteImportTranslation();

} // namespace mlir::qnn

#endif // QNN_TARGET_TFLITE_TFLITEIMPORT_H
