//===- MLIRFuzzer.cpp - fuzz the parser, verifiers and passes -------------===//
//
// Input: textual MLIR (qnn, npu and upstream ops). Whatever parses must be
// verified, and verified IR must go through canonicalization, --qnn-to-npu
// and npu-expand-to-qnn with every result verifying again: verifiers are the
// boundary the passes rely on, so IR that a verifier accepts and a pass
// crashes on is a finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "NPU/Transforms/Passes.h"
#include "QNN/Conversion/Passes.h"
#include "QNN/Utils/ParserGuards.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>

using namespace mlir;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registerTransformsPasses();
  npu::registerNPUPassesAndPipelines();
  mlir::qnn::registerQNNConversions();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Huge programs only slow the fuzzer down.
  if (size > 16384)
    return 0;
  auto context = qnn_fuzz::makeContext(/*all=*/true);
  // The MLIR lexer relies on a NUL after the buffer, as files read through
  // llvm::MemoryBuffer have: give the parser a NUL-terminated copy.
  std::string text(reinterpret_cast<const char *>(data), size);
  // A crash of the upstream parser that the tools guard against
  // (QNN/Utils/ParserGuards.h): not this project's finding.
  if (mlir::qnn::findIndexDenseArray(text) != llvm::StringRef::npos)
    return 0;
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      text, ParserConfig(context.get(), /*verifyAfterParse=*/true));
  if (!module)
    return 0;
  for (const char *pipeline :
       {"canonicalize", "qnn-to-npu", "func.func(npu-expand-to-qnn)"}) {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(context.get());
    if (failed(parsePassPipeline(pipeline, pm)))
      std::abort();
    if (succeeded(pm.run(*copy)) && failed(verify(*copy)))
      std::abort(); // a pass produced IR that does not verify
  }
  return 0;
}
