//===- InitAll.h - register everything qnn-mlir provides --------*- C++ -*-===//
//
// The one header a tool embedding qnn-mlir includes to make its dialects,
// passes and pipelines available (library QNNMLIR::Registration):
//
//   mlir::DialectRegistry registry;
//   mlir::qnn::registerAllDialects(registry);   // qnn, npu + what they use
//   mlir::qnn::registerAllPasses();             // --qnn-*, --npu-*, pipelines
//   mlir::MLIRContext context(registry);
//
// The compiler API (QNN/Compiler/Compiler.h), the TFLite importer
// (QNN/Target/TFLite/TFLiteImport.h) and the reference evaluator
// (QNN/Reference/Evaluator.h, NPU/Reference/NPUEvaluator.h) are the entry
// points beyond passes; docs/Embedding.md shows them together.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_INITALL_H
#define QNN_INITALL_H

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace mlir::qnn {

/// The qnn and npu dialects, every upstream dialect that qnn programs,
/// imported models and the lowering pipelines use, their interface
/// extensions, and the translations to LLVM IR (builtin, llvm, openmp).
void registerAllDialects(DialectRegistry &registry);

/// qnn-mlir's own passes (`--qnn-*`, `--npu-*`) and pipelines
/// (`--qnn-to-npu`, `--qnn-lower-to-llvm`), for textual pipelines and
/// command lines. Upstream passes are registered by mlir::registerAllPasses.
void registerAllPasses();

/// Appends the `qnn-to-npu` pipeline to a module pass manager: normalize
/// (fold quantized constants), fuse every supported chain into npu ops.
void buildQNNToNPUPipeline(OpPassManager &pm);

} // namespace mlir::qnn

#endif // QNN_INITALL_H
