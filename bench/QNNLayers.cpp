//===- QNNLayers.cpp - MobileNet layers compiled by qnn-mlir -------------===//

#include "QNNLayers.h"

#include "QNN/Compiler/Compiler.h"
#include "QNN/Reference/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace qnn::bench;

static std::string hexBytes(const std::vector<uint8_t> &bytes) {
  std::string s = "\"0x";
  static const char digits[] = "0123456789ABCDEF";
  for (uint8_t b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s + "\"";
}

/// The requantize rule of the layers: QNN_BENCH_ROUNDING=single gives
/// TFLite 2.x's single rounding (`tflite_single`, what the TFLite importer
/// emits by default), anything else gemmlowp's double rounding (`tflite`,
/// TFLite Micro's, the default here and in the earlier tables).
static const char *benchRounding() {
  const char *env = std::getenv("QNN_BENCH_ROUNDING");
  return env && std::string(env) == "single" ? "tflite_single" : "tflite";
}

/// The activations' type of the layers: unsigned bytes by default, as
/// oneDNN's layers get them (u8 source and destination, the like-for-like
/// comparison: inside a compiled network, every kernel but the first reads
/// the unsigned bytes its producer's epilogue stored, so a signed layer's
/// separate flip of its input, xor 0x80, is a cost of a graph input only).
/// QNN_BENCH_ACTIVATIONS=i8 gives the earlier tables' int8 layers (TFLite
/// int8 tensors: the same real values, zero points 128 lower).
static bool benchUnsigned() {
  const char *env = std::getenv("QNN_BENCH_ACTIVATIONS");
  return !(env && std::string(env) == "i8");
}

std::string qnn::bench::layerProgram(const ConvLayer &l) {
  int64_t groups = l.depthwise ? l.inC : 1;
  int64_t perGroupIn = l.depthwise ? 1 : l.inC;
  // Weights in [-127, 127] (TFLite int8), the same bytes as the peers'.
  std::vector<uint8_t> weights = deterministicBytes(
      static_cast<size_t>(l.outC * l.kernel * l.kernel * perGroupIn), 2);
  for (uint8_t &w : weights)
    if (w == 0x80)
      w = 0x81;
  std::vector<uint8_t> bias;
  for (int64_t c = 0; c < l.outC; ++c) {
    int32_t v = static_cast<int32_t>(c * 37 % 1000) - 500;
    for (int i = 0; i < 4; ++i)
      bias.push_back(static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * i)));
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  bool u8 = benchUnsigned();
  std::string act = u8 ? "xui8>" : "xi8>";
  // The same real values either way: zero points 128 higher when unsigned.
  std::string izp = u8 ? "127" : "-1", ozp = u8 ? "0" : "-128";
  std::string inType = "tensor<1x" + std::to_string(l.inH) + "x" +
                       std::to_string(l.inW) + "x" + std::to_string(l.inC) +
                       act;
  std::string shape = "1x" + std::to_string(l.outH()) + "x" +
                      std::to_string(l.outW()) + "x" + std::to_string(l.outC);
  std::string wType = "tensor<" + std::to_string(l.outC) + "x" +
                      std::to_string(l.kernel) + "x" +
                      std::to_string(l.kernel) + "x" +
                      std::to_string(perGroupIn) + "xi8>";
  std::string weightScales, requantScales;
  for (int64_t c = 0; c < l.outC; ++c) {
    float ws = 0.005f + 0.0001f * static_cast<float>(c % 13);
    weightScales += (c ? ", " : "") + llvm::formatv("{0:e}", ws).str();
    requantScales +=
        (c ? ", " : "") +
        llvm::formatv("{0:e}", 0.5 * static_cast<double>(ws)).str();
  }
  os << "func.func @main(%x: " << inType << ") -> tensor<" << shape << act
     << " {\n"
     << "  %w = arith.constant dense<" << hexBytes(weights) << "> : " << wType
     << "\n"
     << "  %b = arith.constant dense<" << hexBytes(bias) << "> : tensor<1x1x1x"
     << l.outC << "xi32>\n"
     << "  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, "
     << "dilations = array<i64: 1, 1>, groups = " << groups
     << " : i64, input_scale = 5.000000e-01 : f32, input_zero_point = " << izp
     << " : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: "
     << l.padTop() << ", " << l.padLeft() << ", " << l.padBottom() << ", "
     << l.padRight() << ">, strides = array<i64: " << l.stride << ", "
     << l.stride << ">, weight_scale = array<f32: " << weightScales
     << ">, weight_zero_point = 0 : i32} : (" << inType << ", " << wType
     << ") -> tensor<" << shape << "xi32>\n"
     << "  %a = tosa.add %c, %b : (tensor<" << shape << "xi32>, tensor<1x1x1x"
     << l.outC << "xi32>) -> tensor<" << shape << "xi32>\n"
     << "  %y = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: "
     << requantScales
     << ">, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, "
     << "output_zero_point = " << ozp << " : i32, rounding = #qnn.rounding<"
     << benchRounding() << ">} : tensor<" << shape
     << "xi32> -> tensor<" << shape << act << "\n"
     << "  return %y : tensor<" << shape << act << "\n}\n";
  return s;
}

