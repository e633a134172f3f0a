//===- Compiler.cpp - compile qnn programs to native code and run them ----===//

#include "QNN/Compiler/Compiler.h"
#include "NPU/IR/NPUDialect.h"
#include "NPU/IR/NPUOps.h"
#include "QNN/Conversion/Passes.h"
#include "QNN/IR/QNNDialect.h"
#include "QNN/IR/QNNOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::qnn;

void qnn::registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registry.insert<QNNDialect, npu::NPUDialect>();
}

StringRef qnn::getOpenMPLibraryPath() { return QNN_OMP_LIBRARY; }

static llvm::cl::opt<unsigned> *threadsOption = nullptr;

llvm::cl::OptionCategory &qnn::registerThreadsCLOption() {
  static llvm::cl::OptionCategory category("Threads");
  if (threadsOption)
    return category;
  // libLLVM.so registers an undocumented global option named "threads" at
  // load time (not one the qnn tools use); take the name over for ours.
  auto &registered = llvm::cl::getRegisteredOptions();
  auto it = registered.find("threads");
  if (it != registered.end())
    it->second->removeArgument();
  static llvm::cl::opt<unsigned> option(
      "threads",
      llvm::cl::desc("Threads of the native code: 0 = the cores available "
                     "(OpenMP; OMP_NUM_THREADS overrides it at run time), 1 = "
                     "serial code without OpenMP, N = N threads. The outputs "
                     "are the same bytes for every count. Not given: 0, but "
                     "serial code for networks under 100 M multiply-adds"),
      llvm::cl::init(0), llvm::cl::cat(category));
  threadsOption = &option;
  return category;
}

unsigned qnn::getThreadsCLOption() {
  return threadsOption ? threadsOption->getValue() : 0;
}

void qnn::applyThreadsCLOption(CompileOptions &options) {
  options.threads = getThreadsCLOption();
  options.serialSmallNetworks =
      !threadsOption || threadsOption->getNumOccurrences() == 0;
}

/// The CPU features that a native target's instructions need (none for
/// generic and loops): the one list behind the host target, the tools'
/// target check and CompiledModule::compile's refusal.
static ArrayRef<StringRef> requiredFeatures(StringRef target) {
  static const StringRef vnni[] = {"avx512f", "avx512bw", "avx512vnni"};
  static const StringRef avx512bw[] = {"avx512f", "avx512bw"};
  static const StringRef avx2[] = {"avx2"};
  if (target == "avx512-vnni")
    return vnni;
  if (target == "int16-avx512bw")
    return avx512bw;
  if (target == "int16")
    return avx2;
  return {};
}

/// The first feature of `target` that this CPU lacks, if any.
static std::optional<StringRef> missingHostFeature(StringRef target) {
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  for (StringRef feature : requiredFeatures(target))
    if (!host.lookup(feature))
      return feature;
  return std::nullopt;
}

std::string qnn::getHostTarget() {
  // 512-bit vpmaddwd (int16-avx512bw): twice the 256-bit one's products
  // per instruction.
  for (StringRef target : {"avx512-vnni", "int16-avx512bw", "int16"})
    if (!missingHostFeature(target))
      return target.str();
  return "generic";
}

llvm::Error qnn::checkTargetSupported(StringRef target) {
  if (llvm::Error err = checkTargetKnown(target))
    return err;
  if (!missingHostFeature(target))
    return llvm::Error::success();
  if (target == "avx512-vnni")
    return llvm::createStringError(
        "target avx512-vnni needs a CPU with AVX512-VNNI and AVX512BW; this "
        "host has neither or only one of them (use --target int16 or "
        "generic)");
  if (target == "int16")
    return llvm::createStringError(
        "target int16 needs a CPU with AVX2 (use --target generic)");
  return llvm::createStringError(
      "target int16-avx512bw needs a CPU with AVX512F and AVX512BW (use "
      "--target int16 or generic)");
}

