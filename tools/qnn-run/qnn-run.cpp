//===- qnn-run.cpp - run qnn programs -------------------------------------===//
//
// qnn-run [--reference] FILE.mlir|MODEL.tflite [--entry NAME] --input A.bin
//         ... [--output OUT0.bin ...] [--print-values]
//         [--target avx512-vnni|int16|generic] [--compare-reference]
//         [--repeat N]
//
// With --reference the program is interpreted by the reference evaluator;
// otherwise it is compiled to native code in process (QNNCompiler: npu ops
// expanded to qnn, --qnn-lower-to-llvm, ExecutionEngine) and run.
// --compare-reference also runs the reference evaluator and compares every
// output bit for bit. --repeat N times N more native runs.
//
// Inputs and outputs are raw little-endian row-major bytes of the argument's
// or result's element type (the format of shared/models/testdata). Without
// --output, a summary of each result is printed.
//
//===----------------------------------------------------------------------===//

#include "NPU/IR/NPUDialect.h"
#include "NPU/Reference/NPUEvaluator.h"
#include "QNN/Compiler/Compiler.h"
#include "QNN/IR/QNNDialect.h"
#include "QNN/Reference/Evaluator.h"
#include "QNN/Target/TFLite/TFLiteImport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>

using namespace mlir;
using namespace mlir::qnn;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("qnn-run options");

// The accumulators' rescale in the floor-affine form on the AVX-512 targets
// (CompileOptions::floorAffine); =false keeps the fixed-point forms.
static cl::opt<bool> floorAffine("floor-affine",
                                 cl::desc(mlir::qnn::kFloorAffineHelp),
                                 cl::init(true), cl::cat(runCategory));

// ADD and SUB in their integer affine form (CompileOptions::addAffine);
// =false keeps TFLite's fixed-point sequence.
static cl::opt<bool> addAffine("add-affine",
                               cl::desc(mlir::qnn::kAddAffineHelp),
                               cl::init(true), cl::cat(runCategory));

static cl::opt<std::string>
    inputFile(cl::Positional, cl::desc("<program.mlir, model.tflite or model.onnx>"),
              cl::Required, cl::cat(runCategory));
static cl::opt<bool> reference("reference",
                               cl::desc("Run with the reference evaluator"),
                               cl::cat(runCategory));
static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: the only "
                                           "public function, or 'main')"),
                                  cl::cat(runCategory));
static cl::list<std::string>
    inputs("input", cl::desc("Raw input file, one per argument"),
           cl::cat(runCategory));
static cl::list<std::string>
    outputs("output", cl::desc("Raw output file, one per result"),
            cl::cat(runCategory));
static cl::opt<std::string>
    target("target",
           cl::desc("Native code target: avx512-vnni, int16-avx512bw, int16 "
                    "(AVX2), generic or loops "
                    "(default: the best one for this CPU)"),
           cl::cat(runCategory));
static cl::opt<std::string>
    cpu("cpu",
        cl::desc("Use only this x86-64 CPU's instructions (an LLVM CPU name, "
                 "e.g. x86-64-v3: AVX2 without VNNI, x86-64-v4: AVX512BW "
                 "without VNNI) instead of all of this host's, which must "
                 "have them; needs --target"),
        cl::cat(runCategory));
static cl::opt<bool> compareReference(
    "compare-reference",
    cl::desc("Also run the reference evaluator and require bit-identical "
             "outputs"),
    cl::cat(runCategory));
static cl::opt<unsigned>
    repeat("repeat",
           cl::desc("Run the native code N more times and print "
                    "the median and minimum time"),
           cl::init(0), cl::cat(runCategory));
static cl::opt<bool> profile(
    "profile",
    cl::desc("Time every convolution kernel call (the runs of --repeat, "
             "else the one run) and print each call site's calls and time "
             "per run, slowest first, and the time outside the kernels"),
    cl::cat(runCategory));
static cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc(mlir::qnn::kOptLevelHelp),
    cl::init(1), cl::cat(runCategory));
static cl::opt<bool>
    npuFuse("npu-fuse",
            cl::desc("Fuse qnn chains into npu operators before lowering "
                     "(default; =false lowers qnn operators one by one)"),
            cl::init(true), cl::cat(runCategory));
// Hidden: the threshold of the depthwise kernels' own padding
// (CompileOptions::depthwiseSelfPaddingMinBytes), for tests of that code
// on small layers.
static cl::opt<int64_t> depthwiseSelfPaddingMinBytes(
    "depthwise-self-padding-min-bytes",
    cl::desc(mlir::qnn::kDepthwiseSelfPaddingHelp),
    cl::init(mlir::qnn::kDefaultDepthwiseSelfPaddingMinBytes), cl::Hidden,
    cl::cat(runCategory));
