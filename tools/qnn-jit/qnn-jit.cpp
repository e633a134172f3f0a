//===- qnn-jit.cpp - compile a qnn program in process and run it
//-----------===//
//
// A small driver of the QNNCompiler API: parses a module, compiles it for a
// target, fills the entry function's inputs with deterministic
// pseudo-random data and prints every output as integers (or floats). With
// --compare-target it compiles the module a second time for another target,
// runs it on the same inputs and fails unless the outputs are identical
// byte for byte.
//
//===----------------------------------------------------------------------===//

#include "QNN/Compiler/Compiler.h"
#include "QNN/Utils/ParserGuards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::qnn;

static llvm::cl::OptionCategory jitCategory("qnn-jit options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input.mlir>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(jitCategory));
static llvm::cl::opt<bool> keepUntilExit(
    "keep-until-exit",
    llvm::cl::desc("keep the compiled module in a static object, destroyed "
                   "after main returns (tests the library's teardown at "
                   "exit)"),
    llvm::cl::init(false), llvm::cl::cat(jitCategory));
static llvm::cl::opt<std::string> target("target",
                                         llvm::cl::desc("generic, avx512-vnni, "
                                                        "int16, int16-avx512bw "
                                                        "or loops"),
                                         llvm::cl::init("generic"),
                                         llvm::cl::cat(jitCategory));
static llvm::cl::opt<std::string>
    compareTarget("compare-target",
                  llvm::cl::desc("also run this target and require "
                                 "identical outputs"),
                  llvm::cl::init(""), llvm::cl::cat(jitCategory));
static llvm::cl::opt<bool>
    emulateVNNI("emulate-vnni",
                llvm::cl::desc("compute vpdpbusd with generic vector code "
                               "(avx512-vnni on CPUs without AVX512-VNNI)"),
                llvm::cl::init(false), llvm::cl::cat(jitCategory));
static llvm::cl::opt<std::string> entry("entry",
                                        llvm::cl::desc("entry function"),
                                        llvm::cl::init("main"),
                                        llvm::cl::cat(jitCategory));
static llvm::cl::opt<unsigned> seed("seed", llvm::cl::desc("input data seed"),
                                    llvm::cl::init(1),
                                    llvm::cl::cat(jitCategory));
static llvm::cl::opt<unsigned>
    repeat("repeat", llvm::cl::desc("run N times and print the median time"),
           llvm::cl::init(0), llvm::cl::cat(jitCategory));
static llvm::cl::list<std::string>
    inputFiles("input",
               llvm::cl::desc("raw input buffer (one per entry argument, in "
                              "order) instead of pseudo-random data"),
               llvm::cl::cat(jitCategory));
static llvm::cl::list<std::string>
    outputFiles("output",
                llvm::cl::desc("write the raw outputs (one file per result, "
                               "in order)"),
                llvm::cl::cat(jitCategory));
static llvm::cl::opt<bool> quiet("quiet",
                                 llvm::cl::desc("do not print the outputs"),
                                 llvm::cl::init(false),
                                 llvm::cl::cat(jitCategory));

using Buffers = std::vector<std::vector<char>>;

static Buffers allocate(ArrayRef<RankedTensorType> types) {
  Buffers buffers;
  for (RankedTensorType type : types)
    buffers.emplace_back(type.getNumElements() *
                         getElementBytes(type.getElementType()));
  return buffers;
}

static void fillInputs(Buffers &buffers, ArrayRef<RankedTensorType> types) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  for (auto [buffer, type] : llvm::zip(buffers, types)) {
    if (isa<FloatType>(type.getElementType())) {
      auto *data = reinterpret_cast<float *>(buffer.data());
      for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
        data[i] =
            static_cast<float>(static_cast<int32_t>(next() % 2001) - 1000) /
            250.0f;
      continue;
    }
    for (char &byte : buffer)
      byte = static_cast<char>(next());
  }
}

static void printBuffer(const std::vector<char> &buffer,
                        RankedTensorType type) {
  Type element = type.getElementType();
  int64_t n = type.getNumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (i)
      llvm::outs() << " ";
    const char *p = buffer.data() + i * getElementBytes(element);
    if (element.isF32()) {
      float v;
      std::memcpy(&v, p, 4);
      llvm::outs() << v;
      continue;
    }
    unsigned width = element.getIntOrFloatBitWidth();
    bool isUnsigned = element.isUnsignedInteger();
    int64_t v = 0;
    if (width == 8)
      v = isUnsigned ? int64_t(uint8_t(*p)) : int64_t(int8_t(*p));
    else if (width == 16) {
      int16_t x;
      std::memcpy(&x, p, 2);
      v = isUnsigned ? int64_t(uint16_t(x)) : x;
    } else if (width == 32) {
      int32_t x;
      std::memcpy(&x, p, 4);
      v = isUnsigned ? int64_t(uint32_t(x)) : x;
    }
    llvm::outs() << v;
  }
  llvm::outs() << "\n";
}