/// Whether generated code may use the CPU feature `f`: the instruction-set
/// extensions, not system features such as pku or wbnoinvd, which virtual
/// machines hide from the host's list and kernels never use.
static bool isCodeFeature(StringRef f) {
  static const StringRef prefixes[] = {
      "avx", "amx",  "sse",    "ssse", "fma",  "f16c", "bmi",       "popcnt",
      "lzcnt", "movbe", "gfni", "vaes", "adx", "sha",  "vpclmulqdq"};
  return llvm::any_of(prefixes, [&](StringRef p) { return f.starts_with(p); });
}

llvm::Error qnn::checkCPUName(StringRef cpu) {
  if (llvm::X86::parseArchX86(cpu, /*Only64Bit=*/true) != llvm::X86::CK_None)
    return llvm::Error::success();
  return llvm::createStringError(
      "unknown CPU '" + cpu.str() +
      "' (an LLVM x86-64 CPU name, e.g. x86-64-v3, x86-64-v4, znver4, "
      "sapphirerapids)");
}

/// The features of the x86-64 CPU `cpu` (an LLVM CPU name) with the ones
/// they imply (avx512bw implies avx512f, which x86-64-v4's list leaves
/// out); none for a name LLVM does not know (checkCPUName reports it).
static llvm::StringMap<bool> namedCPUFeatures(StringRef cpu) {
  if (llvm::X86::parseArchX86(cpu, /*Only64Bit=*/true) == llvm::X86::CK_None)
    return {};
  SmallVector<StringRef> listed;
  llvm::X86::getFeaturesForCPU(cpu, listed);
  llvm::StringMap<bool> features;
  for (StringRef f : listed) {
    features[f] = true;
    llvm::X86::updateImpliedFeatures(f, true, features);
  }
  return features;
}

llvm::Error qnn::checkJITCPU(StringRef cpu, StringRef target) {
  if (llvm::Error err = checkTargetKnown(target))
    return err;
  if (llvm::Error err = checkCPUName(cpu))
    return err;
  llvm::StringMap<bool> features = namedCPUFeatures(cpu);
  for (StringRef f : requiredFeatures(target))
    if (!features.lookup(f))
      return llvm::createStringError("target " + target.str() +
                                     " needs the CPU feature " + f.str() +
                                     ", which CPU '" + cpu.str() + "' lacks");
  // In a fixed order, so that the message names the same feature on every
  // host that lacks several.
  SmallVector<StringRef> code;
  for (const auto &f : features)
    if (f.second && isCodeFeature(f.first()))
      code.push_back(f.first());
  llvm::sort(code);
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  for (StringRef f : code)
    if (!host.lookup(f))
      return llvm::createStringError(
          "CPU '" + cpu.str() + "' has the feature " + f.str() +
          ", which this host lacks (the JIT's code runs on this host)");
  return llvm::Error::success();
}

llvm::Error qnn::checkTargetKnown(StringRef target) {
  if (llvm::is_contained(
          {"generic", "avx512-vnni", "int16", "int16-avx512bw", "loops"},
          target))
    return llvm::Error::success();
  return llvm::createStringError(
      "unknown target '" + target.str() +
      "' (expected avx512-vnni, int16, int16-avx512bw, generic or loops)");
}

