//===- PeersBenchmark.cpp - oneDNN and XNNPACK on MobileNet v1 layers -----===//
//
// Runs each MobileNet v1 1.0 224 convolution (8-bit, batch 1, NHWC,
// requantized 8-bit output) with qnn-mlir (the layer as a qnn program,
// JIT-compiled by QNNCompiler for QNN_BENCH_TARGET, default the host's best
// target) and the peer libraries found at configure time.
// Counters: GOPS (1 MAC = 2 ops). Threads: QNN_BENCH_THREADS (default 1):
// qnn-mlir's CompileOptions::threads (OpenMP, libomp) and XNNPACK's
// pthreadpool; oneDNN uses OpenMP, so run with OMP_NUM_THREADS set to the
// same value (scripts/bench.sh does).
//
// Activations: qnn-mlir's layers read and write uint8 tensors, as oneDNN's
// (u8 source and destination); QNN_BENCH_ACTIVATIONS=i8 makes them int8
// (the tables before 2026-11-28: the kernels then first flip the input's
// sign bits, a pass that inside a network only a graph input needs).
// XNNPACK's qs8 operator takes int8.
//
// QNN_BENCH_CPU names the x86-64 CPU whose instructions qnn-mlir's code
// may use (CompileOptions::cpu); by default the host's, but x86-64-v3
// (AVX2) for QNN_BENCH_TARGET=int16 and x86-64-v4 (AVX512BW) for
// int16-avx512bw: the CPUs without VNNI those targets are for (on a VNNI
// host LLVM turns their vpmaddwd + vpaddd into vpdpwssd).
//
// QNN_BENCH_ROUNDING=single: the layers requantize with TFLite 2.x's single
// rounding (the TFLite importer's default) instead of gemmlowp's double one.
//
// The sequence of all 27 layers runs twice for qnn-mlir: mobilenet_v1_convs
// is the chain compiled as one program (what qnn-mlir makes of a network),
// mobilenet_v1_layers the 27 layers compiled separately and run in order
// (each a program of its own, as a library's primitives are).
//
// QNN_BENCH_DUMP_LAYERS=DIR writes the qnn-mlir programs instead of running
// (DIR/<layer>.mlir and DIR/mobilenet_v1_convs.mlir, the 27 layers chained),
// so that they can be compiled ahead of time for another machine; built with
// -DQNN_BENCH_PEERS_ONLY the binary has the peers alone (no MLIR), to run
// there beside them (scripts/device/bundle-bench.sh).
//
//===----------------------------------------------------------------------===//

#include "MobileNetLayers.h"
#ifndef QNN_BENCH_PEERS_ONLY
#include "QNNLayers.h"
#endif

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#ifdef QNN_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif
#ifdef QNN_HAVE_XNNPACK
#include <pthreadpool.h>
#include <xnnpack.h>
#endif

using namespace qnn::bench;

static int benchThreads() {
  const char *env = std::getenv("QNN_BENCH_THREADS");
  int threads = env ? std::atoi(env) : 1;
  return threads > 0 ? threads : 1;
}

/// GOPS (1 MAC = 2 ops) of `macs` multiply-accumulates per iteration.
static void setCounters(benchmark::State &state, int64_t macs) {
  state.counters["GOPS"] = benchmark::Counter(2.0 * static_cast<double>(macs) *
                                                  state.iterations() / 1e9,
                                              benchmark::Counter::kIsRate);
}

static void setCounters(benchmark::State &state, const ConvLayer &layer) {
  setCounters(state, layer.macs());
}

/// The multiply-accumulates of the 27 MobileNet v1 convolutions.
static int64_t mobileNetV1Macs() {
  int64_t macs = 0;
  for (const ConvLayer &l : mobileNetV1Layers())
    macs += l.macs();
  return macs;
}

#ifndef QNN_BENCH_PEERS_ONLY
static std::string qnnTarget() {
  const char *env = std::getenv("QNN_BENCH_TARGET");
  return env ? env : "";
}

/// The programs compiled once for all repetitions (the chained layers,
/// the layers one by one), released at the end of main, where their
/// teardown frees them (destroyed by the exit handlers, the library leaves
/// them to the system: see CompiledModule).
static std::unique_ptr<QnnConv> compiledChain;
static std::vector<std::unique_ptr<QnnConv>> compiledLayers;

