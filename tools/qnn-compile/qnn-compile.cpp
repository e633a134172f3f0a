//===- qnn-compile.cpp - ahead-of-time compiler for qnn programs ---------===//
//
// qnn-compile FILE.mlir|MODEL.tflite -o OUT.o   [--header OUT.h]
// qnn-compile FILE.mlir|MODEL.tflite --shared OUT.so [--header OUT.h]
//             [--target avx512-vnni|int16|generic] [--prefix qnn_]
//             [--opt-level N]
//
// Compiles every public function to native code for the host CPU, with one
// C entry point per function:
//
//   int32_t <prefix><name>(const void *in0, ..., void *out0, ...);
//
// (plain packed row-major buffers, returns 0), and writes a C header that
// declares them with their buffer sizes (default: the output path with its
// extension replaced by .h). --shared links the object into a shared library
// with the system C compiler (cc).
//
//===----------------------------------------------------------------------===//

#include "QNN/Compiler/Compiler.h"
#include "QNN/Target/TFLite/TFLiteImport.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::qnn;
namespace cl = llvm::cl;

static cl::OptionCategory compileCategory("qnn-compile options");

static cl::opt<std::string>
    inputFile(cl::Positional, cl::desc("<program.mlir, model.tflite or model.onnx>"),
              cl::Required, cl::cat(compileCategory));
static cl::opt<std::string> objectFile("o", cl::desc("Object file to write"),
                                       cl::value_desc("file.o"),
                                       cl::cat(compileCategory));
static cl::opt<std::string> sharedFile("shared",
                                       cl::desc("Shared library to write"),
                                       cl::value_desc("file.so"),
                                       cl::cat(compileCategory));
static cl::opt<std::string>
    headerFile("header",
               cl::desc("C header to write (default: the output "
                        "path with extension .h)"),
               cl::cat(compileCategory));
static cl::opt<std::string>
    target("target",
           cl::desc("avx512-vnni, int16-avx512bw, int16 (AVX2), generic or "
                    "loops (default: the "
                    "best one for this CPU)"),
           cl::cat(compileCategory));
static cl::opt<std::string>
    prefix("prefix", cl::desc("Prefix of the C entry point names"),
           cl::init("qnn_"), cl::cat(compileCategory));
static cl::opt<std::string>
    cpu("cpu",
        cl::desc("Generate code for this x86-64 CPU (an LLVM CPU name such "
                 "as x86-64-v4, znver4 or sapphirerapids) instead of the "
                 "host; the host need not be able to run it; needs "
                 "--target"),
        cl::cat(compileCategory));
static cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc(mlir::qnn::kOptLevelHelp),
    cl::init(1), cl::cat(compileCategory));

static cl::opt<bool>
    npuFuse("npu-fuse",
            cl::desc("Fuse qnn chains into npu operators before lowering "
                     "(default; =false lowers qnn operators one by one)"),
            cl::init(true), cl::cat(compileCategory));

// The accumulators' rescale in the floor-affine form on the AVX-512 targets
// (CompileOptions::floorAffine); =false keeps the fixed-point forms.
static cl::opt<bool> floorAffine("floor-affine",
                                 cl::desc(mlir::qnn::kFloorAffineHelp),
                                 cl::init(true), cl::cat(compileCategory));

// ADD and SUB in their integer affine form (CompileOptions::addAffine);
// =false keeps TFLite's fixed-point sequence.
static cl::opt<bool> addAffine("add-affine",
                               cl::desc(mlir::qnn::kAddAffineHelp),
                               cl::init(true), cl::cat(compileCategory));

// Hidden, as in qnn-run: the threshold of the depthwise kernels' own
// padding (CompileOptions::depthwiseSelfPaddingMinBytes).
static cl::opt<int64_t> depthwiseSelfPaddingMinBytes(
    "depthwise-self-padding-min-bytes",
    cl::desc(mlir::qnn::kDepthwiseSelfPaddingHelp),
    cl::init(mlir::qnn::kDefaultDepthwiseSelfPaddingMinBytes), cl::Hidden,
    cl::cat(compileCategory));