unsigned qnn::getElementBytes(Type elementType) {
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

/// Whether the process has begun to exit since the last compilation (set by
/// the exit handler that CompiledModule::compile registers).
static std::atomic<bool> exitStarted{false};

static void noteExitStarted() { exitStarted = true; }

/// The engines of modules destroyed during exit, left to the system (kept
/// reachable, so that leak checkers do not report them; never destroyed).
static std::vector<ExecutionEngine *> *abandonedEngines = nullptr;

CompiledModule::~CompiledModule() {
  // A module destroyed by an exit handler that runs after the static
  // objects LLVM made while compiling (a global of the embedder's, made
  // before the compilation): the JIT's teardown compiles and links its
  // deinitializers and would use those dead objects (it crashed or hung).
  // The process is ending: its memory goes back to the system anyway.
  if (exitStarted && engine) {
    if (!abandonedEngines)
      abandonedEngines = new std::vector<ExecutionEngine *>();
    abandonedEngines->push_back(engine.release());
  }
}

void qnn::initializeCompiler() {
  static std::once_flag initOnce;
  std::call_once(initOnce, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The x86 kernels' inline assembly (vpmuldq) is parsed when the object
    // code is emitted.
    llvm::InitializeNativeTargetAsmParser();
    registerAllPasses();
    registerQNNConversions();
  });
}

LogicalResult qnn::buildCompilerPipeline(PassManager &pm,
                                         const CompileOptions &options) {
  LowerToLLVMOptions lowerOptions;
  lowerOptions.target = options.target;
  lowerOptions.emulateVNNI = options.emulateVNNI;
  // The code runs on the named CPU, or on this host: AVX512-VBMI where it
  // has it (the VNNI depthwise kernels' vpermt2b).
  if (options.target == "avx512-vnni" && !options.emulateVNNI)
    lowerOptions.vbmi = (options.cpu.empty() ? llvm::sys::getHostCPUFeatures()
                                             : namedCPUFeatures(options.cpu))
                            .lookup("avx512vbmi");
  lowerOptions.threads = options.threads;
  lowerOptions.fuseToNPU = options.fuseToNPU;
  lowerOptions.depthwiseSelfPaddingMinBytes =
      options.depthwiseSelfPaddingMinBytes;
  lowerOptions.floorAffine = options.floorAffine;
  lowerOptions.addAffine = options.addAffine;
  lowerOptions.profileKernels = options.profile;
  pm.enableVerifier(options.verifyPasses);
  return buildLowerToLLVMPipeline(pm, lowerOptions);
}

static llvm::Error makeError(const Twine &message) {
  return llvm::make_error<llvm::StringError>(message,
                                             llvm::inconvertibleErrorCode());
}

/// getLLVMPipeline's levels are 0-3 (makeOptimizingTransformer, used
/// before, refused the others too).
static llvm::Error checkOptLevel(unsigned optLevel) {
  if (optLevel > 3)
    return makeError("invalid LLVM optimization level " + Twine(optLevel) +
                     " (0-3)");
  return llvm::Error::success();
}

int64_t qnn::estimateMultiplyAdds(ModuleOp module) {
  int64_t total = 0;
  // Each output element takes (weight elements / output channels)
  // multiply-adds: kh * kw * C / groups for a convolution (depthwise:
  // kh * kw), K for a dense layer.
  auto add = [&](Value weight, Value output, bool channelsFirst) {
    auto w = dyn_cast<RankedTensorType>(weight.getType());
    auto out = dyn_cast<RankedTensorType>(output.getType());
    if (!w || !out || !w.hasStaticShape() || !out.hasStaticShape() ||
        out.getRank() < 2)
      return;
    int64_t channels = out.getDimSize(channelsFirst ? 1 : out.getRank() - 1);
    if (channels > 0)
      total += out.getNumElements() / channels * w.getNumElements();
  };
  module.walk([&](Operation *op) {
    if (auto conv = dyn_cast<qnn::Conv2DOp>(op))
      add(conv.getWeight(), conv.getOutput(),
          conv.getDataLayout() == ActivationLayout::NCHW);
    else if (auto conv = dyn_cast<npu::Conv2DOp>(op))
      add(conv.getWeight(), conv.getOutput(), false);
    else if (auto dense = dyn_cast<qnn::DenseOp>(op))
      add(dense.getWeight(), dense.getOutput(), false);
    else if (auto fc = dyn_cast<npu::FullyConnectedOp>(op))
      add(fc.getWeight(), fc.getOutput(), false);
  });
  return total;
}