static void BM_QNN(benchmark::State &state, ConvLayer layer) {
  QnnConv conv(layer, qnnTarget(), benchThreads());
  state.SetLabel(conv.target());
  // QNN_BENCH_CHECK=1: first compare the layer with the reference evaluator.
  if (const char *check = std::getenv("QNN_BENCH_CHECK");
      check && *check == '1') {
    std::string diff = conv.checkAgainstReference();
    if (!diff.empty()) {
      state.SkipWithError(("differs from the reference: " + diff).c_str());
      return;
    }
    state.SetLabel(conv.target() + ", = reference");
  }
  // One untimed run: the JIT materializes code on first use.
  conv.run();
  for (auto _ : state)
    conv.run();
  setCounters(state, layer);
}

/// The 27 layers as one compiled program (chainProgram): what qnn-mlir
/// makes of the network. Between layers the values stay in the kernels'
/// own form (with QNN_BENCH_ACTIVATIONS=i8, a signed input a VNNI kernel
/// reads as unsigned bytes is flipped by its producer's epilogue, not by a
/// pass of its own).
static void BM_QNN_EndToEnd(benchmark::State &state) {
  std::unique_ptr<QnnConv> &chain = compiledChain;
  static std::string label;
  std::vector<ConvLayer> layers = mobileNetV1Layers();
  // Compiled once for all repetitions.
  if (!chain) {
    const ConvLayer &first = layers.front(), &last = layers.back();
    chain = std::make_unique<QnnConv>(
        "mobilenet_v1_convs", chainProgram(layers),
        static_cast<size_t>(first.inH * first.inW * first.inC),
        static_cast<size_t>(last.outH() * last.outW() * last.outC), qnnTarget(),
        benchThreads());
    label = chain->target();
    // QNN_BENCH_CHECK=1: compare with the reference evaluator first.
    if (const char *check = std::getenv("QNN_BENCH_CHECK");
        check && *check == '1') {
      std::string diff = chain->checkAgainstReference();
      if (!diff.empty()) {
        state.SkipWithError(("differs from the reference: " + diff).c_str());
        return;
      }
      label += ", = reference";
    }
    // One untimed run: the JIT materializes code on first use.
    chain->run();
  }
  state.SetLabel(label);
  for (auto _ : state)
    chain->run();
  setCounters(state, mobileNetV1Macs());
}

/// The 27 layers compiled one by one and run in order: the library-style
/// use, primitive by primitive (each layer also converts its signed input
/// for the VNNI kernel itself).
static void BM_QNN_Layers(benchmark::State &state) {
  std::vector<std::unique_ptr<QnnConv>> &convs = compiledLayers;
  // Compiled once for all repetitions (compiling 27 layers takes a while).
  // One untimed run of each: the JIT materializes code on first use.
  if (convs.empty())
    for (const ConvLayer &l : mobileNetV1Layers()) {
      convs.push_back(std::make_unique<QnnConv>(l, qnnTarget(), benchThreads()));
      convs.back()->run();
    }
  state.SetLabel(convs.front()->target());
  for (auto _ : state)
    for (auto &c : convs)
      c->run();
  setCounters(state, mobileNetV1Macs());
}

/// Writes the layer programs (see the file comment); returns false on error.
static bool dumpLayers(const std::string &dir) {
  auto write = [&](const std::string &name, const std::string &text) {
    std::ofstream os(dir + "/" + name + ".mlir");
    os << text;
    return static_cast<bool>(os);
  };
  for (const ConvLayer &l : representativeLayers())
    if (!write(l.name, layerProgram(l)))
      return false;
  // The 27 layers chained.
  return write("mobilenet_v1_convs", chainProgram(mobileNetV1Layers()));
}
#endif // QNN_BENCH_PEERS_ONLY

#ifdef QNN_HAVE_DNNL
namespace {
/// One oneDNN int8 convolution: u8 activations, s8 weights, s32 bias,
/// per-channel output scales, u8 output (saturating).
struct DnnlConv {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::convolution_forward conv;
  dnnl::memory src, weights, bias, dst;

