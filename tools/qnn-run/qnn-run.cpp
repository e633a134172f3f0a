//===- qnn-run.cpp - run a qnn program on raw input files
//------------------===//
//
//   qnn-run --reference FILE.mlir [--entry NAME] --input A.bin ...
//           [--output OUT0.bin ...] [--print-values]
//
// Inputs and outputs are raw little-endian row-major bytes of the element
// type (1 byte for i1..i8/ui8, 2 for i16, 4 for i32/f32, 8 for i64). Without
// --output, each result is summarised on one line:
//
//   result N: TYPE sum=S fnv1a=0xH argmax=I max=M
//
// where `sum` is the sum of the values, `fnv1a` the 64-bit FNV-1a hash of the
// result's raw bytes (as --output would write them), `argmax` the first
// row-major index of the maximum and `max` that maximum.
//
// main() is three steps: load the module, pick the entry and read the
// inputs, execute (only --reference today), then write or print results.
//
//===----------------------------------------------------------------------===//

#include "QNN/IR/QNNDialect.h"
#include "QNN/Reference/Evaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using mlir::qnn::reference::Tensor;

namespace cl = llvm::cl;

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<input .mlir file>"), cl::Required);
static cl::opt<bool>
    useReference("reference",
                 cl::desc("Execute with the exact reference evaluator"));
static cl::opt<std::string>
    entryName("entry", cl::desc("Function to run (default: the only public "
                                "function, or @main)"));
static cl::list<std::string>
    inputFiles("input", cl::desc("Raw bytes of one function argument"));
static cl::list<std::string>
    outputFiles("output", cl::desc("Where to write the raw bytes of a result"));
static cl::opt<bool> printValues("print-values",
                                 cl::desc("Print every value of each result"));

/// Bytes per element in the raw files.
static int64_t bytesPerElement(Type type) {
  if (type.isF32())
    return 4;
  return (cast<IntegerType>(type).getWidth() + 7) / 8;
}

//===----------------------------------------------------------------------===//
// Load
//===----------------------------------------------------------------------===//

static OwningOpRef<ModuleOp> loadModule(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr,
                                        StringRef filename) {
  std::string error;
  auto file = openInputFile(filename, &error);
  if (!file) {
    llvm::errs() << "qnn-run: " << error << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(verify(*module)))
    return nullptr;
  return module;
}

static func::FuncOp selectEntry(ModuleOp module, StringRef name) {
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isExternal())
      llvm::errs() << "qnn-run: no function @" << name << " with a body\n";
    return func && !func.isExternal() ? func : nullptr;
  }
  SmallVector<func::FuncOp> candidates;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      candidates.push_back(func);
  if (candidates.size() == 1)
    return candidates.front();
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    if (!main.isExternal())
      return main;
  llvm::errs() << "qnn-run: cannot choose the entry function; pass --entry "
                  "with one of:";
  for (auto func : candidates)
    llvm::errs() << " " << func.getSymName();
  llvm::errs() << "\n";
  return nullptr;
}

static FailureOr<Tensor> readInput(StringRef path, Type argType,
                                   unsigned index) {
  auto type = dyn_cast<RankedTensorType>(argType);
  if (!type || !type.hasStaticShape() || type.getElementType().isIndex() ||
      !qnn::reference::isSupportedElementType(type.getElementType())) {
    llvm::errs() << "qnn-run: argument #" << index << " has type " << argType
                 << "; only statically shaped tensors of integers or f32 "
                    "are supported\n";
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::errs() << "qnn-run: cannot read input #" << index << " '" << path
                 << "': " << buffer.getError().message() << "\n";
    return failure();
  }
  Tensor tensor = Tensor::zeros(type);
  int64_t width = bytesPerElement(type.getElementType());
  int64_t expected = tensor.numElements() * width;
  StringRef bytes = (*buffer)->getBuffer();
  if (static_cast<int64_t>(bytes.size()) != expected) {
    llvm::errs() << "qnn-run: input #" << index << " '" << path << "' for "
                 << type << " must have " << expected << " bytes, got "
                 << bytes.size() << "\n";
    return failure();
  }
  const auto *data = reinterpret_cast<const uint8_t *>(bytes.data());
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
    uint64_t raw = 0;
    for (int64_t b = 0; b < width; ++b)
      raw |= static_cast<uint64_t>(data[i * width + b]) << (8 * b);
    if (tensor.isFloat()) {
      uint32_t bits = static_cast<uint32_t>(raw);
      std::memcpy(&tensor.floats[i], &bits, sizeof(float));
    } else {
      tensor.ints[i] = qnn::reference::wrapToType(static_cast<int64_t>(raw),
                                                  tensor.elementType);
    }
  }
  return tensor;
}