unsigned qnn::resolveThreads(ModuleOp module, const CompileOptions &options,
                            bool jit) {
  if (options.threads != 0 || (jit && std::getenv("OMP_NUM_THREADS")))
    return options.threads;
  // One core: serial code needs neither OpenMP's fork and join nor its
  // compile time.
  if (jit && llvm::hardware_concurrency().compute_thread_count() <= 1)
    return 1;
  if (options.serialSmallNetworks &&
      estimateMultiplyAdds(module) < kMinThreadedMultiplyAdds)
    return 1;
  return 0;
}

/// Erases the functions that `entry` cannot reach. The JIT calls only the
/// entry: lowering and compiling the rest of a module of many functions (a
/// test file's cases, a library of networks) costs time for nothing, and
/// the size of the module's other functions must not decide the entry's
/// threads. Every symbol that a kept operation names is kept, and so is
/// every operation of the module that is not a function; where the symbol
/// uses cannot be listed (an operation of unknown semantics), nothing is
/// erased.
static void eraseUnreachableFunctions(ModuleOp module, func::FuncOp entry) {
  SymbolTable symbols(module);
  llvm::SmallPtrSet<Operation *, 16> kept;
  SmallVector<Operation *> worklist = {entry};
  for (Operation &op : module.getBody()->without_terminator())
    if (!isa<func::FuncOp>(op))
      worklist.push_back(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!kept.insert(op).second)
      continue;
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      return;
    for (const SymbolTable::SymbolUse &use : *uses)
      if (Operation *symbol =
              symbols.lookup(use.getSymbolRef().getRootReference()))
        worklist.push_back(symbol);
  }
  for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!kept.contains(f))
      f.erase();
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::compile(OwningOpRef<ModuleOp> module,
                        const CompileOptions &requested) {
  initializeCompiler();
  auto func = module->lookupSymbol<func::FuncOp>(requested.entry);
  if (!func)
    return makeError("no function @" + requested.entry + " in the module");
  eraseUnreachableFunctions(*module, func);
  // Exit handlers and static destructors run in the reverse order of their
  // registration: this handler runs after the destructors of the static
  // objects LLVM is about to make, and before those of statics made
  // earlier (which may hold this module).
  std::atexit(noteExitStarted);
  CompileOptions options = requested;
  options.threads = resolveThreads(*module, requested, /*jit=*/true);
  // Checked here: ExecutionEngine cannot report an error of its transformer
  // (optimizeLLVMModule).
  if (llvm::Error err = checkOptLevel(options.optLevel))
    return std::move(err);

  // Refuse targets whose instructions this CPU (or the named one) lacks:
  // running them would end in SIGILL.
  if (!options.cpu.empty()) {
    if (llvm::Error err = checkJITCPU(options.cpu,
                                      options.target == "avx512-vnni" &&
                                              options.emulateVNNI
                                          ? StringRef("generic")
                                          : StringRef(options.target)))
      return std::move(err);
  } else if (!(options.target == "avx512-vnni" && options.emulateVNNI))
    if (std::optional<StringRef> feature = missingHostFeature(options.target))
      return makeError("target '" + options.target +
                       "' needs the CPU "
                       "feature " +
                       *feature + ", which this CPU lacks" +
                       (options.target == "avx512-vnni"
                            ? " (emulateVNNI computes the same integers "
                              "with generic vector code)"
                            : ""));

  if (options.threads != 1 && getOpenMPLibraryPath().empty())
    return makeError("threads = " + Twine(options.threads) +
                     " needs LLVM's OpenMP runtime (libomp-22-dev), which "
                     "this build did not find; compile with threads = 1");

  std::unique_ptr<CompiledModule> result(new CompiledModule());
  result->threads = options.threads;
  for (Type type : func.getArgumentTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return makeError("argument of @" + options.entry +
                       " is not a statically shaped tensor");
    result->inputTypes.push_back(tensor);
  }
  for (Type type : func.getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return makeError("result of @" + options.entry +
                       " is not a statically shaped tensor");
    result->outputTypes.push_back(tensor);
  }
  func->setAttr("llvm.emit_c_interface", UnitAttr::get(module->getContext()));

  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  Clock::time_point start = Clock::now();
  PassManager pm(module->getContext());
  if (failed(buildCompilerPipeline(pm, options)))
    return makeError("cannot build the lowering pipeline");
  if (failed(pm.run(*module)))
    return makeError("lowering to the LLVM dialect failed");
  result->loweringSeconds = seconds(start);
  start = Clock::now();
  if (auto sites = (*module)->getAttrOfType<ArrayAttr>(kProfileSitesAttrName))
    for (auto name : sites.getAsValueRange<StringAttr>())
      result->profileSites.push_back(name.str());

  ExecutionEngineOptions engineOptions;
  SmallVector<StringRef> sharedLibs = {QNN_C_RUNNER_UTILS};
  if (options.threads != 1)
    sharedLibs.push_back(getOpenMPLibraryPath());
  engineOptions.sharedLibPaths = sharedLibs;
  // The code generator at the level qnn-compile uses (ORC's default is
  // -O2's, whose scheduling ran the GEMM kernels about 8% slower).
  engineOptions.jitCodeGenOptLevel = options.optLevel >= 1
                                         ? llvm::CodeGenOptLevel::Aggressive
                                         : llvm::CodeGenOptLevel::Less;
  // `transformer` is a function_ref: the callable it refers to must outlive
  // ExecutionEngine::create, which calls it.
  unsigned optLevel = options.optLevel;
  std::string cpu = options.cpu;
  std::function<llvm::Error(llvm::Module *)> optimize =
      [optLevel, cpu](llvm::Module *m) {
        // A named CPU: each function's target-cpu, with no extra features
        // (an empty target-features replaces the host's feature string),
        // decides the instructions the code generator may use.
        if (!cpu.empty())
          for (llvm::Function &f : *m)
            if (!f.isDeclaration()) {
              f.addFnAttr("target-cpu", cpu);
              f.addFnAttr("target-features", "");
            }
        return optimizeLLVMModule(*m, optLevel);
      };
  engineOptions.transformer = optimize;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return engine.takeError();
  result->engine = std::move(*engine);
  // Machine code is generated lazily (ORC): look the entry up now so that
  // the time is LLVM's whole, and so that an error of the LLVM passes or
  // of code generation is this call's. run() calls the address: looking
  // it up on every call (ExecutionEngine::invokePacked) cost about 2 us
  // (an identity program: 2.3 -> 0.1 us per run on Zen 5), 1-2% of a
  // pointwise MobileNet layer's time and 10-15% of the smallest depthwise
  // layer's.
  auto packed =
      result->engine->lookupPacked("_mlir_ciface_" + options.entry);
  if (!packed)
    return packed.takeError();
  result->packedEntry = *packed;
  // What invokePacked did before its first call: run the module's
  // initializers (global constructors), once.
  result->engine->initialize();
  if (!result->profileSites.empty()) {
    auto counters = result->engine->lookup(kProfileCountersName);
    if (!counters)
      return counters.takeError();
    result->profileCounters = static_cast<uint64_t *>(*counters);
    result->resetProfile();
  }
  result->llvmSeconds = seconds(start);
  return result;
}

