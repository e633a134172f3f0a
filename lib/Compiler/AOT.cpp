//===- AOT.cpp - ahead-of-time compilation to an object file -------------===//
//
// The module is lowered with the same pipeline as the JIT. Each public entry
// function `f` then gets a wrapper `int32_t <prefix>f(const void *in0, ...,
// void *out0, ...)` written in the LLVM dialect: it builds one memref
// descriptor per buffer on the stack (static sizes, row-major strides) and
// calls `_mlir_ciface_f`. Every other defined function becomes internal, so
// that the object exports only the wrappers (a lowered `main` must not clash
// with the C program's). The LLVM module is optimized and emitted for the
// host CPU, or for a named CPU (cross-compilation for a deployment machine).
//
//===----------------------------------------------------------------------===//

#include "QNN/Compiler/Compiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace mlir;
using namespace mlir::qnn;

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(message.str());
}

/// Adds `int32_t symbol(ptr...)` calling `_mlir_ciface_<name>`.
static void buildWrapper(ModuleOp module, const AOTFunction &fn) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64), i32 = IntegerType::get(ctx, 32);
  SmallVector<RankedTensorType> types(fn.inputTypes);
  types.append(fn.outputTypes.begin(), fn.outputTypes.end());
  SmallVector<Type> params(types.size(), ptr);
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, fn.symbol, LLVM::LLVMFunctionType::get(i32, params));
  Block *entry = wrapper.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  auto constant = [&](Type type, int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
  };
  Value one = constant(i64, 1);
  SmallVector<Value> descriptors;
  for (auto [i, type] : llvm::enumerate(types)) {
    int64_t rank = type.getRank();
    SmallVector<Type> fields = {ptr, ptr, i64};
    if (rank > 0) {
      fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
      fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    }
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    Value desc = LLVM::UndefOp::create(b, loc, structType);
    Value data = entry->getArgument(i);
    desc =
        LLVM::InsertValueOp::create(b, loc, desc, data, ArrayRef<int64_t>{0});
    desc =
        LLVM::InsertValueOp::create(b, loc, desc, data, ArrayRef<int64_t>{1});
    desc = LLVM::InsertValueOp::create(b, loc, desc, constant(i64, 0),
                                       ArrayRef<int64_t>{2});
    ArrayRef<int64_t> shape = type.getShape();
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      desc = LLVM::InsertValueOp::create(b, loc, desc, constant(i64, shape[d]),
                                         ArrayRef<int64_t>{3, d});
      desc = LLVM::InsertValueOp::create(b, loc, desc, constant(i64, stride),
                                         ArrayRef<int64_t>{4, d});
      stride *= shape[d];
    }
    Value slot = LLVM::AllocaOp::create(b, loc, ptr, structType, one);
    LLVM::StoreOp::create(b, loc, desc, slot);
    descriptors.push_back(slot);
  }
  LLVM::CallOp::create(b, loc, TypeRange{}, "_mlir_ciface_" + fn.name,
                       descriptors);
  LLVM::ReturnOp::create(b, loc, constant(i32, 0));
}

llvm::Expected<SmallVector<AOTFunction>>
qnn::compileToObject(OwningOpRef<ModuleOp> module, const AOTOptions &options,
                     StringRef objectPath) {
  initializeCompiler();
  MLIRContext *ctx = module->getContext();
  if (options.prefix.empty())
    return makeError("the C symbol prefix must not be empty (a function "
                     "named like its C entry point would clash with it)");

  SmallVector<AOTFunction> functions;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    AOTFunction fn;
    fn.name = func.getName().str();
    fn.symbol = options.prefix + fn.name;
    auto collect = [&](TypeRange types, StringRef what,
                       SmallVectorImpl<RankedTensorType> &out) -> llvm::Error {
      for (auto [i, type] : llvm::enumerate(types)) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (!tensor || !tensor.hasStaticShape())
          return makeError("function @" + fn.name + ": " + what + " " +
                           Twine(i) + " is not a statically shaped tensor");
        out.push_back(tensor);
      }
      return llvm::Error::success();
    };
    if (auto err = collect(func.getArgumentTypes(), "argument", fn.inputTypes))
      return std::move(err);
    if (auto err = collect(func.getResultTypes(), "result", fn.outputTypes))
      return std::move(err);
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(ctx));
    functions.push_back(std::move(fn));
  }
  if (functions.empty())
    return makeError("the module has no public function to export");

  CompileOptions compileOptions = options.compile;
  compileOptions.threads = resolveThreads(*module, compileOptions,
                                          /*jit=*/false);
  // The kernels' optional instructions follow the object's CPU.
  if (!options.cpu.empty())
    compileOptions.cpu = options.cpu;
  PassManager pm(ctx);
  if (failed(buildCompilerPipeline(pm, compileOptions)))
    return makeError("cannot build the lowering pipeline");
  if (failed(pm.run(*module)))
    return makeError("lowering to the LLVM dialect failed");

  // Only the wrappers are exported.
  for (auto f : module->getOps<LLVM::LLVMFuncOp>())
    if (!f.isExternal())
      f.setLinkage(LLVM::Linkage::Internal);
  for (const AOTFunction &fn : functions) {
    if (!module->lookupSymbol<LLVM::LLVMFuncOp>("_mlir_ciface_" + fn.name))
      return makeError("no C interface was generated for @" + fn.name);
    if (module->lookupSymbol(fn.symbol))
      return makeError("symbol '" + fn.symbol +
                       "' already exists; choose another --prefix");
    buildWrapper(*module, fn);
  }

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  if (!options.cpu.empty()) {
    if (builder->getTargetTriple().getArch() != llvm::Triple::x86_64)
      return makeError("--cpu is supported on x86-64 hosts only");
    if (llvm::Error err = checkCPUName(options.cpu))
      return std::move(err);
    // The named CPU's own features replace the host's.
    builder->setCPU(options.cpu);
    builder->getFeatures() = llvm::SubtargetFeatures();
  }
  builder->setRelocationModel(options.pic ? llvm::Reloc::PIC_
                                          : llvm::Reloc::Static);
  // The small code model, a C compiler's: JITTargetMachineBuilder's
  // target machines are JIT ones, whose x86-64 default is the large model
  // (every address of a constant or function a 64-bit immediate, and in
  // PIC code a GOT base computed in each function).
  builder->setCodeModel(llvm::CodeModel::Small);
  builder->setCodeGenOptLevel(options.compile.optLevel >= 1
                                  ? llvm::CodeGenOptLevel::Aggressive
                                  : llvm::CodeGenOptLevel::Less);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return machine.takeError();

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "qnn");
  if (!llvmModule)
    return makeError("translation to LLVM IR failed");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  if (llvm::Error err = optimizeLLVMModule(
          *llvmModule, options.compile.optLevel, machine->get()))
    return std::move(err);

  std::error_code ec;
  llvm::raw_fd_ostream os(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + objectPath + "': " + ec.message());
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, os, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return makeError("the target cannot emit object files");
  codegen.run(*llvmModule);
  os.flush();
  return functions;
}