static llvm::Expected<std::unique_ptr<CompiledModule>>
compileFile(MLIRContext &context, StringRef targetName) {
  llvm::SourceMgr sourceMgr;
  // Diagnostics as FILE:LINE:COL with the source line, while the module
  // parses and compiles.
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return llvm::createStringError(error);
  // Text that MLIR 22's parser crashes on (QNN/Utils/ParserGuards.h).
  if (findIndexDenseArray(file->getBuffer()) != StringRef::npos)
    return llvm::createStringError(
        inputFile + ": dense arrays of 'index' are not supported (they crash "
                    "MLIR 22's parser: llvm/llvm-project#179045)");
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return llvm::createStringError("cannot parse " + inputFile);
  CompileOptions options;
  options.target = targetName.str();
  options.entry = entry;
  options.emulateVNNI = emulateVNNI;
  applyThreadsCLOption(options);
  return CompiledModule::compile(std::move(module), options);
}

static int runAll(CompiledModule &compiled, Buffers &inputs, Buffers &outputs) {
  SmallVector<const void *> in;
  SmallVector<void *> out;
  for (auto &b : inputs)
    in.push_back(b.data());
  for (auto &b : outputs)
    out.push_back(b.data());
  if (llvm::Error err = compiled.run(in, out)) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}

/// --keep-until-exit: a static object constructed before any compilation.
static std::unique_ptr<CompiledModule> keptUntilExit;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::OptionCategory &threadsCategory = registerThreadsCLOption();
  llvm::cl::HideUnrelatedOptions({&jitCategory, &threadsCategory});
  llvm::cl::ParseCommandLineOptions(argc, argv, "qnn-mlir JIT runner\n");
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);

  auto compiled = compileFile(context, target);
  if (!compiled) {
    llvm::errs() << "error: " << llvm::toString(compiled.takeError()) << "\n";
    return 1;
  }
  Buffers inputs = allocate((*compiled)->getInputTypes());
  fillInputs(inputs, (*compiled)->getInputTypes());
  if (!inputFiles.empty()) {
    if (inputFiles.size() != inputs.size()) {
      llvm::errs() << "error: " << inputs.size() << " inputs expected, "
                   << inputFiles.size() << " given\n";
      return 1;
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string error;
      auto file = openInputFile(inputFiles[i], &error);
      if (!file) {
        llvm::errs() << "error: " << error << "\n";
        return 1;
      }
      if (file->getBufferSize() != inputs[i].size()) {
        llvm::errs() << "error: " << inputFiles[i] << " has "
                     << file->getBufferSize() << " bytes, input " << i
                     << " needs " << inputs[i].size() << "\n";
        return 1;
      }
      std::memcpy(inputs[i].data(), file->getBufferStart(), inputs[i].size());
    }
  }
  Buffers outputs = allocate((*compiled)->getOutputTypes());
  if (runAll(**compiled, inputs, outputs))
    return 1;
  if (!outputFiles.empty()) {
    if (outputFiles.size() > outputs.size()) {
      llvm::errs() << "error: only " << outputs.size() << " outputs\n";
      return 1;
    }
    for (size_t i = 0; i < outputFiles.size(); ++i) {
      std::string error;
      auto file = openOutputFile(outputFiles[i], &error);
      if (!file) {
        llvm::errs() << "error: " << error << "\n";
        return 1;
      }
      file->os().write(outputs[i].data(), outputs[i].size());
      file->keep();
    }
  }
  if (!quiet)
    for (auto [buffer, type] :
         llvm::zip(outputs, (*compiled)->getOutputTypes()))
      printBuffer(buffer, type);

  if (repeat > 0) {
    std::vector<double> times;
    for (unsigned i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      if (runAll(**compiled, inputs, outputs))
        return 1;
      times.push_back(std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - start)
                          .count());
    }
    std::sort(times.begin(), times.end());
    llvm::outs() << "median time: " << times[times.size() / 2] << " us\n";
  }

  if (!compareTarget.empty()) {
    auto other = compileFile(context, compareTarget);
    if (!other) {
      llvm::errs() << "error: " << llvm::toString(other.takeError()) << "\n";
      return 1;
    }
    Buffers otherOutputs = allocate((*other)->getOutputTypes());
    if (runAll(**other, inputs, otherOutputs))
      return 1;
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (outputs[i] != otherOutputs[i]) {
        size_t bytes =
            getElementBytes((*compiled)->getOutputTypes()[i].getElementType());
        size_t first = 0;
        while (std::memcmp(outputs[i].data() + first,
                           otherOutputs[i].data() + first, bytes) == 0)
          first += bytes;
        llvm::errs() << "error: output " << i << " differs between targets "
                     << target << " and " << compareTarget
                     << " (first at element " << first / bytes << ")\n";
        return 1;
      }
    }
    llvm::outs() << "identical outputs: " << target << " and " << compareTarget
                 << "\n";
  }
  // Destroyed during static destruction, after the static objects that
  // LLVM made while compiling, as an embedder's global would be.
  if (keepUntilExit)
    keptUntilExit = std::move(*compiled);
  return 0;
}