/// The cycle counter that llvm.readcyclecounter reads in the JIT's code
/// (x86: the time-stamp counter, at a constant rate on the CPUs with
/// AVX-512); 0 where this build cannot read it.
static uint64_t readCycleCounter() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_ia32_rdtsc();
#else
  return 0;
#endif
}

void CompiledModule::resetProfile() {
  if (!profileCounters)
    return;
  std::fill(profileCounters, profileCounters + 2 * profileSites.size(), 0);
  profileStart = std::chrono::steady_clock::now();
  profileStartTicks = readCycleCounter();
}

std::vector<KernelProfile> CompiledModule::getProfile() const {
  std::vector<KernelProfile> profile;
  uint64_t ticks = readCycleCounter() - profileStartTicks;
  double elapsed = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - profileStart)
                       .count();
  if (!profileCounters || ticks == 0 || elapsed <= 0)
    return profile;
  double secondsPerTick = elapsed / static_cast<double>(ticks);
  for (auto [i, kernel] : llvm::enumerate(profileSites))
    profile.push_back(
        {kernel, profileCounters[2 * i + 1],
         static_cast<double>(profileCounters[2 * i]) * secondsPerTick});
  return profile;
}

std::string qnn::getLLVMPipeline(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return "";
  case 1:
    // InstCombine without its fixpoint check, as LLVM's own pipelines run
    // it: the bare pass name verifies that one iteration reached a fixed
    // point and aborts the process (a fatal error, not a diagnostic)
    // where it did not, which an int16 pointwise kernel of 64 -> 8
    // channels with a RELU6 epilogue triggered (scripts/stress-kernels.py;
    // test/Execution/instcombine-fixpoint.test). An unreached fixpoint is
    // a missed simplification, never a wrong one.
    return "function(early-cse,instcombine<no-verify-fixpoint>,simplifycfg,"
           "loop(loop-rotate),loop-mssa(licm),loop(indvars),"
           "instcombine<no-verify-fixpoint>,simplifycfg)";
  case 2:
    return "default<O2>";
  default:
    return "default<O3>";
  }
}