  explicit DnnlConv(const ConvLayer &l) {
    using namespace dnnl;
    using dt = memory::data_type;
    using tag = memory::format_tag;
    int64_t groups = l.depthwise ? l.inC : 1;
    memory::dims srcDims = {1, l.inC, l.inH, l.inW};
    memory::dims dstDims = {1, l.outC, l.outH(), l.outW()};
    memory::dims weightDims =
        l.depthwise ? memory::dims{groups, 1, 1, l.kernel, l.kernel}
                    : memory::dims{l.outC, l.inC, l.kernel, l.kernel};
    auto srcMd = memory::desc(srcDims, dt::u8, tag::nhwc);
    auto dstMd = memory::desc(dstDims, dt::u8, tag::nhwc);
    auto weightAny = memory::desc(weightDims, dt::s8, tag::any);
    auto biasMd = memory::desc({l.outC}, dt::s32, tag::x);
    convolution_forward::desc desc(
        prop_kind::forward_inference, algorithm::convolution_direct, srcMd,
        weightAny, biasMd, dstMd, {l.stride, l.stride},
        {l.padTop(), l.padLeft()}, {l.padBottom(), l.padRight()});
    primitive_attr attr;
    std::vector<float> scales(l.outC);
    for (int64_t c = 0; c < l.outC; ++c)
      scales[c] = 0.0005f + 0.00001f * static_cast<float>(c % 17);
    attr.set_output_scales(1 << 1, scales);
    convolution_forward::primitive_desc pd(desc, attr, engine);

    src = memory(srcMd, engine);
    dst = memory(dstMd, engine);
    bias = memory(biasMd, engine);
    auto plainWeightMd =
        memory::desc(weightDims, dt::s8, l.depthwise ? tag::goihw : tag::oihw);
    memory plainWeights(plainWeightMd, engine);
    weights = memory(pd.weights_desc(), engine);

    auto fill = [](memory &m, size_t bytes, uint32_t seed) {
      auto data = deterministicBytes(bytes, seed);
      std::memcpy(m.get_data_handle(), data.data(), bytes);
    };
    fill(src, src.get_desc().get_size(), 1);
    fill(plainWeights, plainWeightMd.get_size(), 2);
    std::vector<int32_t> biasValues(l.outC);
    for (int64_t c = 0; c < l.outC; ++c)
      biasValues[c] = static_cast<int32_t>(c * 37 % 1000) - 500;
    std::memcpy(bias.get_data_handle(), biasValues.data(), 4 * l.outC);
    reorder(plainWeights, weights).execute(stream, plainWeights, weights);
    stream.wait();
    conv = convolution_forward(pd);
  }

  void run() {
    conv.execute(stream, {{DNNL_ARG_SRC, src},
                          {DNNL_ARG_WEIGHTS, weights},
                          {DNNL_ARG_BIAS, bias},
                          {DNNL_ARG_DST, dst}});
    stream.wait();
  }
};
} // namespace

static void BM_OneDNN(benchmark::State &state, ConvLayer layer) {
  DnnlConv conv(layer);
  for (auto _ : state)
    conv.run();
  setCounters(state, layer);
}

static void BM_OneDNN_EndToEnd(benchmark::State &state) {
  std::vector<std::unique_ptr<DnnlConv>> convs;
  for (const ConvLayer &l : mobileNetV1Layers())
    convs.push_back(std::make_unique<DnnlConv>(l));
  for (auto _ : state)
    for (auto &c : convs)
      c->run();
  setCounters(state, mobileNetV1Macs());
}
#endif // QNN_HAVE_DNNL

#ifdef QNN_HAVE_XNNPACK
namespace {
/// One XNNPACK qs8 convolution (int8 activations and weights, per-tensor).
struct XnnConv {
  xnn_operator_t op = nullptr;
  std::vector<uint8_t> input, output;
  const ConvLayer layer;

