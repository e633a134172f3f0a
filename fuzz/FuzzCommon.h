//===- FuzzCommon.h - shared set-up of the libFuzzer targets ----*- C++ -*-===//
//
// Each target builds one MLIRContext per input with the dialects qnn
// programs use, and swallows diagnostics: an input the tools reject with an
// error is a correct outcome; only crashes, hangs, sanitizer reports and
// leaks are findings.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_FUZZ_FUZZCOMMON_H
#define QNN_FUZZ_FUZZCOMMON_H

#include "NPU/IR/NPUDialect.h"
#include "QNN/IR/QNNDialect.h"
#include "QNN/Target/TFLite/TFLiteImport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"

#include <memory>

namespace qnn_fuzz {

/// Limits for fuzzed models: small enough that the reference evaluator and
/// the passes stay fast, large enough for every seed model.
inline mlir::qnn::TFLiteImportOptions fuzzImportOptions() {
  mlir::qnn::TFLiteImportOptions options;
  options.maxTensorBytes = 1 << 20;
  options.maxTotalBytes = 1 << 24;
  return options;
}

/// A context with the dialects of imported and fused programs. `all` adds
/// every upstream dialect (for textual programs, which may name any).
inline std::unique_ptr<mlir::MLIRContext> makeContext(bool all = false) {
  mlir::DialectRegistry registry;
  if (all)
    mlir::registerAllDialects(registry);
  mlir::qnn::registerTFLiteImportDialects(registry);
  registry.insert<mlir::npu::NPUDialect>();
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics are expected outcomes here: drop them.
  context->getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  return context;
}

} // namespace qnn_fuzz

#endif // QNN_FUZZ_FUZZCOMMON_H