llvm::Error qnn::optimizeLLVMModule(llvm::Module &module, unsigned optLevel,
                                    llvm::TargetMachine *machine) {
  if (llvm::Error err = checkOptLevel(optLevel))
    return err;
  std::string pipeline = getLLVMPipeline(optLevel);
  if (pipeline.empty())
    return llvm::Error::success();
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  if (llvm::Error err = builder.parsePassPipeline(passes, pipeline))
    return err;
  passes.run(module, mam);
  return llvm::Error::success();
}

llvm::Error CompiledModule::run(ArrayRef<const void *> inputs,
                                ArrayRef<void *> outputs) {
  if (inputs.size() != inputTypes.size() ||
      outputs.size() != outputTypes.size())
    return makeError("expected " + Twine(inputTypes.size()) + " inputs and " +
                     Twine(outputTypes.size()) + " outputs");
  // One memref descriptor per buffer: {allocated, aligned, offset,
  // sizes[rank], strides[rank]}, every field 64 bits wide.
  SmallVector<SmallVector<int64_t>> descriptors;
  auto addDescriptor = [&](const void *data, RankedTensorType type) {
    SmallVector<int64_t> d;
    int64_t address = reinterpret_cast<intptr_t>(data);
    d.push_back(address);
    d.push_back(address);
    d.push_back(0);
    ArrayRef<int64_t> shape = type.getShape();
    d.append(shape.begin(), shape.end());
    SmallVector<int64_t> strides(shape.size(), 1);
    for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * shape[i + 1];
    d.append(strides.begin(), strides.end());
    descriptors.push_back(std::move(d));
  };
  for (auto [data, type] : llvm::zip(inputs, inputTypes))
    addDescriptor(data, type);
  for (auto [data, type] : llvm::zip(outputs, outputTypes))
    addDescriptor(data, type);
  // The C interface takes a pointer to each descriptor; the packed calling
  // convention takes a pointer to each argument.
  SmallVector<void *> descriptorPointers, args;
  for (auto &d : descriptors)
    descriptorPointers.push_back(d.data());
  for (void *&p : descriptorPointers)
    args.push_back(&p);
  packedEntry(args.data());
  return llvm::Error::success();
}