static const char *cTypeName(Type element) {
  if (element.isF32())
    return "float";
  // f16 (qnn.dequantize for TVM): the IEEE half bits, C having no portable
  // half type.
  if (element.isF16())
    return "uint16_t";
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer)
    return "uint8_t";
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 8:
    return isUnsigned ? "uint8_t" : "int8_t";
  case 16:
    return isUnsigned ? "uint16_t" : "int16_t";
  case 32:
    return isUnsigned ? "uint32_t" : "int32_t";
  case 64:
    return isUnsigned ? "uint64_t" : "int64_t";
  default:
    return "uint8_t";
  }
}

std::string qnn::emitCHeader(ArrayRef<AOTFunction> functions, StringRef guard,
                             StringRef source, bool openmp) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* Generated by qnn-compile from " << source << ". Do not edit.\n"
     << " *\n"
     << " * Each entry point takes one buffer per argument, then one per\n"
     << " * result: densely packed, row-major, little-endian elements of the\n"
     << " * tensor's element type (the raw format of qnn-run). The caller\n"
     << " * owns every buffer; outputs are overwritten. The function returns\n"
     << " * 0. Entry points are reentrant but not thread-safe on shared\n"
     << " * output buffers. Link with -lm (and -lmlir_c_runner_utils from\n"
     << " * the LLVM library directory if memrefCopy is undefined).\n";
  if (openmp)
    os << " * The code runs on OpenMP threads: link with LLVM's libomp (-lomp\n"
       << " * from the LLVM library directory); OMP_NUM_THREADS sets the\n"
       << " * thread count when it was compiled with --threads=0.\n";
  os << " */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const AOTFunction &fn : functions) {
    std::string upper = StringRef(fn.symbol).upper();
    for (char &c : upper)
      if (!isalnum(static_cast<unsigned char>(c)))
        c = '_';
    auto describe = [&](StringRef kind, unsigned i, RankedTensorType type) {
      int64_t bytes =
          type.getNumElements() * getElementBytes(type.getElementType());
      os << "/*   " << kind << " " << i << ": " << type << ", "
         << type.getNumElements() << " x " << cTypeName(type.getElementType())
         << " */\n";
      os << "#define " << upper << "_" << (kind == "input" ? "IN" : "OUT") << i
         << "_BYTES " << bytes << "\n";
    };
    os << "/* @" << fn.name << " */\n";
    for (auto [i, type] : llvm::enumerate(fn.inputTypes))
      describe("input", i, type);
    for (auto [i, type] : llvm::enumerate(fn.outputTypes))
      describe("output", i, type);
    os << "#define " << upper << "_NUM_INPUTS " << fn.inputTypes.size()
       << "\n#define " << upper << "_NUM_OUTPUTS " << fn.outputTypes.size()
       << "\n";
    os << "int32_t " << fn.symbol << "(";
    bool first = true;
    for (unsigned i = 0; i < fn.inputTypes.size(); ++i, first = false)
      os << (first ? "" : ", ") << "const void *in" << i;
    for (unsigned i = 0; i < fn.outputTypes.size(); ++i, first = false)
      os << (first ? "" : ", ") << "void *out" << i;
    if (first)
      os << "void";
    os << ");\n\n";
  }
  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return text;
}
