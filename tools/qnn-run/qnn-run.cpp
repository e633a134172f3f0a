//===- qnn-run.cpp - run qnn programs
//--------------------------------------===//
//
// qnn-run --reference FILE.mlir|MODEL.tflite [--entry NAME] --input A.bin ...
//         [--output OUT0.bin ...] [--print-values]
//
// Inputs and outputs are raw little-endian row-major bytes of the argument's
// or result's element type (the format of shared/models/testdata). Without
// --output, a summary of each result is printed.
//
//===----------------------------------------------------------------------===//

#include "QNN/IR/QNNDialect.h"
#include "QNN/Reference/Evaluator.h"
#include "QNN/Target/TFLite/TFLiteImport.h"
#include "NPU/IR/NPUDialect.h"
#include "NPU/Reference/NPUEvaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::qnn;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<program.mlir or model.tflite>"), cl::Required);
static cl::opt<bool> reference("reference",
                               cl::desc("Run with the reference evaluator"));
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: the only "
                                           "public function, or 'main')"));
static cl::list<std::string>
    inputs("input", cl::desc("Raw input file, one per argument"));
static cl::list<std::string>
    outputs("output", cl::desc("Raw output file, one per result"));
static cl::opt<bool>
    printValues("print-values", cl::desc("Print every element of each result"));

/// Loads and verifies the program.
static OwningOpRef<ModuleOp> loadModule(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "qnn-run: " << error << "\n";
    return nullptr;
  }
  // A .tflite model is imported first (qnn-translate --import-tflite).
  if (StringRef(inputFile).ends_with(".tflite"))
    return importTFLite(file->getBuffer(), &context, inputFile);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

static func::FuncOp findEntry(ModuleOp module) {
  if (!entry.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func)
      llvm::errs() << "qnn-run: no function named '" << entry << "'\n";
    return func;
  }
  SmallVector<func::FuncOp> candidates;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      candidates.push_back(func);
  if (candidates.size() == 1)
    return candidates.front();
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  llvm::errs() << "qnn-run: choose a function with --entry; candidates:";
  for (auto func : candidates)
    llvm::errs() << " " << func.getName();
  llvm::errs() << "\n";
  return nullptr;
}

static void printSummary(const ref::Tensor &t, unsigned index) {
  llvm::outs() << "result " << index << ": tensor<";
  for (int64_t d : t.shape)
    llvm::outs() << d << "x";
  llvm::outs() << t.elementType << ">";
  // Checksum: the sum of the values and FNV-1a of the raw bytes.
  std::vector<char> bytes = ref::tensorToBytes(t);
  // 64-bit FNV-1a: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : bytes) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001b3ull;
  }
  int64_t argmax = 0;
  if (t.isFloat()) {
    double sum = 0;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      sum += t.floats[i];
      if (t.floats[i] > t.floats[argmax])
        argmax = i;
    }
    llvm::outs() << " sum=" << sum;
    if (t.numElements())
      llvm::outs() << " argmax=" << argmax << " max=" << t.floats[argmax];
  } else {
    int64_t sum = 0;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      sum += t.ints[i];
      if (t.ints[i] > t.ints[argmax])
        argmax = i;
    }
    llvm::outs() << " sum=" << sum;
    if (t.numElements())
      llvm::outs() << " argmax=" << argmax << " max=" << t.ints[argmax];
  }
  llvm::outs() << " fnv1a=" << llvm::format_hex(hash, 18) << "\n";
  if (printValues) {
    llvm::outs() << "values " << index << ":";
    for (int64_t i = 0; i < t.numElements(); ++i) {
      if (t.isFloat())
        llvm::outs() << " " << t.floats[i];
      else
        llvm::outs() << " " << t.ints[i];
    }
    llvm::outs() << "\n";
  }
}

/// Reads the inputs, runs, writes or prints the results.
static int execute(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  if (inputs.size() != type.getNumInputs()) {
    llvm::errs() << "qnn-run: '" << func.getName() << "' takes "
                 << type.getNumInputs() << " inputs, got " << inputs.size()
                 << " --input files\n";
    return 1;
  }
  if (!outputs.empty() && outputs.size() != type.getNumResults()) {
    llvm::errs() << "qnn-run: '" << func.getName() << "' has "
                 << type.getNumResults() << " results, got " << outputs.size()
                 << " --output files\n";
    return 1;
  }
  SmallVector<ref::Tensor> tensors;
  for (auto [i, path] : llvm::enumerate(inputs)) {
    auto tensorType = dyn_cast<RankedTensorType>(type.getInput(i));
    if (!tensorType) {
      llvm::errs() << "qnn-run: argument " << i << " is not a ranked tensor\n";
      return 1;
    }
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer) {
      llvm::errs() << "qnn-run: cannot read '" << path
                   << "': " << buffer.getError().message() << "\n";
      return 1;
    }
    std::string error;
    ArrayRef<char> bytes((*buffer)->getBufferStart(),
                         (*buffer)->getBufferSize());
    FailureOr<ref::Tensor> t = ref::tensorFromBytes(tensorType, bytes, error);
    if (failed(t)) {
      llvm::errs() << "qnn-run: input " << i << " ('" << path << "') for "
                   << tensorType << ": " << error << "\n";
      return 1;
    }
    tensors.push_back(std::move(*t));
  }
  ref::Evaluator evaluator;
  npu::registerReferenceOps(evaluator);
  FailureOr<SmallVector<ref::Tensor>> results = evaluator.run(func, tensors);
  if (failed(results))
    return 1;
  for (auto [i, result] : llvm::enumerate(*results)) {
    if (outputs.empty()) {
      printSummary(result, i);
      continue;
    }
    std::error_code ec;
    llvm::raw_fd_ostream os(outputs[i], ec, llvm::sys::fs::OF_None);
    if (ec) {
      llvm::errs() << "qnn-run: cannot write '" << outputs[i]
                   << "': " << ec.message() << "\n";
      return 1;
    }
    std::vector<char> bytes = ref::tensorToBytes(result);
    os.write(bytes.data(), bytes.size());
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "qnn-mlir program runner\n");
  if (!reference) {
    llvm::errs() << "qnn-run: choose an execution mode: --reference\n";
    return 1;
  }
  DialectRegistry registry;
  registry.insert<npu::NPUDialect>();
  registry.insert<QNNDialect, func::FuncDialect, arith::ArithDialect,
                  tensor::TensorDialect, linalg::LinalgDialect,
                  tosa::TosaDialect>();
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = loadModule(context, sourceMgr);
  if (!module)
    return 1;
  func::FuncOp func = findEntry(*module);
  if (!func)
    return 1;
  return execute(func);
}