std::string qnn::bench::chainProgram(const std::vector<ConvLayer> &layers) {
  // Each layer's @main becomes a private @<name>, called in order.
  std::string chain, calls;
  std::string value = "%x", type, outType;
  for (const ConvLayer &l : layers) {
    std::string program = layerProgram(l);
    std::string header = program.substr(0, program.find('{'));
    std::string inType = header.substr(header.find(':') + 2);
    inType = inType.substr(0, inType.find(')'));
    outType = header.substr(header.find("-> ") + 3);
    outType = outType.substr(0, outType.find_last_not_of(' ') + 1);
    if (type.empty())
      type = inType;
    program.replace(0, program.find('@') + 5, "func.func private @" + l.name);
    chain += program;
    calls += "  %" + l.name + " = call @" + l.name + "(" + value + ") : (" +
             inType + ") -> " + outType + "\n";
    value = "%" + l.name;
  }
  chain += "func.func @main(%x: " + type + ") -> " + outType + " {\n" + calls +
           "  return " + value + " : " + outType + "\n}\n";
  return chain;
}

/// The CPU the layers' code is generated for (CompileOptions::cpu):
/// QNN_BENCH_CPU, else for the int16 targets a CPU without VNNI, whose
/// code they are for (on a VNNI host LLVM would fuse their vpmaddwd +
/// vpaddd into vpdpwssd): x86-64-v3 (AVX2) for int16, x86-64-v4 (AVX512BW)
/// for int16-avx512bw; else the host.
static std::string benchCPU(const std::string &target) {
  if (const char *env = std::getenv("QNN_BENCH_CPU"))
    return env;
  if (target == "int16")
    return "x86-64-v3";
  if (target == "int16-avx512bw")
    return "x86-64-v4";
  return "";
}

struct QnnConv::Impl {
  mlir::MLIRContext context;
  std::unique_ptr<mlir::qnn::CompiledModule> module;
  std::vector<uint8_t> input, output;
  std::string target, program;
  /// The target, and the CPU when one is named (the benchmark's label).
  std::string label;
  Impl() : context(makeRegistry()) {}
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    mlir::qnn::registerCompilerDialects(registry);
    return registry;
  }
};

QnnConv::QnnConv(const ConvLayer &layer, const std::string &target,
                 unsigned threads)
    : QnnConv(layer.name, layerProgram(layer),
              static_cast<size_t>(layer.inH * layer.inW * layer.inC),
              static_cast<size_t>(layer.outH() * layer.outW() * layer.outC),
              target, threads) {}

QnnConv::QnnConv(const std::string &name, const std::string &program,
                 size_t inputBytes, size_t outputBytes,
                 const std::string &target, unsigned threads)
    : impl(std::make_unique<Impl>()) {
  impl->target = target.empty() ? mlir::qnn::getHostTarget() : target;
  impl->label = impl->target;
  impl->program = program;
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(impl->program, &impl->context);
  if (!module) {
    std::fprintf(stderr, "qnn program %s: cannot parse it\n", name.c_str());
    std::abort();
  }
  mlir::qnn::CompileOptions options;
  options.target = impl->target;
  options.cpu = benchCPU(impl->target);
  if (!options.cpu.empty())
    impl->label = impl->target + " (cpu " + options.cpu + ")";
  options.threads = threads;
  // QNN_BENCH_OPT_LEVEL: CompileOptions::optLevel (default 1).
  if (const char *level = std::getenv("QNN_BENCH_OPT_LEVEL"))
    options.optLevel = static_cast<unsigned>(std::atoi(level));
  // QNN_BENCH_FLOOR_AFFINE=0: the fixed-point requantize forms
  // (CompileOptions::floorAffine), for comparisons.
  if (const char *floor = std::getenv("QNN_BENCH_FLOOR_AFFINE"))
    options.floorAffine = std::string(floor) != "0";
  if (!options.floorAffine)
    impl->label += " (fixed-point)";
  auto compiled =
      mlir::qnn::CompiledModule::compile(std::move(module), options);
  if (!compiled) {
    std::fprintf(stderr, "qnn program %s: %s\n", name.c_str(),
                 llvm::toString(compiled.takeError()).c_str());
    std::abort();
  }
  impl->module = std::move(*compiled);
  impl->input = deterministicBytes(inputBytes, 1);
  impl->output.resize(outputBytes);
}

QnnConv::~QnnConv() = default;

void QnnConv::run() {
  if (llvm::Error err =
          impl->module->run({impl->input.data()}, {impl->output.data()})) {
    std::fprintf(stderr, "qnn layer: %s\n",
                 llvm::toString(std::move(err)).c_str());
    std::abort();
  }
}

std::string QnnConv::checkAgainstReference() {
  run();
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(impl->program, &impl->context);
  auto func = module ? module->lookupSymbol<mlir::func::FuncOp>("main")
                     : mlir::func::FuncOp();
  if (!func)
    return "cannot parse the layer program";
  std::string error;
  auto inType = mlir::cast<mlir::RankedTensorType>(func.getArgumentTypes()[0]);
  auto input = mlir::qnn::ref::tensorFromBytes(
      inType,
      llvm::ArrayRef(reinterpret_cast<const char *>(impl->input.data()),
                     impl->input.size()),
      error);
  if (mlir::failed(input))
    return error;
  mlir::qnn::ref::Evaluator evaluator;
  auto results = evaluator.run(func, {*input});
  if (mlir::failed(results))
    return "the reference evaluator failed";
  std::vector<char> expected = mlir::qnn::ref::tensorToBytes((*results)[0]);
  if (expected.size() != impl->output.size())
    return "output sizes differ";
  for (size_t i = 0; i < expected.size(); ++i)
    if (static_cast<uint8_t>(expected[i]) != impl->output[i])
      return "element " + std::to_string(i) + ": native " +
             std::to_string(static_cast<int8_t>(impl->output[i])) +
             ", reference " + std::to_string(static_cast<int8_t>(expected[i]));
  return "";
}

const std::string &QnnConv::target() const { return impl->label; }