// Test hook: flips the low bit of one element of native result 0 before the
// comparison, so that the mismatch report itself can be tested.
static cl::opt<int64_t> corruptElement(
    "debug-corrupt-element", cl::Hidden, cl::init(-1),
    cl::desc("(testing) flip the low bit of this element of native result 0"),
    cl::cat(runCategory));
static cl::opt<bool> inputSets(
    "input-sets",
    cl::desc("Native mode: the --input files are consecutive sets of one "
             "file per argument; compile once and run every set"),
    cl::cat(runCategory));
static cl::opt<bool> printValues("print-values",
                                 cl::desc("Print every element of each result"),
                                 cl::cat(runCategory));

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

/// Reads and checks the --input files against the argument types of `func`.
static FailureOr<SmallVector<ref::Tensor>>
readInputs(func::FuncOp func, ArrayRef<std::string> files) {
  FunctionType type = func.getFunctionType();
  if (files.size() != type.getNumInputs()) {
    llvm::errs() << "qnn-run: '" << func.getName() << "' takes "
                 << type.getNumInputs() << " inputs, got " << files.size()
                 << " --input files\n";
    return failure();
  }
  if (!outputs.empty() && outputs.size() != type.getNumResults()) {
    llvm::errs() << "qnn-run: '" << func.getName() << "' has "
                 << type.getNumResults() << " results, got " << outputs.size()
                 << " --output files\n";
    return failure();
  }
  SmallVector<ref::Tensor> tensors;
  for (auto [i, path] : llvm::enumerate(files)) {
    auto tensorType = dyn_cast<RankedTensorType>(type.getInput(i));
    if (!tensorType) {
      llvm::errs() << "qnn-run: argument " << i << " is not a ranked tensor\n";
      return failure();
    }
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer) {
      llvm::errs() << "qnn-run: cannot read '" << path
                   << "': " << buffer.getError().message() << "\n";
      return failure();
    }
    std::string error;
    ArrayRef<char> bytes((*buffer)->getBufferStart(),
                         (*buffer)->getBufferSize());
    FailureOr<ref::Tensor> t = ref::tensorFromBytes(tensorType, bytes, error);
    if (failed(t)) {
      llvm::errs() << "qnn-run: input " << i << " ('" << path << "') for "
                   << tensorType << ": " << error << "\n";
      return failure();
    }
    tensors.push_back(std::move(*t));
  }
  return tensors;
}

/// Writes the results to the --output files, or prints their summaries.
static int emitResults(ArrayRef<ref::Tensor> results) {
  for (auto [i, result] : llvm::enumerate(results)) {
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

static FailureOr<SmallVector<ref::Tensor>>
runReference(func::FuncOp func, ArrayRef<ref::Tensor> tensors) {
  ref::Evaluator evaluator;
  npu::registerReferenceOps(evaluator);
  return evaluator.run(func, tensors);
}

/// Interprets the program with the reference evaluator.
static int executeReference(func::FuncOp func) {
  SmallVector<std::string> files(inputs.begin(), inputs.end());
  FailureOr<SmallVector<ref::Tensor>> tensors = readInputs(func, files);
  if (failed(tensors))
    return 1;
  FailureOr<SmallVector<ref::Tensor>> results = runReference(func, *tensors);
  if (failed(results))
    return 1;
  return emitResults(*results);
}

static std::string elementString(const ref::Tensor &t, int64_t i) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (t.isFloat())
    os << t.floats[i];
  else
    os << t.ints[i];
  return s;
}

/// Compares native results with the reference, bit for bit; prints one line
/// per result. Returns the number of mismatching results.
static unsigned compareResults(ArrayRef<ref::Tensor> native,
                               ArrayRef<ref::Tensor> reference) {
  unsigned mismatches = 0;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(native, reference))) {
    const ref::Tensor &ours = std::get<0>(pair);
    const ref::Tensor &theirs = std::get<1>(pair);
    std::vector<char> a = ref::tensorToBytes(ours);
    std::vector<char> b = ref::tensorToBytes(theirs);
    if (a == b && ours.shape == theirs.shape) {
      llvm::outs() << "compare " << i << ": match\n";
      continue;
    }
    ++mismatches;
    int64_t bytes = ref::elementByteSize(ours.elementType);
    int64_t n = std::min(a.size(), b.size()) / std::max<int64_t>(bytes, 1);
    int64_t first = 0, count = 0;
    for (int64_t e = n - 1; e >= 0; --e)
      if (std::memcmp(a.data() + e * bytes, b.data() + e * bytes, bytes)) {
        first = e;
        ++count;
      }
    llvm::outs() << "compare " << i << ": MISMATCH at element " << first
                 << ": native " << elementString(ours, first) << ", reference "
                 << elementString(theirs, first) << " (" << count << " of " << n
                 << " elements differ)\n";
  }
  return mismatches;
}

