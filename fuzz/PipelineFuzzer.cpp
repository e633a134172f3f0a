//===- PipelineFuzzer.cpp - fuzz import, fusion and the reference ---------===//
//
// Input: the bytes of a .tflite file. When the importer takes it, the
// program must verify, survive --qnn-to-npu and verify again; when it is
// small enough to interpret quickly, the reference evaluator runs the qnn
// program and the fused npu program on the same deterministic inputs, and
// the two must compute the same bytes (fusion never changes results), or
// both refuse the program with an error.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "TFLiteMutator.h"

#include "NPU/Reference/NPUEvaluator.h"
#include "NPU/Transforms/Passes.h"
#include "QNN/Reference/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdlib>

using namespace mlir;

namespace {

/// A rough count of the evaluator's work: each op's result elements times
/// its largest operand. Programs above the budget are only compiled.
int64_t estimateWork(func::FuncOp func) {
  int64_t work = 0;
  func.walk([&](Operation *op) {
    int64_t largest = 1;
    for (Value v : op->getOperands())
      if (auto t = dyn_cast<ShapedType>(v.getType()); t && t.hasStaticShape())
        largest = std::max(largest, t.getNumElements());
    for (Value v : op->getResults())
      if (auto t = dyn_cast<ShapedType>(v.getType()); t && t.hasStaticShape())
        work += t.getNumElements() * largest;
  });
  return work;
}

FailureOr<SmallVector<mlir::qnn::ref::Tensor>>
evaluate(func::FuncOp func, ArrayRef<mlir::qnn::ref::Tensor> inputs) {
  mlir::qnn::ref::Evaluator evaluator;
  npu::registerReferenceOps(evaluator);
  return evaluator.run(func, inputs);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  npu::registerNPUPassesAndPipelines();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = qnn_fuzz::makeContext();
  llvm::StringRef buffer(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = mlir::qnn::importTFLite(
      buffer, context.get(), "fuzz", qnn_fuzz::fuzzImportOptions());
  if (!module)
    return 0;
  if (failed(verify(*module)))
    std::abort();
  OwningOpRef<ModuleOp> fused = module->clone();
  PassManager pm(context.get());
  if (failed(parsePassPipeline("qnn-to-npu", pm)))
    std::abort();
  if (failed(pm.run(*fused)))
    return 0; // a pass refused the program with an error
  if (failed(verify(*fused)))
    std::abort();

  auto func = module->lookupSymbol<func::FuncOp>("main");
  auto fusedFunc = fused->lookupSymbol<func::FuncOp>("main");
  if (!func || !fusedFunc || estimateWork(func) > 20'000'000)
    return 0;
  SmallVector<mlir::qnn::ref::Tensor> inputs;
  uint32_t state = static_cast<uint32_t>(size);
  for (Type type : func.getArgumentTypes()) {
    auto tensorType = cast<RankedTensorType>(type);
    mlir::qnn::ref::Tensor t(tensorType.getElementType(), tensorType.getShape());
    for (int64_t i = 0; i < t.numElements(); ++i) {
      state = state * 1664525u + 1013904223u;
      if (t.isFloat())
        t.floats[i] = static_cast<float>(static_cast<int32_t>(state >> 16) -
                                         32768) /
                      4096.0f;
      else
        t.ints[i] = mlir::qnn::ref::wrapToType(state >> 8, t.elementType);
    }
    inputs.push_back(std::move(t));
  }
  FailureOr<SmallVector<mlir::qnn::ref::Tensor>> before = evaluate(func, inputs);
  FailureOr<SmallVector<mlir::qnn::ref::Tensor>> after = evaluate(fusedFunc, inputs);
  if (failed(before) || failed(after)) {
    // Only the fused program failing would be a finding: fusion must not
    // turn an evaluable program into one the reference cannot run.
    if (succeeded(before))
      std::abort();
    return 0;
  }
  for (auto [a, b] : llvm::zip(*before, *after))
    if (mlir::qnn::ref::tensorToBytes(a) != mlir::qnn::ref::tensorToBytes(b))
      std::abort(); // --qnn-to-npu changed a result
  return 0;
}

QNN_FUZZ_DEFINE_TFLITE_MUTATOR()
