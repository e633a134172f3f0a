//===- Compiler.h - compile qnn programs to native code and run them -*- C++
//-*-===//
//
// The in-process entry point of the backend: lower a module with the
// qnn-lower-to-llvm pipeline, JIT it with mlir::ExecutionEngine, and call its
// entry function on raw, densely packed row-major buffers.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_COMPILER_COMPILER_H
#define QNN_COMPILER_COMPILER_H

#include "QNN/Conversion/KernelDefaults.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
class ExecutionEngine;
class PassManager;
class DialectRegistry;
} // namespace mlir

namespace mlir::qnn {

struct CompileOptions {
  /// generic, avx512-vnni, int16, int16-avx512bw or loops (see
  /// convert-qnn-to-linalg and docs/Lowering.md).
  std::string target = "generic";
  /// Compute vpdpbusd with generic vector code (avx512-vnni target on CPUs
  /// without AVX512-VNNI; exactly the same integers).
  bool emulateVNNI = false;
  /// Name of the function to call.
  std::string entry = "main";
  /// LLVM optimization of the translated module (optimizeLLVMModule): 0 =
  /// none, 1 = the short pipeline for generated kernels (the default), 2
  /// and 3 = LLVM's default<O2> and default<O3>.
  unsigned optLevel = 1;
  /// Threads of the compiled code: 0 = the cores available (OpenMP's
  /// default team; OMP_NUM_THREADS overrides it at run time; see
  /// resolveThreads for when 0 compiles serial code), 1 = serial code that
  /// needs no OpenMP runtime, N = N threads. Results are the same bytes for
  /// every count. Code with threads != 1 calls LLVM's libomp.
  unsigned threads = 0;
  /// With threads = 0, compile networks of fewer than
  /// kMinThreadedMultiplyAdds multiply-adds to serial code (the tools turn
  /// this off when --threads is given).
  bool serialSmallNetworks = true;
  /// Fuse qnn chains into npu operators first, so that convolutions reach
  /// their kernels with the epilogue decided by --qnn-to-npu's fusion
  /// (LowerToLLVMOptions::fuseToNPU). Off: qnn operators one by one.
  bool fuseToNPU = true;
  /// The x86-64 CPU whose instructions the JIT's code may use (an LLVM CPU
  /// name: x86-64-v3 is AVX2 without VNNI, x86-64-v4 AVX512BW without
  /// VNNI); this host must have every instruction-set feature of it
  /// (checkJITCPU). Empty: the host CPU. On a CPU with AVX512-VNNI, LLVM
  /// turns the int16 kernels' vpmaddwd + vpaddd into vpdpwssd: compiling
  /// for x86-64-v3 measures what a CPU without VNNI runs. The avx512-vnni
  /// kernels use AVX512-VBMI where this CPU has it. (AOT code takes
  /// AOTOptions::cpu.)
  std::string cpu;
  /// Verify the module after every pass of the pipeline (as qnn-opt and
  /// the lit tests do). Off by default: the input is verified when it is
  /// parsed or imported, and the verifier took 7% of MobileNet v2's
  /// lowering time.
  bool verifyPasses = false;
  /// Depthwise kernels without vpdpbusd (those of the int16 and generic
  /// targets, and avx512-vnni's whose w - wzp leave the signed byte range)
  /// read an input of this many bytes or more unpadded, handling the
  /// borders themselves; smaller ones get a padded copy
  /// (LowerToLLVMOptions).
  int64_t depthwiseSelfPaddingMinBytes = kDefaultDepthwiseSelfPaddingMinBytes;
  /// On the AVX-512 targets, rescale accumulators in the floor-affine form
  /// (LowerToLLVMOptions::floorAffine): the same integers.
  bool floorAffine = true;
  /// ADD and SUB of 8-bit operands in their integer affine form where one
  /// is exact on every operand pair (LowerToLLVMOptions::addAffine): the
  /// same integers.
  bool addAffine = true;
  /// Count the time and calls of every convolution kernel call
  /// (qnn-profile-kernel-calls; CompiledModule::getProfile). The same
  /// results; each call costs two reads of the cycle counter and two
  /// atomic additions more.
  bool profile = false;
};

/// One timed call site of a compiled module (CompileOptions::profile): the
/// kernel it calls, how often it ran, and for how long in all.
struct KernelProfile {
  std::string kernel;
  uint64_t calls = 0;
  double seconds = 0;
};

/// Multiply-adds of the module's convolutions and dense layers (qnn and
/// npu operators with static shapes): the size of a network's work.
int64_t estimateMultiplyAdds(ModuleOp module);

/// Below this many multiply-adds (estimateMultiplyAdds), the default thread
/// setting compiles serial code. Measured on a 2-core Zen 5, medians of 400
/// runs, 1 thread / 2 threads: MobileNet v1 0.25 224 (41 M) 0.32 / 0.46 ms,
/// 0.25 128 (14 M) 0.11 / 0.18 ms, vww (7.5 M) 0.066 / 0.088 ms, but
/// MobileNet v2 (300 M) 1.80 / 1.43 ms: the small networks' layers take a
/// few microseconds each, about what a thread team's fork and join and the
/// activations' moves between the cores' caches cost.
inline constexpr int64_t kMinThreadedMultiplyAdds = 100'000'000;

/// The thread setting `module` compiles with under `options`:
/// options.threads, except that 0 (the default) becomes 1 (serial code)
/// when the network has fewer than kMinThreadedMultiplyAdds multiply-adds
/// (with options.serialSmallNetworks) or, with `jit`, when one core is
/// available to this process (sched affinity included). With `jit`,
/// OMP_NUM_THREADS set in the environment keeps 0 (OpenMP code for the
/// team it asks for). CompiledModule::compile and compileToObject apply it.
unsigned resolveThreads(ModuleOp module, const CompileOptions &options,
                        bool jit);

/// Registers the command-line option `--threads` (CompileOptions::threads,
/// default 0) in its own category, for the tools; call before parsing.
llvm::cl::OptionCategory &registerThreadsCLOption();
/// The value of `--threads` (0 when it was not registered).
unsigned getThreadsCLOption();
/// Sets options.threads from `--threads`, and options.serialSmallNetworks
/// to whether it was left out (an explicit count is what the user asked).
void applyThreadsCLOption(CompileOptions &options);

/// The OpenMP runtime (libomp.so) that code compiled with threads != 1
/// calls, or "" when the build found none (then only threads = 1 compiles).
StringRef getOpenMPLibraryPath();

/// The help text of the tools' --floor-affine option
/// (CompileOptions::floorAffine).
inline constexpr const char *kFloorAffineHelp =
    "On avx512-vnni and int16-avx512bw, rescale accumulators with one "
    "float32 fma rounded down per 16 lanes where every channel has an exact "
    "floor-affine form (default; the same integers)";

/// The help text of the tools' `--add-affine` (CompileOptions::addAffine).
inline constexpr const char *kAddAffineHelp =
    "Compute ADD and SUB of 8-bit operands as one integer affine form where "
    "one gives TFLite's result on every operand pair (default; the same "
    "integers)";

/// The help text of the tools' hidden `--depthwise-self-padding-min-bytes`
/// (CompileOptions::depthwiseSelfPaddingMinBytes).
inline constexpr const char *kDepthwiseSelfPaddingHelp =
    "Depthwise kernels of the int16 and generic targets pad by themselves "
    "from inputs of this many bytes";

/// The help text of the tools' `--opt-level` (CompileOptions::optLevel).
inline constexpr const char *kOptLevelHelp =
    "LLVM passes on the native code: 0 none, 1 the short pipeline for the "
    "generated kernels (default; a third of -O2's time), 2 and 3 LLVM's -O2 "
    "and -O3";

/// The LLVM IR pass pipeline of `optLevel` (see CompileOptions::optLevel),
/// in the text form of `opt -passes`. Level 1 is the short pipeline the
/// generated code needs: the kernels arrive vectorized, their tap loops
/// unrolled and their padding vectorized, so LLVM only has to clean up
/// the scalar index code (early-cse, instcombine, simplifycfg, loop
/// rotation, licm, induction variables); measured on MobileNet v2 (Zen 4):
/// the runtime of default<O2>, 0.5 s less compile time.
std::string getLLVMPipeline(unsigned optLevel);

/// Runs getLLVMPipeline(optLevel) on `module` (the JIT and AOT paths both).
/// `machine`, when given, supplies the target's cost model.
llvm::Error optimizeLLVMModule(llvm::Module &module, unsigned optLevel,
                               llvm::TargetMachine *machine = nullptr);

/// Initializes the native target and registers the passes (once).
void initializeCompiler();

/// The qnn-lower-to-llvm pipeline for `options` (its per-pass verifier off
/// unless options.verifyPasses).
LogicalResult buildCompilerPipeline(PassManager &pm,
                                    const CompileOptions &options);

/// Everything a context needs to parse and compile qnn programs.
void registerCompilerDialects(DialectRegistry &registry);

/// A compiled program. The entry function takes statically shaped tensors
/// and returns statically shaped tensors; each is exchanged as a packed
/// row-major buffer of its element type (ui8/i8 as bytes, i32 as int32_t,
/// f32 as float). A module still alive when the process exits (held by a
/// static object) is safe: once exit has begun, the destructor leaves the
/// JIT to the system instead of tearing it down (the teardown compiles and
/// links the JIT's deinitializers, and LLVM's own static objects may be
/// gone by then: it crashed or hung). Destroying modules before exit still
/// releases their memory and runs the teardown.
class CompiledModule {
public:
  ~CompiledModule();