  XnnConv(const ConvLayer &l, pthreadpool_t pool) : layer(l) {
    size_t groups = l.depthwise ? l.inC : 1;
    size_t groupIn = l.depthwise ? 1 : l.inC;
    size_t groupOut = l.depthwise ? 1 : l.outC;
    auto kernel = deterministicBytes(
        static_cast<size_t>(l.outC * l.kernel * l.kernel * groupIn), 2);
    std::vector<int32_t> bias(l.outC);
    for (int64_t c = 0; c < l.outC; ++c)
      bias[c] = static_cast<int32_t>(c * 37 % 1000) - 500;
    input = deterministicBytes(static_cast<size_t>(l.inH * l.inW * l.inC), 1);
    output.resize(static_cast<size_t>(l.outH() * l.outW() * l.outC));
    xnn_status status = xnn_create_convolution2d_nhwc_qs8(
        l.padTop(), l.padRight(), l.padBottom(), l.padLeft(), l.kernel,
        l.kernel, l.stride, l.stride, 1, 1, groups, groupIn, groupOut, l.inC,
        l.outC, /*input_zero_point=*/-1, 0.5f, 0.01f,
        reinterpret_cast<const int8_t *>(kernel.data()), bias.data(), -128,
        0.05f, -128, 127, l.depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0,
        &op);
    if (status != xnn_status_success)
      std::abort();
    status = xnn_setup_convolution2d_nhwc_qs8(
        op, 1, l.inH, l.inW, reinterpret_cast<const int8_t *>(input.data()),
        reinterpret_cast<int8_t *>(output.data()), pool);
    if (status != xnn_status_success)
      std::abort();
  }
  ~XnnConv() { xnn_delete_operator(op); }
  void run(pthreadpool_t pool) { xnn_run_operator(op, pool); }
};

struct XnnRuntime {
  pthreadpool_t pool = nullptr;
  XnnRuntime() {
    if (xnn_initialize(nullptr) != xnn_status_success)
      std::abort();
    int threads = benchThreads();
    if (threads > 1)
      pool = pthreadpool_create(threads);
  }
  ~XnnRuntime() {
    if (pool)
      pthreadpool_destroy(pool);
  }
};

XnnRuntime &xnnRuntime() {
  static XnnRuntime runtime;
  return runtime;
}
} // namespace

static void BM_XNNPACK(benchmark::State &state, ConvLayer layer) {
  pthreadpool_t pool = xnnRuntime().pool;
  XnnConv conv(layer, pool);
  for (auto _ : state)
    conv.run(pool);
  setCounters(state, layer);
}

static void BM_XNNPACK_EndToEnd(benchmark::State &state) {
  pthreadpool_t pool = xnnRuntime().pool;
  std::vector<std::unique_ptr<XnnConv>> convs;
  for (const ConvLayer &l : mobileNetV1Layers())
    convs.push_back(std::make_unique<XnnConv>(l, pool));
  for (auto _ : state)
    for (auto &c : convs)
      c->run(pool);
  setCounters(state, mobileNetV1Macs());
}
#endif // QNN_HAVE_XNNPACK

static void registerBenchmarks() {
  for (const ConvLayer &layer : representativeLayers()) {
#ifndef QNN_BENCH_PEERS_ONLY
    benchmark::RegisterBenchmark(("qnn-mlir/" + layer.name).c_str(), BM_QNN,
                                 layer)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
#endif
#ifdef QNN_HAVE_DNNL
    benchmark::RegisterBenchmark(("oneDNN/" + layer.name).c_str(), BM_OneDNN,
                                 layer)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
#endif
#ifdef QNN_HAVE_XNNPACK
    benchmark::RegisterBenchmark(("XNNPACK/" + layer.name).c_str(), BM_XNNPACK,
                                 layer)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
#endif
    (void)layer;
  }
#ifndef QNN_BENCH_PEERS_ONLY
  benchmark::RegisterBenchmark("qnn-mlir/mobilenet_v1_convs", BM_QNN_EndToEnd)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("qnn-mlir/mobilenet_v1_layers", BM_QNN_Layers)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
#endif
#ifdef QNN_HAVE_DNNL
  benchmark::RegisterBenchmark("oneDNN/mobilenet_v1_convs", BM_OneDNN_EndToEnd)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
#endif
#ifdef QNN_HAVE_XNNPACK
  benchmark::RegisterBenchmark("XNNPACK/mobilenet_v1_convs",
                               BM_XNNPACK_EndToEnd)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
#endif
}

int main(int argc, char **argv) {
#ifndef QNN_BENCH_PEERS_ONLY
  if (const char *dir = std::getenv("QNN_BENCH_DUMP_LAYERS")) {
    if (!dumpLayers(dir)) {
      std::cerr << "cannot write the layer programs to " << dir << "\n";
      return 1;
    }
    return 0;
  }
#endif
  registerBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
#ifndef QNN_BENCH_PEERS_ONLY
  compiledChain.reset();
  compiledLayers.clear();
#endif
  return 0;
}