/// Links `object` into the shared library `output` with cc.
static bool linkShared(StringRef object, StringRef output, bool openmp) {
  auto cc = llvm::sys::findProgramByName("cc");
  if (!cc) {
    llvm::errs() << "qnn-compile: --shared needs a C compiler 'cc' in PATH\n";
    return false;
  }
  std::string rpath = std::string("-Wl,-rpath,") + QNN_LLVM_LIBRARY_DIR;
  std::string libDir = std::string("-L") + QNN_LLVM_LIBRARY_DIR;
  SmallVector<StringRef> args = {
      *cc,    "-shared", "-o",  output,
      object, libDir,    rpath, "-lmlir_c_runner_utils",
      "-lm"};
  if (openmp)
    args.push_back("-lomp");
  std::string message;
  int rc =
      llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &message);
  if (rc != 0) {
    llvm::errs() << "qnn-compile: linking '" << output << "' failed"
                 << (message.empty() ? "" : ": ") << message << "\n";
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  cl::OptionCategory &importCategory = registerTFLiteImportCLOptions();
  cl::OptionCategory &threadsCategory = registerThreadsCLOption();
  cl::HideUnrelatedOptions(
      {&compileCategory, &importCategory, &threadsCategory});
  cl::ParseCommandLineOptions(argc, argv, "qnn-mlir ahead-of-time compiler\n");
  if (objectFile.empty() == sharedFile.empty()) {
    llvm::errs() << "qnn-compile: give exactly one of -o FILE.o and "
                    "--shared FILE.so\n";
    return 1;
  }
  if (!cpu.empty() && target.empty()) {
    llvm::errs() << "qnn-compile: --cpu needs an explicit --target\n";
    return 1;
  }
  std::string targetName = target.empty() ? getHostTarget() : target;
  // Code for another CPU is not checked against this host's features.
  if (llvm::Error err = cpu.empty() ? checkTargetSupported(targetName)
                                    : checkTargetKnown(targetName)) {
    llvm::errs() << "qnn-compile: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      loadProgramFile(inputFile, &context, sourceMgr, "qnn-compile",
                      getTFLiteImportCLOptions());
  if (!module)
    return 1;

  StringRef output =
      sharedFile.empty() ? StringRef(objectFile) : StringRef(sharedFile);
  std::string object = objectFile;
  SmallString<128> tempObject;
  if (!sharedFile.empty()) {
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "qnn-compile", "o", tempObject)) {
      llvm::errs() << "qnn-compile: cannot create a temporary file: "
                   << ec.message() << "\n";
      return 1;
    }
    object = tempObject.str().str();
  }
  llvm::FileRemover removeTemp(tempObject);

  AOTOptions options;
  options.compile.target = targetName;
  options.compile.optLevel = optLevel;
  applyThreadsCLOption(options.compile);
  // The setting compileToObject resolves (serial code for a small network
  // at the default), for the header and the link.
  options.compile.threads =
      resolveThreads(*module, options.compile, /*jit=*/false);
  options.compile.fuseToNPU = npuFuse;
  options.compile.floorAffine = floorAffine;
  options.compile.addAffine = addAffine;
  options.compile.depthwiseSelfPaddingMinBytes = depthwiseSelfPaddingMinBytes;
  options.prefix = prefix;
  options.cpu = cpu;
  auto functions = compileToObject(std::move(module), options, object);
  if (!functions) {
    llvm::errs() << "qnn-compile: cannot compile '" << inputFile
                 << "': " << llvm::toString(functions.takeError()) << "\n";
    return 1;
  }
  if (!sharedFile.empty() && !linkShared(object, sharedFile,
                                           options.compile.threads != 1))
    return 1;

  SmallString<128> header(headerFile);
  if (header.empty()) {
    header = output;
    llvm::sys::path::replace_extension(header, "h");
  }
  std::string guard = "QNN_" + llvm::sys::path::stem(header).upper() + "_H";
  for (char &c : guard)
    if (!isalnum(static_cast<unsigned char>(c)))
      c = '_';
  std::error_code ec;
  llvm::raw_fd_ostream os(header, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "qnn-compile: cannot write '" << header
                 << "': " << ec.message() << "\n";
    return 1;
  }
  os << emitCHeader(*functions, guard, llvm::sys::path::filename(inputFile),
                    /*openmp=*/options.compile.threads != 1);
  return 0;
}