/// Compiles the program to native code and runs it.
static int runNative(CompiledModule &program, func::FuncOp func,
                     ArrayRef<ref::Tensor> tensors, StringRef targetName);

static int executeNative(ModuleOp module, func::FuncOp func) {
  // --input-sets: the --input files are consecutive sets of one file per
  // argument, each run with the same compiled code.
  SmallVector<SmallVector<std::string>> sets;
  unsigned numArgs = func.getFunctionType().getNumInputs();
  if (inputSets) {
    if (numArgs == 0 || inputs.empty() || inputs.size() % numArgs != 0) {
      llvm::errs() << "qnn-run: --input-sets needs a positive multiple of "
                   << numArgs << " --input files (one per argument of '"
                   << func.getName() << "'), got " << inputs.size() << "\n";
      return 1;
    }
    if (!outputs.empty()) {
      llvm::errs() << "qnn-run: --input-sets prints summaries; it cannot be "
                      "combined with --output\n";
      return 1;
    }
    for (unsigned i = 0; i < inputs.size(); i += numArgs)
      sets.emplace_back(inputs.begin() + i, inputs.begin() + i + numArgs);
  } else {
    sets.emplace_back(inputs.begin(), inputs.end());
  }
  SmallVector<SmallVector<ref::Tensor>> tensorSets;
  for (ArrayRef<std::string> files : sets) {
    FailureOr<SmallVector<ref::Tensor>> tensors = readInputs(func, files);
    if (failed(tensors))
      return 1;
    tensorSets.push_back(std::move(*tensors));
  }
  if (!cpu.empty() && target.empty()) {
    llvm::errs() << "qnn-run: --cpu needs an explicit --target\n";
    return 1;
  }
  std::string targetName = target.empty() ? getHostTarget() : target;
  if (llvm::Error err = cpu.empty() ? checkTargetSupported(targetName)
                                    : checkJITCPU(cpu, targetName)) {
    llvm::errs() << "qnn-run: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  // The reference needs the original program: compile a clone (compile
  // keeps only the entry function and what it reaches).
  OwningOpRef<ModuleOp> copy(module.clone());
  CompileOptions options;
  options.target = targetName;
  options.cpu = cpu;
  options.entry = func.getName().str();
  options.optLevel = optLevel;
  applyThreadsCLOption(options);
  options.fuseToNPU = npuFuse;
  options.floorAffine = floorAffine;
  options.addAffine = addAffine;
  options.profile = profile;
  options.depthwiseSelfPaddingMinBytes = depthwiseSelfPaddingMinBytes;
  auto compiled = CompiledModule::compile(std::move(copy), options);
  if (!compiled) {
    llvm::errs() << "qnn-run: cannot compile '" << inputFile
                 << "': " << llvm::toString(compiled.takeError()) << "\n";
    return 1;
  }
  CompiledModule &program = **compiled;
  for (auto [i, tensors] : llvm::enumerate(tensorSets)) {
    if (inputSets) {
      llvm::outs() << "input set " << i << ":";
      for (const std::string &file : sets[i])
        llvm::outs() << " " << llvm::sys::path::filename(file);
      llvm::outs() << "\n";
    }
    if (int rc = runNative(program, func, tensors, targetName))
      return rc;
  }
  return 0;
}

/// --profile's table: each kernel call site's calls and microseconds per
/// run and share of the run, slowest first, then the time outside them.
static void printProfile(ArrayRef<KernelProfile> sites, unsigned runs,
                         double totalMs) {
  double runUs = totalMs * 1e3 / runs, kernelsUs = 0;
  SmallVector<size_t> order;
  for (size_t i = 0; i < sites.size(); ++i) {
    order.push_back(i);
    kernelsUs += sites[i].seconds * 1e6 / runs;
  }
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return sites[a].seconds > sites[b].seconds;
  });
  llvm::outs() << "profile: " << sites.size() << " kernel call sites, " << runs
               << " run(s), " << llvm::format("%.1f", runUs) << " us per run\n"
               << "  site  calls/run    us/run  % of run  kernel\n";
  auto row = [&](StringRef site, StringRef calls, double us, StringRef name) {
    llvm::outs() << llvm::format("  %4s %10s %9.2f %8.1f%%  ",
                                 site.str().c_str(), calls.str().c_str(), us,
                                 runUs > 0 ? 100 * us / runUs : 0.0)
                 << name << "\n";
  };
  for (size_t i : order)
    row(("#" + Twine(i)).str(),
        llvm::formatv("{0:F2}", double(sites[i].calls) / runs).str(),
        sites[i].seconds * 1e6 / runs, sites[i].kernel);
  row("", "", std::max(0.0, runUs - kernelsUs), "(outside the kernels)");
}