  /// Lowers `module` (consumed) and JIT-compiles its entry function
  /// (CompileOptions::entry) and what the entry reaches: the module's other
  /// functions are erased first, unlowered.
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  compile(OwningOpRef<ModuleOp> module, const CompileOptions &options);

  /// Types of the entry function's arguments and results, before lowering.
  ArrayRef<RankedTensorType> getInputTypes() const { return inputTypes; }
  ArrayRef<RankedTensorType> getOutputTypes() const { return outputTypes; }

  /// The thread setting the code was compiled for (CompileOptions::threads
  /// after the JIT's single-core rule: 0 = OpenMP's default team).
  unsigned getThreads() const { return threads; }

  /// Seconds spent compiling: the MLIR pipeline (to the LLVM dialect) and
  /// LLVM (translation, optimization, machine code).
  double getLoweringSeconds() const { return loweringSeconds; }
  double getLLVMSeconds() const { return llvmSeconds; }

  /// Calls the entry function. `inputs[i]` must hold
  /// `getInputTypes()[i].getNumElements()` elements, `outputs[i]` room for
  /// the corresponding output; the caller owns all buffers.
  llvm::Error run(ArrayRef<const void *> inputs, ArrayRef<void *> outputs);

  /// With CompileOptions::profile: each kernel call site's counts since
  /// the module was compiled or resetProfile was last called, in program
  /// order (empty without the option, or on a CPU without a constant-rate
  /// cycle counter this build can read). Times are the cycle counter's
  /// ticks converted at the rate measured over the same interval.
  std::vector<KernelProfile> getProfile() const;
  void resetProfile();

private:
  CompiledModule() = default;
  std::unique_ptr<ExecutionEngine> engine;
  /// The entry's packed wrapper (`_mlir__mlir_ciface_<entry>`), looked up
  /// once.
  void (*packedEntry)(void **) = nullptr;
  unsigned threads = 0;
  double loweringSeconds = 0, llvmSeconds = 0;
  /// CompileOptions::profile: the kernel of each site, the JIT's counters
  /// (two per site: cycles, calls) and when counting (re)started.
  std::vector<std::string> profileSites;
  uint64_t *profileCounters = nullptr;
  uint64_t profileStartTicks = 0;
  std::chrono::steady_clock::time_point profileStart;
  SmallVector<RankedTensorType> inputTypes, outputTypes;
};

/// Ahead-of-time compilation: what was emitted for one entry function.
struct AOTFunction {
  /// The qnn function and the C symbol (`prefix` + name) that calls it.
  std::string name, symbol;
  SmallVector<RankedTensorType> inputTypes, outputTypes;
};

struct AOTOptions {
  CompileOptions compile;
  /// Prepended to each function name to form its C symbol.
  std::string prefix = "qnn_";
  /// Position-independent code (needed for a shared library).
  bool pic = true;
  /// The x86-64 CPU to generate code for (an LLVM CPU name such as
  /// "x86-64-v4", "znver4" or "sapphirerapids"); empty: the host CPU.
  std::string cpu;
};

/// Compiles every public function of `module` (consumed) with statically
/// shaped tensor arguments and results to a native object file at
/// `objectPath`, for the host CPU (or `options.cpu`). Each such function `f`
/// gets a C entry point `int32_t <prefix>f(const void *in0, ..., void *out0,
/// ...)` taking densely packed row-major buffers (the conventions of
/// CompiledModule::run) and returning 0. Returns the entry points, for the
/// header.
llvm::Expected<SmallVector<AOTFunction>>
compileToObject(OwningOpRef<ModuleOp> module, const AOTOptions &options,
                StringRef objectPath);

/// The C header declaring the entry points of `functions`, with their
/// buffer sizes as macros.
/// `openmp`: the code was compiled with threads != 1 and needs libomp.
std::string emitCHeader(ArrayRef<AOTFunction> functions, StringRef guard,
                        StringRef source, bool openmp = false);

/// The best target for the CPU this process runs on: avx512-vnni with
/// AVX512-VNNI and AVX512BW, int16-avx512bw with AVX512BW, int16 with AVX2,
/// else generic.
std::string getHostTarget();

/// Fails with a readable message when `target` is unknown or the host CPU
/// cannot execute its code.
llvm::Error checkTargetSupported(StringRef target);

/// Fails with a readable message when `target` is not a known target name.
llvm::Error checkTargetKnown(StringRef target);

/// Fails with a readable message unless `cpu` is one of LLVM's x86-64 CPU
/// names (for AOTOptions::cpu and CompileOptions::cpu).
llvm::Error checkCPUName(StringRef cpu);

/// Fails with a readable message unless `cpu` names an x86-64 CPU (LLVM's
/// names) whose instruction-set features this host has (the JIT's code
/// runs here) and that has every feature `target` needs.
llvm::Error checkJITCPU(StringRef cpu, StringRef target);

/// Bytes per element of a buffer exchanged with a compiled module.
unsigned getElementBytes(Type elementType);

} // namespace mlir::qnn

#endif // QNN_COMPILER_COMPILER_H
