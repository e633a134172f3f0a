//===- qnn-embed.cpp - qnn-mlir used as a library ---------------------------===//
//
// Parses a qnn program, fuses it into npu operators (qnn-to-npu), compiles
// the fused program to native code for this CPU, runs it on deterministic
// inputs and checks every output byte against the reference evaluator.
//
//   qnn-embed program.mlir [--target generic|avx512-vnni|int16|...]
//             [--threads N]
//
// Exit status: 0 when native == reference, 1 otherwise or on any error.
//
//===----------------------------------------------------------------------===//

#include "NPU/Reference/NPUEvaluator.h"
#include "QNN/Compiler/Compiler.h"
#include "QNN/InitAll.h"
#include "QNN/Reference/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace mlir;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "qnn-embed: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  std::string path, target = qnn::getHostTarget();
  unsigned threads = 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--target") && i + 1 < argc)
      target = argv[++i];
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = std::atoi(argv[++i]);
    else
      path = argv[i];
  }
  if (path.empty())
    return fail("usage: qnn-embed program.mlir [--target T] [--threads N]");

  // 1. A context that knows qnn, npu and everything their programs use.
  DialectRegistry registry;
  qnn::registerAllDialects(registry);
  qnn::registerAllPasses();
  MLIRContext context(registry);
  // Diagnostics quote the offending line of the input file.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(path, sourceMgr, ParserConfig(&context));
  if (!module)
    return 1; // the parser reported the error with its location

  // 2. Fusion: the npu program an accelerator would receive.
  PassManager pm(&context);
  qnn::buildQNNToNPUPipeline(pm);
  if (failed(pm.run(*module)))
    return fail("qnn-to-npu failed");
  std::map<std::string, int> counts;
  module->walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "npu")
      ++counts[op->getName().getStringRef().str()];
  });
  llvm::outs() << "fused:";
  for (auto &[name, count] : counts)
    llvm::outs() << " " << name << " x" << count;
  llvm::outs() << "\n";

  // 3. Deterministic inputs for @main.
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main)
    return fail("the program has no @main");
  std::vector<qnn::ref::Tensor> inputs;
  std::vector<std::vector<char>> inputBytes;
  for (auto [i, type] : llvm::enumerate(main.getArgumentTypes())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType || !tensorType.hasStaticShape())
      return fail("argument " + llvm::Twine(i) + " is not a static tensor");
    std::vector<char> bytes(tensorType.getNumElements() *
                            qnn::ref::elementByteSize(
                                tensorType.getElementType()));
    for (size_t b = 0; b < bytes.size(); ++b)
      bytes[b] = char((b * 37 + 11 * (i + 1)) & 0xff);
    std::string error;
    FailureOr<qnn::ref::Tensor> t =
        qnn::ref::tensorFromBytes(tensorType, bytes, error);
    if (failed(t))
      return fail(error);
    inputs.push_back(*t);
    inputBytes.push_back(std::move(bytes));
  }

  // 4. The reference evaluator on the fused program.
  qnn::ref::Evaluator evaluator;
  npu::registerReferenceOps(evaluator);
  FailureOr<SmallVector<qnn::ref::Tensor>> expected =
      evaluator.run(main, inputs);
  if (failed(expected))
    return fail("the reference evaluator failed");

  // 5. Native code: the compiler API lowers and JIT-compiles the fused
  // program (npu ops straight to kernels).
  qnn::CompileOptions options;
  options.target = target;
  options.threads = threads;
  if (llvm::Error err = qnn::checkTargetSupported(target))
    return fail(llvm::toString(std::move(err)));
  auto compiled = qnn::CompiledModule::compile(module->clone(), options);
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()));
  std::vector<std::vector<char>> outputBytes;
  SmallVector<const void *> in;
  SmallVector<void *> out;
  for (auto &bytes : inputBytes)
    in.push_back(bytes.data());
  for (RankedTensorType type : (*compiled)->getOutputTypes())
    outputBytes.emplace_back(
        type.getNumElements() * qnn::getElementBytes(type.getElementType()));
  for (auto &bytes : outputBytes)
    out.push_back(bytes.data());
  if (llvm::Error err = (*compiled)->run(in, out))
    return fail(llvm::toString(std::move(err)));

  // 6. Native == reference, byte for byte.
  bool same = outputBytes.size() == expected->size();
  for (size_t i = 0; same && i < outputBytes.size(); ++i)
    same = outputBytes[i] == qnn::ref::tensorToBytes((*expected)[i]);
  for (size_t i = 0; i < outputBytes.size(); ++i) {
    llvm::outs() << "output " << i << " (" << outputBytes[i].size()
                 << " bytes), first bytes:";
    for (size_t b = 0; b < std::min<size_t>(8, outputBytes[i].size()); ++b)
      llvm::outs() << " " << unsigned(static_cast<unsigned char>(outputBytes[i][b]));
    llvm::outs() << "\n";
  }
  llvm::outs() << "target " << target << ": native "
               << (same ? "==" : "!=") << " reference\n";
  return same ? 0 : 1;
}