static FailureOr<SmallVector<Tensor>> readInputs(func::FuncOp func,
                                                 ArrayRef<std::string> paths) {
  FunctionType type = func.getFunctionType();
  if (type.getNumInputs() != paths.size()) {
    llvm::errs() << "qnn-run: @" << func.getSymName() << " takes "
                 << type.getNumInputs() << " arguments but " << paths.size()
                 << " --input files were given\n";
    return failure();
  }
  SmallVector<Tensor> inputs;
  for (auto [i, path] : llvm::enumerate(paths)) {
    FailureOr<Tensor> tensor = readInput(path, type.getInput(i), i);
    if (failed(tensor))
      return failure();
    inputs.push_back(std::move(*tensor));
  }
  return inputs;
}

//===----------------------------------------------------------------------===//
// Execute
//===----------------------------------------------------------------------===//

static FailureOr<SmallVector<Tensor>>
executeReference(ModuleOp module, func::FuncOp func, ArrayRef<Tensor> inputs) {
  qnn::reference::Evaluator evaluator(module);
  return evaluator.run(func, inputs);
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

static std::string rawBytes(const Tensor &tensor) {
  int64_t width = bytesPerElement(tensor.elementType);
  std::string bytes;
  bytes.reserve(tensor.numElements() * width);
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
    uint64_t raw;
    if (tensor.isFloat()) {
      uint32_t bits;
      std::memcpy(&bits, &tensor.floats[i], sizeof(float));
      raw = bits;
    } else {
      raw = static_cast<uint64_t>(tensor.ints[i]);
    }
    for (int64_t b = 0; b < width; ++b)
      bytes.push_back(static_cast<char>((raw >> (8 * b)) & 0xff));
  }
  return bytes;
}

static void printValue(llvm::raw_ostream &os, const Tensor &t, int64_t i) {
  if (t.isFloat())
    os << llvm::format("%g", static_cast<double>(t.floats[i]));
  else
    os << t.ints[i];
}

static void printResult(llvm::raw_ostream &os, unsigned index,
                        const Tensor &t) {
  os << "result " << index << ": "
     << RankedTensorType::get(t.shape, t.elementType);
  double sum = 0;
  int64_t argmax = 0;
  for (int64_t i = 0, e = t.numElements(); i < e; ++i) {
    sum += t.valueAsDouble(i);
    if (t.valueAsDouble(i) > t.valueAsDouble(argmax))
      argmax = i;
  }
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : rawBytes(t)) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001b3ULL;
  }
  os << " sum=" << llvm::format("%.17g", sum) << " fnv1a=0x"
     << llvm::format_hex_no_prefix(hash, 16) << " argmax=" << argmax << " max=";
  if (t.numElements() > 0)
    printValue(os, t, argmax);
  os << "\n";
  if (!printValues)
    return;
  int64_t row = t.shape.empty() ? 1 : std::max<int64_t>(t.shape.back(), 1);
  for (int64_t i = 0, e = t.numElements(); i < e; ++i) {
    os << (i % row == 0 ? "  [" : ", ");
    printValue(os, t, i);
    if (i % row == row - 1 || i == e - 1)
      os << "]\n";
  }
}

static LogicalResult writeResults(ArrayRef<Tensor> results) {
  if (!outputFiles.empty() && outputFiles.size() != results.size()) {
    llvm::errs() << "qnn-run: the function returns " << results.size()
                 << " results but " << outputFiles.size()
                 << " --output files were given\n";
    return failure();
  }
  for (auto [i, result] : llvm::enumerate(results)) {
    if (outputFiles.empty()) {
      printResult(llvm::outs(), i, result);
      continue;
    }
    std::string error;
    auto file = openOutputFile(outputFiles[i], &error);
    if (!file) {
      llvm::errs() << "qnn-run: " << error << "\n";
      return failure();
    }
    file->os() << rawBytes(result);
    file->keep();
    if (printValues)
      printResult(llvm::outs(), i, result);
  }
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "qnn-mlir program runner\n");
  if (!useReference) {
    llvm::errs() << "qnn-run: choose an execution mode (--reference)\n";
    return 1;
  }

  DialectRegistry registry;
  registry.insert<qnn::QNNDialect, func::FuncDialect, arith::ArithDialect,
                  tosa::TosaDialect, tensor::TensorDialect,
                  linalg::LinalgDialect>();
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = loadModule(context, sourceMgr, inputFilename);
  if (!module)
    return 1;
  func::FuncOp entry = selectEntry(*module, entryName);
  if (!entry)
    return 1;
  FailureOr<SmallVector<Tensor>> inputs = readInputs(entry, inputFiles);
  if (failed(inputs))
    return 1;
  FailureOr<SmallVector<Tensor>> results =
      executeReference(*module, entry, *inputs);
  if (failed(results))
    return 1;
  return failed(writeResults(*results)) ? 1 : 0;
}