/// Runs compiled code on one set of inputs; prints, times and compares.
static int runNative(CompiledModule &program, func::FuncOp func,
                     ArrayRef<ref::Tensor> tensors, StringRef targetName) {
  std::vector<std::vector<char>> inBuffers, outBuffers;
  SmallVector<const void *> in;
  SmallVector<void *> out;
  for (const ref::Tensor &t : tensors)
    inBuffers.push_back(ref::tensorToBytes(t));
  for (RankedTensorType type : program.getOutputTypes())
    outBuffers.emplace_back(type.getNumElements() *
                            getElementBytes(type.getElementType()));
  for (auto &b : inBuffers)
    in.push_back(b.data());
  for (auto &b : outBuffers)
    out.push_back(b.data());
  // The profile of this set's runs only (--input-sets runs several).
  program.resetProfile();
  auto firstStart = std::chrono::steady_clock::now();
  if (llvm::Error err = program.run(in, out)) {
    llvm::errs() << "qnn-run: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  double profiledMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - firstStart)
                          .count();
  unsigned profiledRuns = 1;
  SmallVector<ref::Tensor> results;
  for (auto [bytes, type] : llvm::zip(outBuffers, program.getOutputTypes())) {
    std::string error;
    FailureOr<ref::Tensor> t = ref::tensorFromBytes(type, bytes, error);
    if (failed(t)) {
      llvm::errs() << "qnn-run: result of type " << type << ": " << error
                   << "\n";
      return 1;
    }
    results.push_back(std::move(*t));
  }
  if (emitResults(results))
    return 1;

  if (repeat > 0) {
    // The profile covers the repeated runs only (the first one also pays
    // for first touches of the code and the buffers).
    program.resetProfile();
    std::vector<double> times;
    for (unsigned i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      if (llvm::Error err = program.run(in, out)) {
        llvm::errs() << "qnn-run: " << llvm::toString(std::move(err)) << "\n";
        return 1;
      }
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
    }
    profiledMs = std::accumulate(times.begin(), times.end(), 0.0);
    profiledRuns = repeat;
    std::sort(times.begin(), times.end());
    unsigned compiledThreads = program.getThreads();
    llvm::outs() << "time: target=" << targetName << " threads="
                 << (compiledThreads ? std::to_string(compiledThreads)
                                     : std::string("default"))
                 << " runs=" << repeat
                 << " median=" << llvm::format("%.4f", times[times.size() / 2])
                 << " ms min=" << llvm::format("%.4f", times.front())
                 << " ms\n";
    llvm::outs() << "compile: lowering="
                 << llvm::format("%.3f", program.getLoweringSeconds())
                 << " s llvm=" << llvm::format("%.3f", program.getLLVMSeconds())
                 << " s\n";
  }

  if (profile)
    printProfile(program.getProfile(), profiledRuns, profiledMs);

  if (corruptElement >= 0 && !results.empty() && !results[0].isFloat() &&
      corruptElement < results[0].numElements())
    results[0].ints[corruptElement] ^= 1;

  if (compareReference) {
    FailureOr<SmallVector<ref::Tensor>> expected = runReference(func, tensors);
    if (failed(expected))
      return 1;
    if (unsigned bad = compareResults(results, *expected)) {
      llvm::errs() << "qnn-run: " << bad << " result(s) differ from the "
                   << "reference evaluator (target " << targetName << ")\n";
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::OptionCategory &importCategory = registerTFLiteImportCLOptions();
  cl::OptionCategory &threadsCategory = registerThreadsCLOption();
  cl::HideUnrelatedOptions({&runCategory, &importCategory, &threadsCategory});
  cl::ParseCommandLineOptions(argc, argv, "qnn-mlir program runner\n");
  if (reference && (compareReference || repeat > 0 || !target.empty() ||
                    inputSets || profile)) {
    llvm::errs() << "qnn-run: --target, --compare-reference, --repeat, "
                    "--input-sets and --profile apply to native execution, "
                    "not to --reference\n";
    return 1;
  }
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      loadProgramFile(inputFile, &context, sourceMgr, "qnn-run",
                      getTFLiteImportCLOptions());
  if (!module)
    return 1;
  func::FuncOp func = findEntry(*module);
  if (!func)
    return 1;
  if (reference)
    return executeReference(func);
  return executeNative(*module, func);
}
