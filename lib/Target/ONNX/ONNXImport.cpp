//===- ONNXImport.cpp - ONNX model to qnn IR -------------------------------===//
//
// Reads a ModelProto with the protobuf classes of Debian's libonnx-dev and
// builds qnn IR in ONNX's NCHW layout. Every value read from the file (data
// types, shapes, initializer sizes, attributes, scales, zero points) is
// checked before it is used; a malformed model gets one located error.
//
// DequantizeLinear outputs are kept "lazy" (an integer value and its
// quantization parameters) so that the QDQ form can be recognised where the
// float values are consumed: a float Conv/MatMul/Gemm whose inputs are lazy
// and whose only consumer is a QuantizeLinear (possibly through Relu or
// Clip) becomes qnn.conv2d/qnn.dense + requantize; data-movement ops apply
// to the integers and keep the value lazy; a QuantizeLinear of a lazy value
// with the same parameters is the integer value itself.
//
//===----------------------------------------------------------------------===//

#include "QNN/Target/ONNX/ONNXImport.h"
#include "QNN/IR/QNNDialect.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#ifdef QNN_HAVE_ONNX
#include "onnx/onnx_pb.h"
#endif

using namespace mlir;
using namespace mlir::qnn;

void mlir::qnn::registerONNXImportDialects(DialectRegistry &registry) {
  registry.insert<QNNDialect, arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, tensor::TensorDialect,
                  tosa::TosaDialect>();
}

#ifndef QNN_HAVE_ONNX

bool mlir::qnn::isONNXImportAvailable() { return false; }

OwningOpRef<ModuleOp> mlir::qnn::importONNX(StringRef, MLIRContext *context,
                                            StringRef sourceName,
                                            const ONNXImportOptions &) {
  emitError(FileLineColLoc::get(context, sourceName, 0, 0))
      << "this build of qnn-mlir has no ONNX importer (install libonnx-dev "
         "and reconfigure)";
  return nullptr;
}

#else

bool mlir::qnn::isONNXImportAvailable() { return true; }

namespace {

/// ONNX TensorProto data types the importer reads.
enum DataType : int32_t {
  kFloat = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kInt32 = 6,
  kInt64 = 7,
};

StringRef dataTypeName(int32_t t) {
  switch (t) {
  case kFloat:
    return "float";
  case kUInt8:
    return "uint8";
  case kInt8:
    return "int8";
  case kInt32:
    return "int32";
  case kInt64:
    return "int64";
  default:
    return "unsupported";
  }
}

int64_t dataTypeBytes(int32_t t) {
  switch (t) {
  case kUInt8:
  case kInt8:
    return 1;
  case kFloat:
  case kInt32:
    return 4;
  case kInt64:
    return 8;
  default:
    return 0;
  }
}

/// A decoded initializer or Constant: integers in `ints`, floats in
/// `floats`.
struct Const {
  int32_t dataType = 0;
  SmallVector<int64_t> shape;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  int64_t numElements() const {
    return dataType == kFloat ? static_cast<int64_t>(floats.size())
                              : static_cast<int64_t>(ints.size());
  }
};

/// Quantization parameters of a QuantizeLinear/DequantizeLinear or a
/// QLinear op's operand: one scale/zero point or one per index of `axis`.
struct QParams {
  SmallVector<float> scales;
  SmallVector<int32_t> zeroPoints;
  int64_t axis = 1;
  int32_t storage = kUInt8;
  bool perTensor() const { return scales.size() == 1; }
  bool operator==(const QParams &o) const {
    return scales == o.scales && zeroPoints == o.zeroPoints &&
           storage == o.storage && (perTensor() || axis == o.axis);
  }
};

/// A DequantizeLinear output not materialized yet: the integer tensor and
/// its parameters.
struct Lazy {
  std::string input;
  QParams q;
};

class Importer {
public:
  Importer(MLIRContext *context, StringRef sourceName,
           const ONNXImportOptions &options)
      : context(context), builder(context),
        fileLoc(FileLineColLoc::get(context, sourceName, 0, 0)),
        loc(fileLoc), options(options) {}

  OwningOpRef<ModuleOp> run(StringRef buffer);

private:
  // Diagnostics: located at the file, naming the current node.
  InFlightDiagnostic error() {
    InFlightDiagnostic d = emitError(loc);
    if (node)
      d << "node " << nodeIndex << " ('" << node->name() << "', "
        << node->op_type() << "): ";
    return d;
  }

  LogicalResult importGraph(const onnx::GraphProto &graph, ModuleOp module);
  LogicalResult checkSupported(const onnx::GraphProto &graph);
  LogicalResult importNode();

  // Reading the file.
  FailureOr<Const> decodeTensor(const onnx::TensorProto &t, StringRef what);
  FailureOr<RankedTensorType> valueInfoType(const onnx::ValueInfoProto &v);
  Type elementType(int32_t dataType);
  FailureOr<QParams> readQParams(StringRef scaleName, StringRef zpName,
                                 int32_t defaultStorage, int64_t axis,
                                 StringRef what);

  // Attributes.
  const onnx::AttributeProto *attr(StringRef name);
  FailureOr<int64_t> intAttr(StringRef name, int64_t defaultValue);
  FailureOr<float> floatAttr(StringRef name, float defaultValue);
  struct PoolWindow {
    SmallVector<int64_t> kernel, strides, pads;
    std::string autoPad;
    bool ceilMode = false;
  };
  FailureOr<PoolWindow> readPoolWindow(StringRef what);
  /// Resolves the window's auto_pad for an `h` x `w` input and, with
  /// ceil_mode, adds the extra bottom/right rows and columns that the
  /// rounded-up output size needs (windows clipped to the input, as ONNX
  /// Runtime computes them). `extra` receives how many were added.
  FailureOr<SmallVector<int64_t>> resolvePoolPads(const PoolWindow &window,
                                                  int64_t h, int64_t w,
                                                  int64_t *extra = nullptr);
  /// The pads ([top, left, bottom, right]) that `autoPad` (NOTSET: `pads`
  /// as given, VALID, SAME_UPPER, SAME_LOWER) gives a window of effective
  /// size `effH` x `effW` with `strides` over an `h` x `w` input, as ONNX
  /// defines them: SAME pads to ceil(in / stride) outputs, the odd unit at
  /// the end (UPPER) or the start (LOWER).
  FailureOr<SmallVector<int64_t>> resolveAutoPad(StringRef autoPad,
                                                 ArrayRef<int64_t> pads,
                                                 int64_t h, int64_t w,
                                                 int64_t effH, int64_t effW,
                                                 ArrayRef<int64_t> strides);
  FailureOr<SmallVector<int64_t>> intsAttr(StringRef name,
                                           ArrayRef<int64_t> defaultValue);
  FailureOr<std::string> stringAttr(StringRef name, StringRef defaultValue);

  // Operands.
  std::string input(int i) {
    return i < node->input_size() ? node->input(i) : std::string();
  }
  bool hasInput(int i) { return !input(i).empty(); }
  FailureOr<Value> getValue(StringRef name);
  FailureOr<const Const *> getConst(StringRef name, StringRef what);
  Value materialize(const Const &c);
  RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }
  LogicalResult setOutput(int i, Value v);
  LogicalResult checkArity(int minInputs, int maxInputs, int outputs);

  // Op importers.
  LogicalResult importQuantize();
  LogicalResult importDequantize();
  LogicalResult importQLinearConv();
  LogicalResult importQLinearMatMul();
  LogicalResult importIntegerOp(bool conv);
  LogicalResult importQDQ(bool conv, bool gemm);
  LogicalResult importQLinearBinary(bool mul);
  LogicalResult importAveragePool(bool qlinear, bool global);
  FailureOr<Value> emitAveragePool(Value x, const QParams &xq,
                                   const QParams &yq, bool channelsLast);
  FailureOr<Value> emitGlobalAvgPool(Value x, const QParams &xq,
                                     const QParams &yq, bool channelsLast);
  LogicalResult importQDQBinary(bool mul);
  LogicalResult importActivation(bool qlinear);
  LogicalResult importSoftmax(bool qlinear);
  /// The float32 softmax of `x` along `axis` (in [0, rank)); with
  /// `flatten` (opset < 13) over all dimensions from `axis` on.
  Value emitFloatSoftmax(Value x, int64_t axis, bool flatten);
  LogicalResult importUnary(
      bool qlinear,
      llvm::function_ref<FailureOr<Value>(Value, const QParams &,
                                          const QParams &)>
          emit);
  FailureOr<Value> emitActivation(StringRef kind, Value x, const QParams &xq,
                                  const QParams &yq);
  FailureOr<Value> emitBinary(bool mul, Value a, const QParams &aq, Value b,
                           const QParams &bq, const QParams &cq);
  /// The QuantizeLinear (through at most one Relu/Clip) that is the only
  /// consumer of `out`; -1 if there is none.
  int findQuantizeConsumer(StringRef out, const onnx::NodeProto *&activation,
                           int &actIndex);
  FailureOr<QParams> quantizeParams(const onnx::NodeProto &quant);
  LogicalResult bindNodeOutput(int index, Value v);
  LogicalResult importMaxPool();
  LogicalResult importReshape(bool flatten);
  LogicalResult importTranspose();
  LogicalResult importResize();
  /// `in` reshaped (tensor.reshape) to `shape`.
  Value reshapeTo(Value in, ArrayRef<int64_t> shape);
  /// Picks entries `picks` (in [0, K)) along `axis` of `in`: one
  /// tosa.gather of the [K, outer * inner] view (transposed when the axis
  /// has outer dimensions).
  Value gatherAlong(Value in, int64_t axis, ArrayRef<int32_t> picks);
  LogicalResult importPad();
  LogicalResult importConcat();
  LogicalResult importQLinearConcat();
  FailureOr<Value> emitConcat(ArrayRef<Value> ints, ArrayRef<float> scales,
                              ArrayRef<int32_t> zps, float outScale,
                              int32_t outZp);

  /// Conv attributes and the shapes they imply.
  struct ConvGeometry {
    SmallVector<int64_t> strides, dilations, pads;
    int64_t groups = 1;
    RankedTensorType accType;
  };
  FailureOr<ConvGeometry> convGeometry(RankedTensorType x,
                                       ArrayRef<int64_t> wShape);
  FailureOr<Value> emitConv(Value x, const QParams &xq, const Const &w,
                            const QParams &wq, const Const *bias,
                            std::optional<QParams> yq);
  FailureOr<Value> emitDense(Value a, const QParams &aq, const Const &b,
                             const QParams &bq, const Const *bias,
                             std::optional<QParams> yq, bool transposed);
  FailureOr<Value> requantize(Value acc, float inScale,
                              ArrayRef<float> weightScales,
                              const QParams &yq);
  FailureOr<Value> clampActivation(Value v, const QParams &yq,
                                   const onnx::NodeProto &activation);
  LogicalResult checkWeightQParams(const QParams &wq, int64_t channels,
                                   StringRef what);

  /// Applies `fn` to the integer value under a lazy DequantizeLinear and
  /// keeps the result lazy; otherwise to the value itself.
  LogicalResult dataMovement(
      StringRef name, llvm::function_ref<FailureOr<Value>(Value)> fn);

  MLIRContext *context;
  OpBuilder builder;
  Location fileLoc, loc;
  const ONNXImportOptions options;
  const onnx::GraphProto *graph = nullptr;
  const onnx::NodeProto *node = nullptr;
  int nodeIndex = -1;

  llvm::StringMap<Value> values;
  llvm::StringMap<Const> constants;
  llvm::StringMap<Lazy> lazy;
  /// Uses of each value name (node inputs and graph outputs).
  llvm::StringMap<int> uses;
  /// The node consuming each value name, when there is exactly one.
  llvm::StringMap<int> consumer;
  /// Nodes already imported as part of a pattern.
  llvm::DenseSet<int> done;
  func::FuncOp func;
  /// The default domain's opset version.
  int64_t opset = 0;
};

//===----------------------------------------------------------------------===//
// Reading the file
//===----------------------------------------------------------------------===//

Type Importer::elementType(int32_t dataType) {
  switch (dataType) {
  case kFloat:
    return builder.getF32Type();
  case kUInt8:
    return IntegerType::get(context, 8, IntegerType::Unsigned);
  case kInt8:
    return builder.getIntegerType(8);
  case kInt32:
    return builder.getIntegerType(32);
  case kInt64:
    return builder.getIntegerType(64);
  default:
    return {};
  }
}

FailureOr<Const> Importer::decodeTensor(const onnx::TensorProto &t,
                                        StringRef what) {
  Const c;
  c.dataType = t.data_type();
  int64_t bytes = dataTypeBytes(c.dataType);
  if (!bytes) {
    error() << what << " '" << t.name() << "' has data type " << c.dataType
            << ", which is not supported (float, uint8, int8, int32, int64)";
    return failure();
  }
  if (t.has_data_location() &&
      t.data_location() == onnx::TensorProto::EXTERNAL) {
    error() << what << " '" << t.name()
            << "' is stored in an external file, which is not supported";
    return failure();
  }
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || (d > 0 && n > options.maxTensorBytes / d)) {
      error() << what << " '" << t.name() << "' has an invalid or too large "
              << "shape (dimension " << d << ")";
      return failure();
    }
    n *= d;
    c.shape.push_back(d);
  }
  if (n * bytes > options.maxTensorBytes) {
    error() << what << " '" << t.name() << "' needs " << n * bytes
            << " bytes, more than the limit of " << options.maxTensorBytes;
    return failure();
  }
  if (t.has_raw_data()) {
    const std::string &raw = t.raw_data();
    if (static_cast<int64_t>(raw.size()) != n * bytes) {
      error() << what << " '" << t.name() << "' holds " << raw.size()
              << " bytes of data; its shape needs " << n * bytes;
      return failure();
    }
    const char *p = raw.data();
    for (int64_t i = 0; i < n; ++i) {
      switch (c.dataType) {
      case kFloat: {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        c.floats.push_back(f);
        break;
      }
      case kUInt8:
        c.ints.push_back(static_cast<uint8_t>(p[i]));
        break;
      case kInt8:
        c.ints.push_back(static_cast<int8_t>(p[i]));
        break;
      case kInt32: {
        int32_t v;
        std::memcpy(&v, p + 4 * i, 4);
        c.ints.push_back(v);
        break;
      }
      case kInt64: {
        int64_t v;
        std::memcpy(&v, p + 8 * i, 8);
        c.ints.push_back(v);
        break;
      }
      }
    }
    return c;
  }
  int64_t have = 0;
  switch (c.dataType) {
  case kFloat:
    have = t.float_data_size();
    c.floats.assign(t.float_data().begin(), t.float_data().end());
    break;
  case kUInt8:
  case kInt8:
  case kInt32: {
    have = t.int32_data_size();
    auto [lo, hi] = c.dataType == kUInt8  ? std::pair<int64_t, int64_t>{0, 255}
                    : c.dataType == kInt8 ? std::pair<int64_t, int64_t>{-128, 127}
                                          : std::pair<int64_t, int64_t>{
                                                INT32_MIN, INT32_MAX};
    for (int32_t v : t.int32_data()) {
      if (v < lo || v > hi) {
        error() << what << " '" << t.name() << "' holds " << v
                << ", outside the range of " << dataTypeName(c.dataType);
        return failure();
      }
      c.ints.push_back(v);
    }
    break;
  }
  case kInt64:
    have = t.int64_data_size();
    c.ints.assign(t.int64_data().begin(), t.int64_data().end());
    break;
  }
  if (have != n) {
    error() << what << " '" << t.name() << "' holds " << have
            << " elements; its shape needs " << n;
    return failure();
  }
  return c;
}

FailureOr<RankedTensorType>
Importer::valueInfoType(const onnx::ValueInfoProto &v) {
  if (!v.has_type() || !v.type().has_tensor_type()) {
    error() << "graph input/output '" << v.name() << "' is not a tensor";
    return failure();
  }
  const auto &tt = v.type().tensor_type();
  Type elem = elementType(tt.elem_type());
  if (!elem || tt.elem_type() == kInt64) {
    error() << "graph input/output '" << v.name() << "' has element type "
            << tt.elem_type() << " (" << dataTypeName(tt.elem_type())
            << "); expected float, uint8, int8 or int32";
    return failure();
  }
  if (!tt.has_shape()) {
    error() << "graph input '" << v.name() << "' has no shape";
    return failure();
  }
  SmallVector<int64_t> shape;
  int64_t n = 1;
  for (const auto &d : tt.shape().dim()) {
    if (!d.has_dim_value()) {
      error() << "graph input '" << v.name() << "' has a dynamic dimension"
              << (d.has_dim_param() ? " '" + d.dim_param() + "'" : "")
              << ": static shapes only";
      return failure();
    }
    int64_t s = d.dim_value();
    if (s <= 0 || n > options.maxTensorBytes / s) {
      error() << "graph input '" << v.name() << "' has dimension " << s
              << " (positive and within the tensor size limit expected)";
      return failure();
    }
    n *= s;
    shape.push_back(s);
  }
  return RankedTensorType::get(shape, elem);
}

FailureOr<const Const *> Importer::getConst(StringRef name, StringRef what) {
  auto it = constants.find(name);
  if (it == constants.end()) {
    error() << what << " '" << name
            << "' must be a constant (an initializer or a Constant node)";
    return failure();
  }
  return &it->second;
}

FailureOr<QParams> Importer::readQParams(StringRef scaleName,
                                         StringRef zpName,
                                         int32_t defaultStorage, int64_t axis,
                                         StringRef what) {
  QParams q;
  q.axis = axis;
  q.storage = defaultStorage;
  FailureOr<const Const *> scale =
      getConst(scaleName, (what + " scale").str());
  if (failed(scale))
    return failure();
  if ((*scale)->dataType != kFloat || (*scale)->shape.size() > 1 ||
      (*scale)->numElements() == 0) {
    error() << what << " scale '" << scaleName
            << "' must be a float scalar or 1-D tensor";
    return failure();
  }
  for (float s : (*scale)->floats) {
    if (!std::isfinite(s) || s <= 0.0f || !std::isnormal(s)) {
      error() << what << " scale '" << scaleName << "' holds " << s
              << "; scales must be positive, finite and normal";
      return failure();
    }
    q.scales.push_back(s);
  }
  if (!zpName.empty()) {
    FailureOr<const Const *> zp =
        getConst(zpName, (what + " zero point").str());
    if (failed(zp))
      return failure();
    if ((*zp)->dataType != kUInt8 && (*zp)->dataType != kInt8 &&
        (*zp)->dataType != kInt32) {
      error() << what << " zero point '" << zpName << "' has type "
              << dataTypeName((*zp)->dataType)
              << "; expected uint8, int8 or int32";
      return failure();
    }
    if ((*zp)->shape.size() > 1 ||
        ((*zp)->numElements() != 1 &&
         (*zp)->numElements() != static_cast<int64_t>(q.scales.size()))) {
      error() << what << " zero point '" << zpName << "' has "
              << (*zp)->numElements() << " elements for " << q.scales.size()
              << " scales";
      return failure();
    }
    q.storage = (*zp)->dataType;
    for (int64_t v : (*zp)->ints)
      q.zeroPoints.push_back(static_cast<int32_t>(v));
  } else {
    q.zeroPoints.push_back(0);
  }
  return q;
}

//===----------------------------------------------------------------------===//
// Attributes and operands
//===----------------------------------------------------------------------===//

const onnx::AttributeProto *Importer::attr(StringRef name) {
  for (const auto &a : node->attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

FailureOr<int64_t> Importer::intAttr(StringRef name, int64_t defaultValue) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return defaultValue;
  if (a->type() != onnx::AttributeProto::INT) {
    error() << "attribute '" << name << "' must be an integer";
    return failure();
  }
  return a->i();
}

FailureOr<float> Importer::floatAttr(StringRef name, float defaultValue) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return defaultValue;
  if (a->type() != onnx::AttributeProto::FLOAT || !std::isfinite(a->f())) {
    error() << "attribute '" << name << "' must be a finite float";
    return failure();
  }
  return a->f();
}

/// The window attributes of a 2-D pooling node: kernel_shape, strides and
/// pads ([top, left, bottom, right]) in [1, 4096] / [0, 4096), auto_pad
/// (resolved with the input's size by resolveAutoPad); dilations 1 and
/// ceil_mode 0 only.
FailureOr<Importer::PoolWindow> Importer::readPoolWindow(StringRef what) {
  FailureOr<SmallVector<int64_t>> kernel = intsAttr("kernel_shape", {});
  FailureOr<SmallVector<int64_t>> strides = intsAttr("strides", {1, 1});
  FailureOr<SmallVector<int64_t>> pads = intsAttr("pads", {0, 0, 0, 0});
  FailureOr<SmallVector<int64_t>> dilations = intsAttr("dilations", {1, 1});
  FailureOr<int64_t> ceil = intAttr("ceil_mode", 0);
  FailureOr<std::string> autoPad = stringAttr("auto_pad", "NOTSET");
  if (failed(kernel) || failed(strides) || failed(pads) || failed(dilations) ||
      failed(ceil) || failed(autoPad))
    return failure();
  if (kernel->size() != 2 || strides->size() != 2 || pads->size() != 4 ||
      *dilations != SmallVector<int64_t>{1, 1} || (*ceil != 0 && *ceil != 1)) {
    error() << "only 2-D " << what
            << " with dilations 1 and ceil_mode 0 or 1 is supported";
    return failure();
  }
  for (int64_t v : llvm::concat<int64_t>(*kernel, *strides))
    if (v < 1 || v > 4096) {
      error() << "kernel_shape and strides must be in [1, 4096]";
      return failure();
    }
  for (int64_t v : *pads)
    if (v < 0 || v >= 4096) {
      error() << "pads must be in [0, 4096)";
      return failure();
    }
  return PoolWindow{*kernel, *strides, *pads, *autoPad, *ceil == 1};
}

FailureOr<SmallVector<int64_t>>
Importer::resolvePoolPads(const PoolWindow &window, int64_t h, int64_t w,
                          int64_t *extra) {
  FailureOr<SmallVector<int64_t>> pads =
      resolveAutoPad(window.autoPad, window.pads, h, w, window.kernel[0],
                     window.kernel[1], window.strides);
  if (failed(pads))
    return failure();
  if (extra)
    *extra = 0;
  if (!window.ceilMode)
    return pads;
  // ceil_mode: ceil((in + pads - k) / stride) + 1 outputs. Their last window
  // must start inside the input or its leading padding: there ONNX Runtime
  // (which clips each window to the input) and PyTorch (which drops such a
  // window) agree, and the window is never empty.
  SmallVector<int64_t> result = *pads;
  for (int d = 0; d < 2; ++d) {
    int64_t in = d == 0 ? h : w, k = window.kernel[d], s = window.strides[d];
    int64_t span = in + result[d] + result[d + 2] - k;
    if (span < 0)
      continue; // reported by the caller
    int64_t out = (span + s - 1) / s + 1;
    if ((out - 1) * s >= in + result[d]) {
      error() << "ceil_mode gives a last window that starts in the padding "
                 "(ONNX Runtime versions and PyTorch disagree there)";
      return failure();
    }
    int64_t more = (out - 1) * s + k - (in + result[d] + result[d + 2]);
    result[d + 2] += more;
    if (extra)
      *extra += more;
  }
  return result;
}

FailureOr<SmallVector<int64_t>>
Importer::resolveAutoPad(StringRef autoPad, ArrayRef<int64_t> pads, int64_t h,
                         int64_t w, int64_t effH, int64_t effW,
                         ArrayRef<int64_t> strides) {
  if (autoPad == "NOTSET")
    return SmallVector<int64_t>(pads);
  if (autoPad == "VALID")
    return SmallVector<int64_t>{0, 0, 0, 0};
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") {
    error() << "auto_pad '" << autoPad << "' is not supported";
    return failure();
  }
  auto total = [](int64_t in, int64_t eff, int64_t stride) {
    return std::max<int64_t>(0, ((in + stride - 1) / stride - 1) * stride +
                                    eff - in);
  };
  int64_t padH = total(h, effH, strides[0]), padW = total(w, effW, strides[1]);
  bool upper = autoPad == "SAME_UPPER";
  return SmallVector<int64_t>{upper ? padH / 2 : padH - padH / 2,
                              upper ? padW / 2 : padW - padW / 2,
                              upper ? padH - padH / 2 : padH / 2,
                              upper ? padW - padW / 2 : padW / 2};
}

FailureOr<SmallVector<int64_t>>
Importer::intsAttr(StringRef name, ArrayRef<int64_t> defaultValue) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return SmallVector<int64_t>(defaultValue);
  if (a->type() != onnx::AttributeProto::INTS) {
    error() << "attribute '" << name << "' must be a list of integers";
    return failure();
  }
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

FailureOr<std::string> Importer::stringAttr(StringRef name,
                                            StringRef defaultValue) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return defaultValue.str();
  if (a->type() != onnx::AttributeProto::STRING) {
    error() << "attribute '" << name << "' must be a string";
    return failure();
  }
  return a->s();
}

Value Importer::materialize(const Const &c) {
  Type elem = elementType(c.dataType);
  auto type = RankedTensorType::get(c.shape, elem);
  if (c.dataType == kFloat)
    return arith::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(type, ArrayRef<float>(c.floats)));
  SmallVector<APInt> ints;
  unsigned width = elem.getIntOrFloatBitWidth();
  for (int64_t v : c.ints)
    ints.push_back(APInt(width, v, /*isSigned=*/true, /*implicitTrunc=*/true));
  return arith::ConstantOp::create(builder, loc,
                                   DenseElementsAttr::get(type, ints));
}

FailureOr<Value> Importer::getValue(StringRef name) {
  if (auto it = values.find(name); it != values.end())
    return it->second;
  if (auto it = constants.find(name); it != constants.end()) {
    Value v = materialize(it->second);
    values[name] = v;
    return v;
  }
  if (auto it = lazy.find(name); it != lazy.end()) {
    // A float consumer the QDQ patterns do not cover: dequantize for real.
    Lazy l = it->second;
    FailureOr<Value> in = getValue(l.input);
    if (failed(in))
      return failure();
    auto type = RankedTensorType::get(typeOf(*in).getShape(),
                                      builder.getF32Type());
    Value v = DequantizeOp::create(
                  builder, loc, type, *in,
                  builder.getDenseF32ArrayAttr(l.q.scales),
                  builder.getDenseI32ArrayAttr(l.q.zeroPoints),
                  l.q.perTensor() ? IntegerAttr()
                                  : builder.getI64IntegerAttr(l.q.axis))
                  .getResult();
    values[name] = v;
    return v;
  }
  error() << "input '" << name << "' is not defined before it is used";
  return failure();
}

LogicalResult Importer::setOutput(int i, Value v) {
  if (i >= node->output_size() || node->output(i).empty()) {
    error() << "has no output " << i;
    return failure();
  }
  const std::string &name = node->output(i);
  if (values.count(name) || constants.count(name) || lazy.count(name)) {
    error() << "output '" << name << "' is defined twice";
    return failure();
  }
  int64_t bytes = typeOf(v).getNumElements() *
                  std::max<int64_t>(1, typeOf(v).getElementTypeBitWidth() / 8);
  if (bytes > options.maxTensorBytes) {
    error() << "output '" << name << "' would need " << bytes
            << " bytes, more than the limit of " << options.maxTensorBytes;
    return failure();
  }
  values[name] = v;
  return success();
}

LogicalResult Importer::checkArity(int minInputs, int maxInputs,
                                   int outputs) {
  int n = node->input_size();
  // Trailing empty names are omitted optional inputs.
  while (n > 0 && node->input(n - 1).empty())
    --n;
  if (n < minInputs || n > maxInputs) {
    error() << "has " << n << " inputs; expected "
            << (minInputs == maxInputs
                    ? std::to_string(minInputs)
                    : std::to_string(minInputs) + " to " +
                          std::to_string(maxInputs));
    return failure();
  }
  if (node->output_size() != outputs) {
    error() << "has " << node->output_size() << " outputs; expected "
            << outputs;
    return failure();
  }
  for (int i = 0; i < minInputs; ++i)
    if (node->input(i).empty()) {
      error() << "input " << i << " is required";
      return failure();
    }
  return success();
}

//===----------------------------------------------------------------------===//
// Quantize / dequantize
//===----------------------------------------------------------------------===//

LogicalResult Importer::importQuantize() {
  if (failed(checkArity(2, 3, 1)))
    return failure();
  FailureOr<int64_t> axis = intAttr("axis", 1);
  if (failed(axis))
    return failure();
  FailureOr<QParams> q = readQParams(input(1), input(2), kUInt8, *axis,
                                     "QuantizeLinear");
  if (failed(q))
    return failure();
  if (q->storage == kInt32) {
    error() << "QuantizeLinear to int32 is not supported";
    return failure();
  }
  // QuantizeLinear of a lazy DequantizeLinear: the integers themselves when
  // the parameters agree.
  if (auto it = lazy.find(input(0)); it != lazy.end()) {
    Lazy l = it->second;
    if (l.q == *q) {
      FailureOr<Value> v = getValue(l.input);
      if (failed(v))
        return failure();
      return setOutput(0, *v);
    }
  }
  FailureOr<Value> x = getValue(input(0));
  if (failed(x))
    return failure();
  RankedTensorType xType = typeOf(*x);
  if (!xType.getElementType().isF32()) {
    error() << "QuantizeLinear input '" << input(0) << "' must be float";
    return failure();
  }
  if (!q->perTensor()) {
    int64_t rank = xType.getRank();
    int64_t a = q->axis < 0 ? q->axis + rank : q->axis;
    if (a < 0 || a >= rank ||
        xType.getDimSize(a) != static_cast<int64_t>(q->scales.size())) {
      error() << "QuantizeLinear axis " << q->axis << " does not index "
              << q->scales.size() << " channels of " << xType;
      return failure();
    }
    q->axis = a;
  }
  auto type = RankedTensorType::get(xType.getShape(), elementType(q->storage));
  Value v = QuantizeOp::create(
                builder, loc, type, *x, builder.getDenseF32ArrayAttr(q->scales),
                builder.getDenseI32ArrayAttr(q->zeroPoints),
                q->perTensor() ? IntegerAttr()
                               : builder.getI64IntegerAttr(q->axis),
                RoundingAttr::get(context, Rounding::onnx))
                .getResult();
  return setOutput(0, v);
}

LogicalResult Importer::importDequantize() {
  if (failed(checkArity(2, 3, 1)))
    return failure();
  FailureOr<int64_t> axis = intAttr("axis", 1);
  if (failed(axis))
    return failure();
  // The storage type is the input's; check it against the zero point.
  int32_t storage;
  SmallVector<int64_t> shape;
  if (auto it = constants.find(input(0)); it != constants.end()) {
    storage = it->second.dataType;
    shape = it->second.shape;
  } else {
    FailureOr<Value> x = getValue(input(0));
    if (failed(x))
      return failure();
    Type elem = typeOf(*x).getElementType();
    storage = elem.isUnsignedInteger(8) ? kUInt8
              : elem.isInteger(8)       ? kInt8
              : elem.isInteger(32)      ? kInt32
                                        : 0;
    shape = SmallVector<int64_t>(typeOf(*x).getShape());
  }
  if (storage != kUInt8 && storage != kInt8 && storage != kInt32) {
    error() << "DequantizeLinear input '" << input(0)
            << "' must be uint8, int8 or int32";
    return failure();
  }
  FailureOr<QParams> q =
      readQParams(input(1), input(2), storage, *axis, "DequantizeLinear");
  if (failed(q))
    return failure();
  if (q->storage != storage) {
    error() << "DequantizeLinear zero point '" << input(2)
            << "' has another type than its input '" << input(0) << "'";
    return failure();
  }
  if (!q->perTensor()) {
    int64_t rank = static_cast<int64_t>(shape.size());
    int64_t a = q->axis < 0 ? q->axis + rank : q->axis;
    if (a < 0 || a >= rank ||
        shape[a] != static_cast<int64_t>(q->scales.size())) {
      error() << "DequantizeLinear axis " << q->axis << " does not index "
              << q->scales.size() << " channels of its input";
      return failure();
    }
    q->axis = a;
  }
  if (node->output(0).empty() || values.count(node->output(0)) ||
      lazy.count(node->output(0)) || constants.count(node->output(0))) {
    error() << "output '" << node->output(0) << "' is defined twice";
    return failure();
  }
  lazy[node->output(0)] = Lazy{input(0), *q};
  return success();
}

//===----------------------------------------------------------------------===//
// Convolutions and matrix products
//===----------------------------------------------------------------------===//

FailureOr<Importer::ConvGeometry>
Importer::convGeometry(RankedTensorType x, ArrayRef<int64_t> wShape) {
  ConvGeometry g;
  if (x.getRank() != 4 || wShape.size() != 4) {
    error() << "only 2-D convolutions (4-D NCHW input and OIHW weight) are "
               "supported";
    return failure();
  }
  FailureOr<SmallVector<int64_t>> strides = intsAttr("strides", {1, 1});
  FailureOr<SmallVector<int64_t>> dilations = intsAttr("dilations", {1, 1});
  FailureOr<SmallVector<int64_t>> pads = intsAttr("pads", {0, 0, 0, 0});
  FailureOr<SmallVector<int64_t>> kernel =
      intsAttr("kernel_shape", {wShape[2], wShape[3]});
  FailureOr<int64_t> groups = intAttr("group", 1);
  FailureOr<std::string> autoPad = stringAttr("auto_pad", "NOTSET");
  if (failed(strides) || failed(dilations) || failed(pads) ||
      failed(kernel) || failed(groups) || failed(autoPad))
    return failure();
  if (strides->size() != 2 || dilations->size() != 2 || pads->size() != 4 ||
      kernel->size() != 2) {
    error() << "strides/dilations/kernel_shape need 2 entries and pads 4";
    return failure();
  }
  for (int64_t v : llvm::concat<int64_t>(*strides, *dilations))
    if (v < 1 || v > 4096) {
      error() << "strides and dilations must be in [1, 4096], got " << v;
      return failure();
    }
  for (int64_t v : *pads)
    if (v < 0 || v > 4096) {
      error() << "pads must be in [0, 4096], got " << v;
      return failure();
    }
  if ((*kernel)[0] != wShape[2] || (*kernel)[1] != wShape[3]) {
    error() << "kernel_shape [" << (*kernel)[0] << ", " << (*kernel)[1]
            << "] does not match the weight";
    return failure();
  }
  int64_t C = x.getDimSize(1), O = wShape[0];
  if (*groups < 1 || C % *groups || O % *groups ||
      wShape[1] * *groups != C) {
    error() << "group " << *groups << " does not fit " << C
            << " input channels, " << O << " output channels and weight "
            << "input channels " << wShape[1];
    return failure();
  }
  int64_t H = x.getDimSize(2), W = x.getDimSize(3);
  int64_t effH = (*dilations)[0] * (wShape[2] - 1) + 1;
  int64_t effW = (*dilations)[1] * (wShape[3] - 1) + 1;
  FailureOr<SmallVector<int64_t>> resolved =
      resolveAutoPad(*autoPad, *pads, H, W, effH, effW, *strides);
  if (failed(resolved))
    return failure();
  *pads = *resolved;
  int64_t OH = (H + (*pads)[0] + (*pads)[2] - effH);
  int64_t OW = (W + (*pads)[1] + (*pads)[3] - effW);
  if (OH < 0 || OW < 0) {
    error() << "the kernel does not fit the padded input";
    return failure();
  }
  OH = OH / (*strides)[0] + 1;
  OW = OW / (*strides)[1] + 1;
  // ONNX pads are [x1_begin, x2_begin, x1_end, x2_end]: qnn's [top, left,
  // bottom, right].
  g.strides = *strides;
  g.dilations = *dilations;
  g.pads = *pads;
  g.groups = *groups;
  g.accType = RankedTensorType::get({x.getDimSize(0), O, OH, OW},
                                    builder.getI32Type());
  return g;
}

LogicalResult Importer::checkWeightQParams(const QParams &wq, int64_t channels,
                                           StringRef what) {
  if (!wq.perTensor() &&
      (static_cast<int64_t>(wq.scales.size()) != channels || wq.axis != 0)) {
    error() << what << " has " << wq.scales.size()
            << " scales; per-channel weights need one per output channel "
            << "(" << channels << ") on axis 0";
    return failure();
  }
  for (int32_t zp : wq.zeroPoints)
    if (zp != wq.zeroPoints[0]) {
      error() << what << " has different zero points per channel; "
              << "qnn.conv2d and qnn.dense take one";
      return failure();
    }
  return success();
}

FailureOr<Value> Importer::requantize(Value acc, float inScale,
                                      ArrayRef<float> weightScales,
                                      const QParams &yq) {
  if (!yq.perTensor()) {
    error() << "the output must be quantized per tensor";
    return failure();
  }
  SmallVector<double> scales;
  for (float ws : weightScales)
    scales.push_back(static_cast<double>(inScale) * static_cast<double>(ws));
  for (double s : scales)
    if (!math::isRepresentableMultiplier(s / yq.scales[0])) {
      error() << "rescale " << s << " / " << yq.scales[0]
              << " is too large";
      return failure();
    }
  auto type = RankedTensorType::get(typeOf(acc).getShape(),
                                    elementType(yq.storage));
  return RequantizeOp::create(
             builder, loc, type, acc, builder.getDenseF64ArrayAttr(scales),
             builder.getI32IntegerAttr(0), builder.getF32FloatAttr(yq.scales[0]),
             builder.getI32IntegerAttr(yq.zeroPoints[0]),
             scales.size() > 1 ? builder.getI64IntegerAttr(1) : IntegerAttr(),
             RoundingAttr::get(context, Rounding::onnx))
      .getResult();
}

FailureOr<Value> Importer::emitConv(Value x, const QParams &xq,
                                    const Const &w, const QParams &wq,
                                    const Const *bias,
                                    std::optional<QParams> yq) {
  RankedTensorType xType = typeOf(x);
  FailureOr<ConvGeometry> g = convGeometry(xType, w.shape);
  if (failed(g))
    return failure();
  int64_t O = w.shape[0];
  if (!xq.perTensor()) {
    error() << "the input must be quantized per tensor";
    return failure();
  }
  if (failed(checkWeightQParams(wq, O, "the weight")))
    return failure();
  if (xType.getElementType() != elementType(xq.storage) ||
      (w.dataType != kUInt8 && w.dataType != kInt8) ||
      w.dataType != wq.storage) {
    error() << "input and weight must be uint8 or int8 tensors matching "
               "their zero points";
    return failure();
  }
  Value wValue = materialize(w);
  Value acc = Conv2DOp::create(
                  builder, loc, g->accType, x, wValue,
                  builder.getF32FloatAttr(xq.scales[0]),
                  builder.getI32IntegerAttr(xq.zeroPoints[0]),
                  builder.getDenseF32ArrayAttr(wq.scales),
                  builder.getI32IntegerAttr(wq.zeroPoints[0]),
                  builder.getDenseI64ArrayAttr(g->strides),
                  builder.getDenseI64ArrayAttr(g->pads),
                  builder.getDenseI64ArrayAttr(g->dilations),
                  builder.getI64IntegerAttr(g->groups),
                  ActivationLayoutAttr::get(context, ActivationLayout::NCHW),
                  KernelLayoutAttr::get(context, KernelLayout::OIHW))
                  .getResult();
  if (bias) {
    if (bias->dataType != kInt32 || bias->shape.size() != 1 ||
        bias->shape[0] != O) {
      error() << "the bias must be an int32 vector of " << O << " elements";
      return failure();
    }
    Const b = *bias;
    b.shape = {1, O, 1, 1};
    acc = tosa::AddOp::create(builder, loc, g->accType, acc, materialize(b))
              .getResult();
  }
  if (!yq)
    return acc;
  return requantize(acc, xq.scales[0], wq.scales, *yq);
}

FailureOr<Value> Importer::emitDense(Value a, const QParams &aq,
                                     const Const &b, const QParams &bq,
                                     const Const *bias,
                                     std::optional<QParams> yq,
                                     bool transposed) {
  RankedTensorType aType = typeOf(a);
  if (aType.getRank() != 2 || b.shape.size() != 2) {
    error() << "only 2-D matrix products with a constant right-hand side "
               "are supported";
    return failure();
  }
  int64_t K = transposed ? b.shape[1] : b.shape[0];
  int64_t O = transposed ? b.shape[0] : b.shape[1];
  if (aType.getDimSize(1) != K) {
    error() << "inner dimensions differ: " << aType.getDimSize(1) << " and "
            << K;
    return failure();
  }
  if (!aq.perTensor()) {
    error() << "the left-hand side must be quantized per tensor";
    return failure();
  }
  // Per-column scales of the right-hand side are per output channel.
  QParams wq = bq;
  if (!wq.perTensor())
    wq.axis = 0;
  if ((!bq.perTensor() && bq.axis != (transposed ? 0 : 1)) ||
      failed(checkWeightQParams(wq, O, "the right-hand side")))
    return failure();
  if (aType.getElementType() != elementType(aq.storage) ||
      (b.dataType != kUInt8 && b.dataType != kInt8) ||
      b.dataType != bq.storage) {
    error() << "operands must be uint8 or int8 tensors matching their zero "
               "points";
    return failure();
  }
  // qnn.dense takes the weight as [O, K].
  Const w = b;
  if (!transposed) {
    w.shape = {O, K};
    for (int64_t o = 0; o < O; ++o)
      for (int64_t k = 0; k < K; ++k)
        w.ints[o * K + k] = b.ints[k * O + o];
  }
  auto accType =
      RankedTensorType::get({aType.getDimSize(0), O}, builder.getI32Type());
  Value acc = DenseOp::create(builder, loc, accType, a, materialize(w),
                              builder.getF32FloatAttr(aq.scales[0]),
                              builder.getI32IntegerAttr(aq.zeroPoints[0]),
                              builder.getDenseF32ArrayAttr(wq.scales),
                              builder.getI32IntegerAttr(wq.zeroPoints[0]))
                  .getResult();
  if (bias) {
    int64_t n = bias->numElements();
    if (bias->dataType != kInt32 || (n != O && n != 1)) {
      error() << "the bias must be int32 with " << O << " elements";
      return failure();
    }
    Const c = *bias;
    c.shape = {1, n};
    acc = tosa::AddOp::create(builder, loc, accType, acc, materialize(c))
              .getResult();
  }
  if (!yq)
    return acc;
  return requantize(acc, aq.scales[0], wq.scales, *yq);
}

LogicalResult Importer::importQLinearConv() {
  if (failed(checkArity(8, 9, 1)))
    return failure();
  FailureOr<Value> x = getValue(input(0));
  FailureOr<const Const *> w = getConst(input(3), "QLinearConv weight");
  if (failed(x) || failed(w))
    return failure();
  Type xElem = typeOf(*x).getElementType();
  int32_t xStorage = xElem.isUnsignedInteger(8) ? kUInt8 : kInt8;
  FailureOr<QParams> xq = readQParams(input(1), input(2), xStorage, 1, "x");
  FailureOr<QParams> wq =
      readQParams(input(4), input(5), (*w)->dataType, 0, "w");
  FailureOr<QParams> yq = readQParams(input(6), input(7), kUInt8, 1, "y");
  if (failed(xq) || failed(wq) || failed(yq))
    return failure();
  const Const *bias = nullptr;
  if (hasInput(8)) {
    FailureOr<const Const *> b = getConst(input(8), "QLinearConv bias");
    if (failed(b))
      return failure();
    bias = *b;
  }
  FailureOr<Value> y = emitConv(*x, *xq, **w, *wq, bias, *yq);
  if (failed(y))
    return failure();
  return setOutput(0, *y);
}

LogicalResult Importer::importQLinearMatMul() {
  if (failed(checkArity(8, 8, 1)))
    return failure();
  FailureOr<Value> a = getValue(input(0));
  FailureOr<const Const *> b = getConst(input(3), "QLinearMatMul b");
  if (failed(a) || failed(b))
    return failure();
  Type aElem = typeOf(*a).getElementType();
  int32_t aStorage = aElem.isUnsignedInteger(8) ? kUInt8 : kInt8;
  FailureOr<QParams> aq = readQParams(input(1), input(2), aStorage, 1, "a");
  FailureOr<QParams> bq =
      readQParams(input(4), input(5), (*b)->dataType, 1, "b");
  FailureOr<QParams> yq = readQParams(input(6), input(7), kUInt8, 1, "y");
  if (failed(aq) || failed(bq) || failed(yq))
    return failure();
  FailureOr<Value> y =
      emitDense(*a, *aq, **b, *bq, nullptr, *yq, /*transposed=*/false);
  if (failed(y))
    return failure();
  return setOutput(0, *y);
}

/// ConvInteger / MatMulInteger: the i32 accumulators (scales 1).
LogicalResult Importer::importIntegerOp(bool conv) {
  if (failed(checkArity(2, 4, 1)))
    return failure();
  FailureOr<Value> x = getValue(input(0));
  FailureOr<const Const *> w = getConst(input(1), "weight");
  if (failed(x) || failed(w))
    return failure();
  auto zeroPoint = [&](int i, int32_t storage,
                       StringRef what) -> FailureOr<QParams> {
    QParams q;
    q.storage = storage;
    q.scales = {1.0f};
    q.zeroPoints = {0};
    if (!hasInput(i))
      return q;
    FailureOr<const Const *> zp = getConst(input(i), what);
    if (failed(zp))
      return failure();
    if ((*zp)->dataType != storage || (*zp)->numElements() < 1) {
      error() << what << " '" << input(i)
              << "' must match the type of its operand";
      return failure();
    }
    q.zeroPoints.clear();
    for (int64_t v : (*zp)->ints)
      q.zeroPoints.push_back(static_cast<int32_t>(v));
    if (q.zeroPoints.size() > 1)
      q.scales.assign(q.zeroPoints.size(), 1.0f);
    q.axis = conv ? 0 : 1;
    return q;
  };
  Type xElem = typeOf(*x).getElementType();
  FailureOr<QParams> xq = zeroPoint(
      2, xElem.isUnsignedInteger(8) ? kUInt8 : kInt8, "input zero point");
  FailureOr<QParams> wq = zeroPoint(3, (*w)->dataType, "weight zero point");
  if (failed(xq) || failed(wq))
    return failure();
  if (!xq->perTensor()) {
    error() << "the input zero point must be a scalar";
    return failure();
  }
  FailureOr<Value> y =
      conv ? emitConv(*x, *xq, **w, *wq, nullptr, std::nullopt)
           : emitDense(*x, *xq, **w, *wq, nullptr, std::nullopt, false);
  if (failed(y))
    return failure();
  return setOutput(0, *y);
}

FailureOr<Value> Importer::clampActivation(Value v, const QParams &yq,
                                           const onnx::NodeProto &activation) {
  auto type = typeOf(v);
  int64_t qmin, qmax;
  std::tie(qmin, qmax) = getStorageRange(type.getElementType());
  float scale = yq.scales[0];
  int64_t zp = yq.zeroPoints[0];
  // The float bound quantized as QuantizeLinear does (halves to even).
  auto quantize = [&](float f) -> int64_t {
    return math::quantizeFloat(f, scale, static_cast<int32_t>(zp), qmin, qmax,
                               /*halfToEven=*/true);
  };
  int64_t lo = std::max<int64_t>(qmin, quantize(0.0f)), hi = qmax;
  if (activation.op_type() == "Clip") {
    // Clip's bounds: inputs 1 and 2 (opset >= 11) or attributes min/max.
    float bounds[2] = {-std::numeric_limits<float>::infinity(),
                       std::numeric_limits<float>::infinity()};
    for (int i = 0; i < 2; ++i) {
      if (i + 1 < activation.input_size() &&
          !activation.input(i + 1).empty()) {
        auto it = constants.find(activation.input(i + 1));
        if (it == constants.end() || it->second.dataType != kFloat ||
            it->second.numElements() != 1) {
          error() << "Clip bounds must be float scalar constants";
          return failure();
        }
        bounds[i] = it->second.floats[0];
      }
      for (const auto &a : activation.attribute())
        if (a.name() == (i ? "max" : "min") &&
            a.type() == onnx::AttributeProto::FLOAT)
          bounds[i] = a.f();
    }
    lo = std::isinf(bounds[0]) ? qmin : std::max<int64_t>(qmin, quantize(bounds[0]));
    hi = std::isinf(bounds[1]) ? qmax : std::min<int64_t>(qmax, quantize(bounds[1]));
  }
  if (lo > hi) {
    error() << "activation range [" << lo << ", " << hi << "] is empty";
    return failure();
  }
  if (lo == qmin && hi == qmax)
    return v;
  auto elem = cast<IntegerType>(type.getElementType());
  return tosa::ClampOp::create(builder, loc, type, v,
                               builder.getIntegerAttr(elem, lo),
                               builder.getIntegerAttr(elem, hi))
      .getResult();
}

/// Float Conv / MatMul / Gemm in QDQ form.
LogicalResult Importer::importQDQ(bool conv, bool gemm) {
  int maxInputs = conv || gemm ? 3 : 2;
  if (failed(checkArity(2, maxInputs, 1)))
    return failure();
  auto lazyOf = [&](int i) -> const Lazy * {
    auto it = lazy.find(input(i));
    return it == lazy.end() ? nullptr : &it->second;
  };
  const Lazy *x = lazyOf(0), *w = lazyOf(1);
  const Lazy *b = hasInput(2) ? lazyOf(2) : nullptr;
  if (!x || !w || (hasInput(2) && !b)) {
    error() << "float " << node->op_type() << " is supported in QDQ form "
            << "only: its inputs must come from DequantizeLinear";
    return failure();
  }
  const onnx::NodeProto *activation = nullptr;
  int actIndex = -1;
  int next = findQuantizeConsumer(node->output(0), activation, actIndex);
  if (next < 0) {
    error() << "float " << node->op_type() << " is supported in QDQ form "
            << "only: its output must feed one QuantizeLinear (through at "
            << "most one Relu or Clip)";
    return failure();
  }
  FailureOr<QParams> yq = quantizeParams(graph->node(next));
  if (failed(yq))
    return failure();
  FailureOr<Value> xv = getValue(x->input);
  FailureOr<const Const *> wc = getConst(w->input, "weight");
  if (failed(xv) || failed(wc))
    return failure();
  const Const *bias = nullptr;
  if (b) {
    FailureOr<const Const *> bc = getConst(b->input, "bias");
    if (failed(bc))
      return failure();
    bias = *bc;
  }
  FailureOr<Value> y;
  if (conv) {
    y = emitConv(*xv, x->q, **wc, w->q, bias, *yq);
  } else {
    bool transposed = false;
    if (gemm) {
      FailureOr<int64_t> transA = intAttr("transA", 0);
      FailureOr<int64_t> transB = intAttr("transB", 0);
      const onnx::AttributeProto *alpha = attr("alpha"), *beta = attr("beta");
      if (failed(transA) || failed(transB))
        return failure();
      if (*transA || (alpha && alpha->f() != 1.0f) ||
          (beta && beta->f() != 1.0f)) {
        error() << "Gemm with transA or alpha/beta other than 1 is not "
                   "supported";
        return failure();
      }
      transposed = *transB != 0;
    }
    y = emitDense(*xv, x->q, **wc, w->q, bias, *yq, transposed);
  }
  if (failed(y))
    return failure();
  if (activation) {
    y = clampActivation(*y, *yq, *activation);
    if (failed(y))
      return failure();
    done.insert(actIndex);
  }
  done.insert(next);
  return bindNodeOutput(next, *y);
}

int Importer::findQuantizeConsumer(StringRef out,
                                   const onnx::NodeProto *&activation,
                                   int &actIndex) {
  auto single = [&](StringRef name) -> int {
    auto u = uses.find(name);
    auto c = consumer.find(name);
    return u != uses.end() && u->second == 1 && c != consumer.end()
               ? c->second
               : -1;
  };
  activation = nullptr;
  actIndex = -1;
  int next = single(out);
  if (next >= 0 && (graph->node(next).op_type() == "Relu" ||
                    graph->node(next).op_type() == "Clip") &&
      graph->node(next).input_size() >= 1 &&
      graph->node(next).input(0) == out) {
    activation = &graph->node(next);
    actIndex = next;
    next = activation->output_size() == 1 ? single(activation->output(0))
                                          : -1;
  }
  if (next < 0 || graph->node(next).op_type() != "QuantizeLinear" ||
      graph->node(next).input_size() < 2 ||
      graph->node(next).output_size() != 1 ||
      graph->node(next).input(0) !=
          (activation ? activation->output(0) : out.str()))
    return -1;
  return next;
}

FailureOr<QParams> Importer::quantizeParams(const onnx::NodeProto &quant) {
  int64_t axis = 1;
  for (const auto &a : quant.attribute())
    if (a.name() == "axis" && a.type() == onnx::AttributeProto::INT)
      axis = a.i();
  return readQParams(quant.input(1),
                     quant.input_size() > 2 ? quant.input(2) : "", kUInt8,
                     axis, "QuantizeLinear");
}

LogicalResult Importer::bindNodeOutput(int index, Value v) {
  const onnx::NodeProto *saved = node;
  int savedIndex = nodeIndex;
  node = &graph->node(index);
  nodeIndex = index;
  LogicalResult r = setOutput(0, v);
  node = saved;
  nodeIndex = savedIndex;
  return r;
}

/// qnn.add or qnn.mul in ONNX's float32 sequence, with NumPy broadcasting
/// (the lower rank operand gets leading 1s).
FailureOr<Value> Importer::emitBinary(bool mul, Value a, const QParams &aq,
                                      Value b,
                                   const QParams &bq, const QParams &cq) {
  StringRef name = mul ? "Mul" : "Add";
  if (!aq.perTensor() || !bq.perTensor() || !cq.perTensor()) {
    error() << name << " operands and result must be quantized per tensor";
    return failure();
  }
  Type elem = typeOf(a).getElementType();
  if (typeOf(b).getElementType() != elem || elementType(cq.storage) != elem ||
      !elem.isInteger(8)) {
    error() << name << " operands and result must share one 8-bit type";
    return failure();
  }
  auto expand = [&](Value v, int64_t rank) -> Value {
    auto t = typeOf(v);
    SmallVector<int64_t> shape(rank - t.getRank(), 1);
    llvm::append_range(shape, t.getShape());
    return reshapeTo(v, shape);
  };
  int64_t rank = std::max(typeOf(a).getRank(), typeOf(b).getRank());
  a = expand(a, rank);
  b = expand(b, rank);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t x = typeOf(a).getDimSize(i), y = typeOf(b).getDimSize(i);
    if (x != y && x != 1 && y != 1) {
      error() << name << " operands " << typeOf(a) << " and " << typeOf(b)
              << " do not broadcast";
      return failure();
    }
    shape.push_back(std::max(x, y));
  }
  auto type = RankedTensorType::get(shape, elem);
  auto build = [&](auto tag) {
    using OpTy = decltype(tag);
    return OpTy::create(builder, loc, type, a, b,
                        builder.getF32FloatAttr(aq.scales[0]),
                        builder.getI32IntegerAttr(aq.zeroPoints[0]),
                        builder.getF32FloatAttr(bq.scales[0]),
                        builder.getI32IntegerAttr(bq.zeroPoints[0]),
                        builder.getF32FloatAttr(cq.scales[0]),
                        builder.getI32IntegerAttr(cq.zeroPoints[0]),
                        RoundingAttr::get(context, Rounding::onnx))
        .getResult();
  };
  return mul ? build(MulOp()) : build(AddOp());
}

FailureOr<Value> Importer::emitGlobalAvgPool(Value x, const QParams &xq,
                                             const QParams &yq,
                                             bool channelsLast) {
  auto type = typeOf(x);
  if (type.getRank() != 4 || !xq.perTensor() || !yq.perTensor() ||
      elementType(yq.storage) != type.getElementType() ||
      !type.getElementType().isInteger(8)) {
    error() << "global average pooling of " << type
            << " needs a 4-D 8-bit tensor, per-tensor parameters and the "
               "same storage type in and out";
    return failure();
  }
  auto layout = channelsLast ? ActivationLayout::NHWC : ActivationLayout::NCHW;
  ActivationDims d = getActivationDims(layout);
  SmallVector<int64_t> shape(type.getShape());
  shape[d.h] = shape[d.w] = 1;
  return GlobalAvgPoolOp::create(
             builder, loc, RankedTensorType::get(shape, type.getElementType()),
             x, builder.getF32FloatAttr(xq.scales[0]),
             builder.getI32IntegerAttr(xq.zeroPoints[0]),
             builder.getF32FloatAttr(yq.scales[0]),
             builder.getI32IntegerAttr(yq.zeroPoints[0]),
             ActivationLayoutAttr::get(context, layout),
             RoundingAttr::get(context, Rounding::onnx))
      .getResult();
}

/// AveragePool / QLinearAveragePool as ONNX Runtime computes it: a window
/// covering the whole (unpadded) image takes its integer global-pool path
/// (qnn.global_avg_pool), any other the float32 window sum
/// (qnn.rescale_avg_pool2d).
FailureOr<Value> Importer::emitAveragePool(Value x, const QParams &xq,
                                           const QParams &yq,
                                           bool channelsLast) {
  FailureOr<int64_t> includePad = intAttr("count_include_pad", 0);
  FailureOr<PoolWindow> window = readPoolWindow("average pooling");
  if (failed(includePad) || failed(window))
    return failure();
  SmallVector<int64_t> *kernel = &window->kernel, *strides = &window->strides,
                       *pads = &window->pads;
  auto type = typeOf(x);
  if (type.getRank() != 4 || !xq.perTensor() || !yq.perTensor() ||
      elementType(yq.storage) != type.getElementType() ||
      !type.getElementType().isInteger(8)) {
    error() << "average pooling of " << type
            << " needs a 4-D 8-bit tensor, per-tensor parameters and the "
               "same storage type in and out";
    return failure();
  }
  auto layout = channelsLast ? ActivationLayout::NHWC : ActivationLayout::NCHW;
  ActivationDims d = getActivationDims(layout);
  int64_t h = type.getDimSize(d.h), w = type.getDimSize(d.w);
  int64_t ceilExtra = 0;
  FailureOr<SmallVector<int64_t>> resolved =
      resolvePoolPads(*window, h, w, &ceilExtra);
  if (failed(resolved))
    return failure();
  *pads = *resolved;
  // ONNX Runtime counts the given padding but not ceil_mode's extra rows in
  // a count_include_pad divisor; qnn.rescale_avg_pool2d counts the kernel.
  if (ceilExtra > 0 && *includePad) {
    error() << "average pooling with count_include_pad and a ceil_mode that "
               "extends the input is not supported";
    return failure();
  }
  // ONNX's pads are [top, left, bottom, right], as qnn's padding.
  if ((*kernel)[0] == h && (*kernel)[1] == w &&
      llvm::all_of(*pads, [](int64_t p) { return p == 0; }))
    return emitGlobalAvgPool(x, xq, yq, channelsLast);
  if ((*pads)[0] >= (*kernel)[0] || (*pads)[2] >= (*kernel)[0] ||
      (*pads)[1] >= (*kernel)[1] || (*pads)[3] >= (*kernel)[1]) {
    error() << "pads must be smaller than the kernel";
    return failure();
  }
  int64_t oh = h + (*pads)[0] + (*pads)[2] - (*kernel)[0];
  int64_t ow = w + (*pads)[1] + (*pads)[3] - (*kernel)[1];
  if (oh < 0 || ow < 0) {
    error() << "the window does not fit the padded input";
    return failure();
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[d.h] = oh / (*strides)[0] + 1;
  shape[d.w] = ow / (*strides)[1] + 1;
  return RescaleAvgPool2DOp::create(
             builder, loc, RankedTensorType::get(shape, type.getElementType()),
             x, builder.getDenseI64ArrayAttr(*kernel),
             builder.getDenseI64ArrayAttr(*strides),
             builder.getDenseI64ArrayAttr(*pads),
             ActivationLayoutAttr::get(context, layout),
             builder.getF32FloatAttr(xq.scales[0]),
             builder.getI32IntegerAttr(xq.zeroPoints[0]),
             builder.getF32FloatAttr(yq.scales[0]),
             builder.getI32IntegerAttr(yq.zeroPoints[0]),
             builder.getBoolAttr(*includePad != 0),
             RoundingAttr::get(context, Rounding::onnx))
      .getResult();
}

/// com.microsoft.QLinearAdd and QLinearMul: A, A_scale, A_zp, B, B_scale,
/// B_zp, C_scale, C_zp (zero points optional).
LogicalResult Importer::importQLinearBinary(bool mul) {
  if (failed(checkArity(7, 8, 1)))
    return failure();
  FailureOr<Value> a = getValue(input(0));
  FailureOr<Value> b = getValue(input(3));
  if (failed(a) || failed(b))
    return failure();
  int32_t storage =
      typeOf(*a).getElementType().isUnsignedInteger(8) ? kUInt8 : kInt8;
  FailureOr<QParams> aq = readQParams(input(1), input(2), storage, 1, "A");
  FailureOr<QParams> bq = readQParams(input(4), input(5), storage, 1, "B");
  FailureOr<QParams> cq = readQParams(input(6), input(7), storage, 1, "C");
  if (failed(aq) || failed(bq) || failed(cq))
    return failure();
  FailureOr<Value> c = emitBinary(mul, *a, *aq, *b, *bq, *cq);
  if (failed(c))
    return failure();
  return setOutput(0, *c);
}

/// DequantizeLinear x2 -> Add or Mul -> [Relu | Clip] -> QuantizeLinear.
LogicalResult Importer::importQDQBinary(bool mul) {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  auto la = lazy.find(input(0)), lb = lazy.find(input(1));
  const onnx::NodeProto *activation = nullptr;
  int actIndex = -1;
  int next = la != lazy.end() && lb != lazy.end()
                 ? findQuantizeConsumer(node->output(0), activation, actIndex)
                 : -1;
  if (next < 0) {
    error() << "float " << (mul ? "Mul" : "Add")
            << " is supported in QDQ form only: DequantizeLinear "
            << "inputs and one QuantizeLinear consumer (through at most one "
            << "Relu or Clip)";
    return failure();
  }
  Lazy a = la->second, b = lb->second;
  FailureOr<QParams> cq = quantizeParams(graph->node(next));
  FailureOr<Value> av = getValue(a.input);
  FailureOr<Value> bv = getValue(b.input);
  if (failed(cq) || failed(av) || failed(bv))
    return failure();
  FailureOr<Value> c = emitBinary(mul, *av, a.q, *bv, b.q, *cq);
  if (failed(c))
    return failure();
  if (activation) {
    c = clampActivation(*c, *cq, *activation);
    if (failed(c))
      return failure();
    done.insert(actIndex);
  }
  done.insert(next);
  return bindNodeOutput(next, *c);
}

/// Sigmoid, HardSwish, Elu (alpha 1) and LeakyRelu (with this node's
/// `alpha`) as qnn
/// table activations with ONNX Runtime's table (rounding = onnx).
FailureOr<Value> Importer::emitActivation(StringRef kind, Value x,
                                          const QParams &xq,
                                          const QParams &yq) {
  auto type = typeOf(x);
  if (!xq.perTensor() || !yq.perTensor() ||
      elementType(yq.storage) != type.getElementType() ||
      !type.getElementType().isInteger(8)) {
    error() << kind << " on " << type
            << " needs 8-bit data, per-tensor parameters and the same "
               "storage type in and out";
    return failure();
  }
  auto rounding = RoundingAttr::get(context, Rounding::onnx);
  auto f32 = [&](float v) { return builder.getF32FloatAttr(v); };
  auto i32 = [&](int32_t v) { return builder.getI32IntegerAttr(v); };
  if (kind == "Sigmoid")
    return SigmoidOp::create(builder, loc, type, x, f32(xq.scales[0]),
                             i32(xq.zeroPoints[0]), f32(yq.scales[0]),
                             i32(yq.zeroPoints[0]), rounding)
        .getResult();
  if (kind == "Elu") {
    FailureOr<float> alpha = floatAttr("alpha", 1.0f);
    if (failed(alpha))
      return failure();
    if (*alpha != 1.0f) {
      error() << "Elu with alpha " << *alpha << " (only alpha 1 is supported)";
      return failure();
    }
    return EluOp::create(builder, loc, type, x, f32(xq.scales[0]),
                         i32(xq.zeroPoints[0]), f32(yq.scales[0]),
                         i32(yq.zeroPoints[0]), rounding)
        .getResult();
  }
  if (kind == "HardSwish")
    return HardSwishOp::create(builder, loc, type, x, f32(xq.scales[0]),
                               i32(xq.zeroPoints[0]), f32(yq.scales[0]),
                               i32(yq.zeroPoints[0]), rounding)
        .getResult();
  FailureOr<float> alpha = floatAttr("alpha", 0.01f);
  if (failed(alpha))
    return failure();
  return LeakyReluOp::create(builder, loc, type, x, f32(xq.scales[0]),
                             i32(xq.zeroPoints[0]), f32(yq.scales[0]),
                             i32(yq.zeroPoints[0]), f32(*alpha), rounding)
      .getResult();
}

/// The two forms of a quantized unary operator: com.microsoft.QLinearX (X,
/// X_scale, X_zero_point, Y_scale, Y_zero_point; zero points optional) or
/// DequantizeLinear -> X -> QuantizeLinear. `emit` builds the qnn op from
/// the integer input and the two parameter sets.
LogicalResult Importer::importUnary(
    bool qlinear,
    llvm::function_ref<FailureOr<Value>(Value, const QParams &,
                                        const QParams &)>
        emit) {
  if (qlinear) {
    if (failed(checkArity(4, 5, 1)))
      return failure();
    FailureOr<Value> x = getValue(input(0));
    if (failed(x))
      return failure();
    int32_t storage =
        typeOf(*x).getElementType().isUnsignedInteger(8) ? kUInt8 : kInt8;
    FailureOr<QParams> xq = readQParams(input(1), input(2), storage, 1, "X");
    FailureOr<QParams> yq = readQParams(input(3), input(4), storage, 1, "Y");
    if (failed(xq) || failed(yq))
      return failure();
    FailureOr<Value> y = emit(*x, *xq, *yq);
    if (failed(y))
      return failure();
    return setOutput(0, *y);
  }
  if (failed(checkArity(1, 1, 1)))
    return failure();
  auto it = lazy.find(input(0));
  const onnx::NodeProto *activation = nullptr;
  int actIndex = -1;
  int next = it != lazy.end()
                 ? findQuantizeConsumer(node->output(0), activation, actIndex)
                 : -1;
  if (next < 0 || activation) {
    error() << "float " << node->op_type()
            << " is supported in QDQ form only: a DequantizeLinear input and "
               "one QuantizeLinear consumer";
    return failure();
  }
  Lazy l = it->second;
  FailureOr<QParams> yq = quantizeParams(graph->node(next));
  FailureOr<Value> x = getValue(l.input);
  if (failed(yq) || failed(x))
    return failure();
  FailureOr<Value> y = emit(*x, l.q, *yq);
  if (failed(y))
    return failure();
  done.insert(next);
  return bindNodeOutput(next, *y);
}

/// (QLinear)GlobalAveragePool -> qnn.global_avg_pool (ONNX Runtime's
/// arithmetic); (QLinear)AveragePool -> see emitAveragePool. `channels_last`
/// is the contrib ops' attribute.
LogicalResult Importer::importAveragePool(bool qlinear, bool global) {
  FailureOr<int64_t> channelsLast = intAttr("channels_last", 0);
  if (failed(channelsLast))
    return failure();
  return importUnary(qlinear, [&](Value x, const QParams &xq,
                                  const QParams &yq) {
    return global ? emitGlobalAvgPool(x, xq, yq, *channelsLast != 0)
                  : emitAveragePool(x, xq, yq, *channelsLast != 0);
  });
}

/// QLinearSigmoid / QLinearLeakyRelu and QDQ Sigmoid / HardSwish /
/// LeakyRelu / Elu: the table activations (see emitActivation).
LogicalResult Importer::importActivation(bool qlinear) {
  StringRef kind = node->op_type();
  if (qlinear)
    kind = kind.drop_front(strlen("QLinear"));
  return importUnary(qlinear, [&](Value x, const QParams &xq,
                                  const QParams &yq) {
    return emitActivation(kind, x, xq, yq);
  });
}

Value Importer::emitFloatSoftmax(Value x, int64_t axis, bool flatten) {
  auto type = typeOf(x);
  int64_t rank = type.getRank();
  if (flatten && axis != rank - 1) {
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d)
      (d < axis ? outer : inner) *= type.getDimSize(d);
    Value flat = reshapeTo(x, {outer, inner});
    Value y = emitFloatSoftmax(flat, 1, false);
    return reshapeTo(y, type.getShape());
  }
  Value init = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                       type.getElementType());
  return linalg::SoftmaxOp::create(builder, loc, TypeRange{type}, x, init,
                                   axis)
      .getResult()[0];
}

/// Softmax: ONNX's definition, exp(x - max) / sum in float32 along `axis`
/// (opset < 13: over the dimensions from `axis` on, flattened). Between a
/// DequantizeLinear and a QuantizeLinear (QDQ), and com.microsoft's
/// QLinearSoftmax (its `opset` attribute picks the axis rule): dequantize,
/// float softmax, quantize with ONNX's rounding (halves to even). On a
/// float value (a model's float output): the float softmax. ONNX Runtime's
/// own QLinearSoftmax kernel uses a table of exponentials and
/// floor(1 / y_scale): it can differ by one.
LogicalResult Importer::importSoftmax(bool qlinear) {
  FailureOr<int64_t> rule =
      qlinear ? intAttr("opset", 13) : FailureOr<int64_t>(opset);
  if (failed(rule))
    return failure();
  bool legacy = *rule < 13;
  FailureOr<int64_t> axisAttr = intAttr("axis", legacy ? 1 : -1);
  if (failed(axisAttr))
    return failure();
  auto resolveAxis = [&](Value x) -> FailureOr<int64_t> {
    int64_t rank = typeOf(x).getRank();
    int64_t a = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
    if (rank < 1 || a < 0 || a >= rank || !typeOf(x).hasStaticShape()) {
      error() << "Softmax axis " << *axisAttr << " does not index "
              << typeOf(x);
      return failure();
    }
    return a;
  };
  auto quantized = [&](Value x, const QParams &xq,
                       const QParams &yq) -> FailureOr<Value> {
    FailureOr<int64_t> a = resolveAxis(x);
    if (failed(a))
      return failure();
    if (!xq.perTensor() || !yq.perTensor()) {
      error() << "Softmax needs per-tensor quantization parameters";
      return failure();
    }
    auto type = typeOf(x);
    auto floatType =
        RankedTensorType::get(type.getShape(), builder.getF32Type());
    Value f = DequantizeOp::create(builder, loc, floatType, x,
                                   builder.getDenseF32ArrayAttr(xq.scales),
                                   builder.getDenseI32ArrayAttr(xq.zeroPoints),
                                   IntegerAttr())
                  .getResult();
    f = emitFloatSoftmax(f, *a, legacy);
    return QuantizeOp::create(
               builder, loc,
               RankedTensorType::get(type.getShape(), elementType(yq.storage)),
               f, builder.getDenseF32ArrayAttr(yq.scales),
               builder.getDenseI32ArrayAttr(yq.zeroPoints), IntegerAttr(),
               RoundingAttr::get(context, Rounding::onnx))
        .getResult();
  };
  if (qlinear)
    return importUnary(true, quantized);
  const onnx::NodeProto *activation = nullptr;
  int actIndex = -1;
  if (checkArity(1, 1, 1).failed())
    return failure();
  if (lazy.count(input(0)) &&
      findQuantizeConsumer(node->output(0), activation, actIndex) >= 0 &&
      !activation)
    return importUnary(false, quantized);
  // A float softmax (e.g. the probabilities a model returns).
  FailureOr<Value> x = getValue(input(0));
  if (failed(x))
    return failure();
  if (!typeOf(*x).getElementType().isF32()) {
    error() << "Softmax of " << typeOf(*x)
            << " (float32, or quantized between DequantizeLinear and "
               "QuantizeLinear)";
    return failure();
  }
  FailureOr<int64_t> a = resolveAxis(*x);
  if (failed(a))
    return failure();
  return setOutput(0, emitFloatSoftmax(*x, *a, legacy));
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult Importer::dataMovement(
    StringRef name, llvm::function_ref<FailureOr<Value>(Value)> fn) {
  if (auto it = lazy.find(name); it != lazy.end()) {
    Lazy l = it->second;
    if (l.q.perTensor()) {
      FailureOr<Value> in = getValue(l.input);
      if (failed(in))
        return failure();
      FailureOr<Value> out = fn(*in);
      if (failed(out))
        return failure();
      // Keep it lazy: a fresh name for the moved integers.
      std::string intName = node->output(0) + "#int";
      values[intName] = *out;
      if (lazy.count(node->output(0)) || values.count(node->output(0))) {
        error() << "output '" << node->output(0) << "' is defined twice";
        return failure();
      }
      lazy[node->output(0)] = Lazy{intName, l.q};
      return success();
    }
  }
  FailureOr<Value> in = getValue(name);
  if (failed(in))
    return failure();
  FailureOr<Value> out = fn(*in);
  if (failed(out))
    return failure();
  return setOutput(0, *out);
}

LogicalResult Importer::importMaxPool() {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<int64_t> order = intAttr("storage_order", 0);
  if (failed(order))
    return failure();
  if (*order) {
    error() << "only MaxPool with storage_order 0 and one output is "
               "supported";
    return failure();
  }
  FailureOr<PoolWindow> window = readPoolWindow("MaxPool");
  if (failed(window))
    return failure();
  SmallVector<int64_t> *kernel = &window->kernel, *strides = &window->strides,
                       *pads = &window->pads;
  return dataMovement(input(0), [&](Value in) -> FailureOr<Value> {
    auto type = typeOf(in);
    if (type.getRank() != 4 || !type.getElementType().isInteger(8)) {
      error() << "MaxPool on " << type
              << " (quantized 4-D NCHW tensors only)";
      return failure();
    }
    FailureOr<SmallVector<int64_t>> resolved =
        resolvePoolPads(*window, type.getDimSize(2), type.getDimSize(3));
    if (failed(resolved))
      return failure();
    *pads = *resolved;
    int64_t oh = type.getDimSize(2) + (*pads)[0] + (*pads)[2] - (*kernel)[0];
    int64_t ow = type.getDimSize(3) + (*pads)[1] + (*pads)[3] - (*kernel)[1];
    if (oh < 0 || ow < 0) {
      error() << "the window does not fit the padded input";
      return failure();
    }
    return MaxPool2DOp::create(builder, loc, in, *kernel, *strides, *pads,
                               ActivationLayout::NCHW)
        .getResult();
  });
}

LogicalResult Importer::importReshape(bool flatten) {
  if (failed(checkArity(flatten ? 1 : 2, flatten ? 1 : 2, 1)))
    return failure();
  SmallVector<int64_t> requested;
  int64_t flattenAxis = 1;
  if (flatten) {
    FailureOr<int64_t> axis = intAttr("axis", 1);
    if (failed(axis))
      return failure();
    flattenAxis = *axis;
  } else {
    FailureOr<const Const *> shape = getConst(input(1), "Reshape shape");
    if (failed(shape))
      return failure();
    if ((*shape)->dataType != kInt64 || (*shape)->shape.size() != 1) {
      error() << "Reshape shape must be a 1-D int64 constant";
      return failure();
    }
    requested.assign((*shape)->ints.begin(), (*shape)->ints.end());
    FailureOr<int64_t> allowZero = intAttr("allowzero", 0);
    if (failed(allowZero))
      return failure();
    if (*allowZero) {
      error() << "Reshape with allowzero is not supported";
      return failure();
    }
  }
  return dataMovement(input(0), [&](Value in) -> FailureOr<Value> {
    auto type = typeOf(in);
    int64_t total = type.getNumElements(), rank = type.getRank();
    SmallVector<int64_t> shape;
    if (flatten) {
      int64_t axis = flattenAxis < 0 ? flattenAxis + rank : flattenAxis;
      if (axis < 0 || axis > rank) {
        error() << "Flatten axis " << flattenAxis << " is out of range";
        return failure();
      }
      int64_t outer = 1;
      for (int64_t i = 0; i < axis; ++i)
        outer *= type.getDimSize(i);
      shape = {outer, outer ? total / outer : 0};
    } else {
      int64_t known = 1, inferred = -1;
      for (auto [i, d] : llvm::enumerate(requested)) {
        int64_t v = d;
        if (d == 0) {
          if (static_cast<int64_t>(i) >= rank) {
            error() << "Reshape copies dimension " << i << " that the input "
                    << "does not have";
            return failure();
          }
          v = type.getDimSize(i);
        } else if (d == -1) {
          if (inferred >= 0) {
            error() << "Reshape shape has more than one -1";
            return failure();
          }
          inferred = static_cast<int64_t>(i);
          shape.push_back(1);
          continue;
        } else if (d < 0) {
          error() << "Reshape shape holds " << d;
          return failure();
        }
        if (v && known > total / v + 1) {
          error() << "Reshape shape is too large";
          return failure();
        }
        known *= v;
        shape.push_back(v);
      }
      if (inferred >= 0) {
        if (known == 0 || total % known) {
          error() << "Reshape cannot infer the -1 dimension";
          return failure();
        }
        shape[inferred] = total / known;
        known = total;
      }
      if (known != total) {
        error() << "Reshape to " << known << " elements from " << total;
        return failure();
      }
    }
    return reshapeTo(in, shape);
  });
}

LogicalResult Importer::importTranspose() {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> perm = intsAttr("perm", {});
  if (failed(perm))
    return failure();
  return dataMovement(input(0), [&](Value in) -> FailureOr<Value> {
    auto type = typeOf(in);
    int64_t rank = type.getRank();
    SmallVector<int32_t> perms;
    if (perm->empty())
      for (int64_t i = rank - 1; i >= 0; --i)
        perms.push_back(static_cast<int32_t>(i));
    else
      for (int64_t p : *perm)
        perms.push_back(static_cast<int32_t>(p));
    SmallVector<bool> seen(rank, false);
    if (static_cast<int64_t>(perms.size()) != rank) {
      error() << "perm has " << perms.size() << " entries for rank " << rank;
      return failure();
    }
    SmallVector<int64_t> shape;
    for (int32_t p : perms) {
      if (p < 0 || p >= rank || seen[p]) {
        error() << "perm is not a permutation of [0, " << rank << ")";
        return failure();
      }
      seen[p] = true;
      shape.push_back(type.getDimSize(p));
    }
    auto outType = RankedTensorType::get(shape, type.getElementType());
    return tosa::TransposeOp::create(builder, loc, outType, in,
                                     builder.getDenseI32ArrayAttr(perms))
        .getResult();
  });
}

Value Importer::reshapeTo(Value in, ArrayRef<int64_t> shape) {
  auto type = typeOf(in);
  auto outType = RankedTensorType::get(shape, type.getElementType());
  if (outType == type)
    return in;
  auto shapeType = RankedTensorType::get({static_cast<int64_t>(shape.size())},
                                         builder.getIntegerType(64));
  Value shapeValue = arith::ConstantOp::create(
      builder, loc, DenseIntElementsAttr::get(shapeType, shape));
  return tensor::ReshapeOp::create(builder, loc, outType, in, shapeValue)
      .getResult();
}

Value Importer::gatherAlong(Value in, int64_t axis, ArrayRef<int32_t> picks) {
  auto type = typeOf(in);
  Type elem = type.getElementType();
  int64_t k = type.getDimSize(axis), outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    inner *= type.getDimSize(d);
  int64_t n = static_cast<int64_t>(picks.size());
  auto perm = builder.getDenseI32ArrayAttr({1, 0, 2});
  Value v = reshapeTo(in, {outer, k, inner});
  if (outer > 1)
    v = tosa::TransposeOp::create(
        builder, loc, RankedTensorType::get({k, outer, inner}, elem), v, perm);
  v = reshapeTo(v, {1, k, outer * inner});
  Value indices = arith::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(
          RankedTensorType::get({1, n}, builder.getIntegerType(32)), picks));
  v = tosa::GatherOp::create(
      builder, loc, RankedTensorType::get({1, n, outer * inner}, elem), v,
      indices);
  if (outer > 1) {
    v = reshapeTo(v, {n, outer, inner});
    v = tosa::TransposeOp::create(
        builder, loc, RankedTensorType::get({outer, n, inner}, elem), v, perm);
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = n;
  return reshapeTo(v, shape);
}

/// Resize (opset 11 and later). Each output index's source position is
/// computed at import as ONNX Runtime does, in float32: the coordinate
/// transformation (half_pixel, asymmetric, align_corners,
/// pytorch_half_pixel, tf_half_pixel_for_nn) of the output index with
/// scale = the given scale or out / in.
/// - mode "nearest": nearest_mode (round_prefer_floor, round_prefer_ceil,
///   floor, ceil), clamped to the input; pure data movement, so on the
///   integers (also between a DequantizeLinear and a QuantizeLinear with
///   the same parameters), one gather per resized axis.
/// - mode "linear": ONNX's definition on float values, one axis after the
///   other from the innermost: the position clamped to [0, in - 1], the two
///   neighbours gathered and weighted (in float32), as ONNX Runtime's
///   bilinear weights; between a DequantizeLinear and a QuantizeLinear the
///   dequantized values are interpolated and quantized with ONNX's
///   rounding. Linear Resize directly on integers is refused (ONNX Runtime
///   has its own integer kernels).
LogicalResult Importer::importResize() {
  if (failed(checkArity(1, 4, 1)))
    return failure();
  if (opset < 11) {
    error() << "Resize of opset " << opset
            << " is not supported (opset 11 or later)";
    return failure();
  }
  FailureOr<std::string> mode = stringAttr("mode", "nearest");
  FailureOr<std::string> transform =
      stringAttr("coordinate_transformation_mode", "half_pixel");
  FailureOr<std::string> nearest =
      stringAttr("nearest_mode", "round_prefer_floor");
  if (failed(mode) || failed(transform) || failed(nearest))
    return failure();
  bool linear = *mode == "linear";
  if (*mode != "nearest" && !linear) {
    error() << "Resize mode '" << *mode
            << "' is not supported (nearest or linear)";
    return failure();
  }
  static const char *const transforms[] = {
      "half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel",
      "tf_half_pixel_for_nn"};
  static const char *const roundings[] = {"round_prefer_floor",
                                          "round_prefer_ceil", "floor",
                                          "ceil"};
  if (!llvm::is_contained(transforms, *transform)) {
    error() << "Resize coordinate_transformation_mode '" << *transform
            << "' is not supported";
    return failure();
  }
  if (!llvm::is_contained(roundings, *nearest)) {
    error() << "Resize nearest_mode '" << *nearest << "' is not supported";
    return failure();
  }
  if (attr("axes") || attr("keep_aspect_ratio_policy") ||
      attr("antialias")) {
    error() << "Resize with axes, keep_aspect_ratio_policy or antialias is "
               "not supported";
    return failure();
  }
  // scales (input 2) or sizes (input 3), constants.
  auto given = [&](int i) {
    return node->input_size() > i && !node->input(i).empty();
  };
  if (given(2) == given(3)) {
    error() << "Resize needs exactly one of the scales and sizes inputs";
    return failure();
  }
  bool bySizes = given(3);
  FailureOr<const Const *> param =
      getConst(input(bySizes ? 3 : 2), bySizes ? "Resize sizes"
                                               : "Resize scales");
  if (failed(param))
    return failure();
  const Const *c = *param;
  if ((bySizes && c->dataType != kInt64) ||
      (!bySizes && c->dataType != kFloat) || c->shape.size() != 1) {
    error() << "Resize "
            << (bySizes ? "sizes must be a 1-D int64" : "scales must be a "
                                                        "1-D float")
            << " constant";
    return failure();
  }

  // Per axis: the output size and the float32 scale; nullopt-free failure.
  struct Axis {
    int64_t in, out;
    float scale;
  };
  auto readAxes = [&](RankedTensorType type) -> FailureOr<SmallVector<Axis>> {
    int64_t rank = type.getRank();
    if (c->numElements() != rank || !type.hasStaticShape()) {
      error() << "Resize of " << type << " needs " << rank
              << (bySizes ? " sizes" : " scales");
      return failure();
    }
    SmallVector<Axis> axes;
    for (int64_t d = 0; d < rank; ++d) {
      Axis axis{type.getDimSize(d), 0, 0.0f};
      if (bySizes) {
        axis.out = c->ints[d];
        if (axis.out < 1 || axis.out > (int64_t(1) << 24)) {
          error() << "Resize size " << axis.out << " is out of range";
          return failure();
        }
        axis.scale =
            static_cast<float>(axis.out) / static_cast<float>(axis.in);
      } else {
        axis.scale = c->floats[d];
        float product = axis.scale * static_cast<float>(axis.in);
        if (!(axis.scale > 0.0f) || !std::isfinite(product) ||
            product < 1.0f || product > static_cast<float>(int64_t(1) << 24)) {
          error() << "Resize scale " << axis.scale << " is out of range for "
                  << axis.in << " elements";
          return failure();
        }
        axis.out = static_cast<int64_t>(product);
      }
      axes.push_back(axis);
    }
    // Refuse an output over the size limit before building its tables.
    int64_t elements = 1, bytes = std::max<int64_t>(
                                     1, type.getElementTypeBitWidth() / 8);
    for (const Axis &a : axes) {
      if (elements > options.maxTensorBytes / (a.out * bytes)) {
        error() << "Resize output would need more than "
                << options.maxTensorBytes << " bytes";
        return failure();
      }
      elements *= a.out;
    }
    return axes;
  };
  auto unchanged = [](const Axis &a) {
    return a.out == a.in && a.scale == 1.0f;
  };
  auto original = [&](const Axis &a, int64_t i) {
    float x = static_cast<float>(i);
    if (*transform == "half_pixel")
      return (x + 0.5f) / a.scale - 0.5f;
    if (*transform == "asymmetric")
      return x / a.scale;
    if (*transform == "align_corners")
      return a.out == 1 ? 0.0f
                        : x * static_cast<float>(a.in - 1) /
                              static_cast<float>(a.out - 1);
    if (*transform == "pytorch_half_pixel")
      return a.out > 1 ? (x + 0.5f) / a.scale - 0.5f : 0.0f;
    return (x + 0.5f) / a.scale; // tf_half_pixel_for_nn
  };

  if (!linear)
    return dataMovement(input(0), [&](Value in) -> FailureOr<Value> {
      FailureOr<SmallVector<Axis>> axes = readAxes(typeOf(in));
      if (failed(axes))
        return failure();
      Value v = in;
      for (auto [d, a] : llvm::enumerate(*axes)) {
        if (unchanged(a))
          continue;
        SmallVector<int32_t> picks;
        for (int64_t i = 0; i < a.out; ++i) {
          float o = original(a, i), r;
          if (*nearest == "floor")
            r = std::floor(o);
          else if (*nearest == "ceil")
            r = std::ceil(o);
          else if (o == std::floor(o) + 0.5f)
            r = *nearest == "round_prefer_floor" ? std::floor(o)
                                                  : std::ceil(o);
          else
            r = std::round(o);
          picks.push_back(static_cast<int32_t>(
              std::clamp(r, 0.0f, static_cast<float>(a.in - 1))));
        }
        v = gatherAlong(v, d, picks);
      }
      return v;
    });

  // Linear: on float values, quantized again when a QuantizeLinear follows
  // a DequantizeLinear input.
  const onnx::NodeProto *activation = nullptr;
  int actIndex = -1;
  int next = lazy.count(input(0))
                 ? findQuantizeConsumer(node->output(0), activation, actIndex)
                 : -1;
  if (activation)
    next = -1;
  FailureOr<Value> x = getValue(input(0));
  if (failed(x))
    return failure();
  if (!typeOf(*x).getElementType().isF32()) {
    error() << "linear Resize of " << typeOf(*x)
            << " is supported on float values only (QDQ form: between a "
               "DequantizeLinear and a QuantizeLinear)";
    return failure();
  }
  FailureOr<SmallVector<Axis>> axes = readAxes(typeOf(*x));
  if (failed(axes))
    return failure();
  Value v = *x;
  int64_t rank = typeOf(v).getRank();
  for (int64_t d = rank - 1; d >= 0; --d) {
    const Axis &a = (*axes)[d];
    if (unchanged(a))
      continue;
    SmallVector<int32_t> lower, upper;
    SmallVector<float> lowerWeight, upperWeight;
    for (int64_t i = 0; i < a.out; ++i) {
      float o = std::clamp(original(a, i), 0.0f,
                           static_cast<float>(a.in - 1));
      int64_t x1 = std::min<int64_t>(static_cast<int64_t>(o), a.in - 1);
      int64_t x2 = std::min<int64_t>(x1 + 1, a.in - 1);
      float w2 = std::fabs(o - static_cast<float>(x1));
      float w1 = std::fabs(o - static_cast<float>(x2));
      if (x1 == x2)
        w1 = w2 = 0.5f;
      lower.push_back(static_cast<int32_t>(x1));
      upper.push_back(static_cast<int32_t>(x2));
      lowerWeight.push_back(w1);
      upperWeight.push_back(w2);
    }
    SmallVector<int64_t> weightShape(rank, 1);
    weightShape[d] = a.out;
    auto weightType =
        RankedTensorType::get(weightShape, builder.getF32Type());
    auto weights = [&](ArrayRef<float> w) -> Value {
      return tosa::ConstOp::create(builder, loc, weightType,
                                   DenseElementsAttr::get(weightType, w));
    };
    Value shift = tosa::ConstOp::create(
        builder, loc, RankedTensorType::get({1}, builder.getI8Type()),
        DenseElementsAttr::get(RankedTensorType::get({1}, builder.getI8Type()),
                               ArrayRef<int8_t>{0}));
    Value lo = gatherAlong(v, d, lower), hi = gatherAlong(v, d, upper);
    auto outType = typeOf(lo);
    lo = tosa::MulOp::create(builder, loc, outType, lo, weights(lowerWeight),
                             shift);
    hi = tosa::MulOp::create(builder, loc, outType, hi, weights(upperWeight),
                             shift);
    v = tosa::AddOp::create(builder, loc, outType, lo, hi);
  }
  if (next < 0)
    return setOutput(0, v);
  FailureOr<QParams> yq = quantizeParams(graph->node(next));
  if (failed(yq))
    return failure();
  if (!yq->perTensor()) {
    error() << "linear Resize needs a per-tensor QuantizeLinear";
    return failure();
  }
  Value q = QuantizeOp::create(
                builder, loc,
                RankedTensorType::get(typeOf(v).getShape(),
                                      elementType(yq->storage)),
                v, builder.getDenseF32ArrayAttr(yq->scales),
                builder.getDenseI32ArrayAttr(yq->zeroPoints), IntegerAttr(),
                RoundingAttr::get(context, Rounding::onnx))
                .getResult();
  done.insert(next);
  return bindNodeOutput(next, q);
}

/// Pad, mode "constant": on integers with an integer constant_value
/// (default 0), or between a DequantizeLinear and a QuantizeLinear with a
/// float constant_value quantized with the pending parameters.
LogicalResult Importer::importPad() {
  if (failed(checkArity(2, 3, 1)))
    return failure();
  FailureOr<std::string> mode = stringAttr("mode", "constant");
  if (failed(mode))
    return failure();
  if (*mode != "constant") {
    error() << "Pad mode '" << *mode << "' is not supported (constant only)";
    return failure();
  }
  FailureOr<const Const *> pads = getConst(input(1), "Pad pads");
  if (failed(pads))
    return failure();
  if ((*pads)->dataType != kInt64 || (*pads)->shape.size() != 1) {
    error() << "Pad pads must be a 1-D int64 constant";
    return failure();
  }
  const Const *constant = nullptr;
  if (hasInput(2)) {
    FailureOr<const Const *> c = getConst(input(2), "Pad constant_value");
    if (failed(c))
      return failure();
    if ((*c)->numElements() != 1) {
      error() << "Pad constant_value must be a scalar";
      return failure();
    }
    constant = *c;
  }
  auto lazyIt = lazy.find(input(0));
  std::optional<QParams> q;
  if (lazyIt != lazy.end() && lazyIt->second.q.perTensor())
    q = lazyIt->second.q;
  return dataMovement(input(0), [&](Value in) -> FailureOr<Value> {
    auto type = typeOf(in);
    int64_t rank = type.getRank();
    ArrayRef<int64_t> p = (*pads)->ints;
    if (static_cast<int64_t>(p.size()) != 2 * rank) {
      error() << "Pad pads has " << p.size() << " entries for rank " << rank;
      return failure();
    }
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType || intType.getWidth() != 8) {
      error() << "Pad on " << type << " (quantized tensors only)";
      return failure();
    }
    auto [qmin, qmax] = getStorageRange(intType);
    int64_t value = 0;
    if (q) {
      // A float padding value, quantized as QuantizeLinear would.
      float real = 0.0f;
      if (constant) {
        if (constant->dataType != kFloat) {
          error() << "Pad constant_value must be float between "
                  << "DequantizeLinear and QuantizeLinear";
          return failure();
        }
        real = constant->floats[0];
      }
      value = math::quantizeFloat(real, q->scales[0], q->zeroPoints[0], qmin,
                                  qmax, /*halfToEven=*/true);
    } else if (constant) {
      if (constant->dataType == kFloat || constant->ints[0] < qmin ||
          constant->ints[0] > qmax) {
        error() << "Pad constant_value must be a value of " << intType;
        return failure();
      }
      value = constant->ints[0];
    }
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> low, high;
    for (int64_t d = 0; d < rank; ++d) {
      if (p[d] < 0 || p[d + rank] < 0 || p[d] > 4096 || p[d + rank] > 4096) {
        error() << "Pad pads must be in [0, 4096] (negative pads crop)";
        return failure();
      }
      shape.push_back(type.getDimSize(d) + p[d] + p[d + rank]);
      low.push_back(builder.getIndexAttr(p[d]));
      high.push_back(builder.getIndexAttr(p[d + rank]));
    }
    // A scalar of ui8 cannot be an arith.constant: extract it from a 0-d
    // tensor constant (as the PyTorch-like form does).
    auto scalarType = RankedTensorType::get({}, intType);
    Value zpTensor = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(scalarType,
                               APInt(8, value, /*isSigned=*/true,
                                     /*implicitTrunc=*/true)));
    Value padValue = tensor::ExtractOp::create(builder, loc, zpTensor,
                                               ValueRange{});
    auto outType = RankedTensorType::get(shape, intType);
    return tensor::PadOp::create(builder, loc, outType, in, low, high,
                                 padValue)
        .getResult();
  });
}

/// Concat of quantized tensors with the same parameters (integers, or
/// DequantizeLinear outputs with one set of parameters): a copy.
/// qnn.concatenate of 8-bit tensors along ONNX's `axis` attribute, each
/// input rescaled to the output's parameters with ONNX's rule (a copy where
/// they are equal).
FailureOr<Value> Importer::emitConcat(ArrayRef<Value> ints,
                                      ArrayRef<float> scales,
                                      ArrayRef<int32_t> zps, float outScale,
                                      int32_t outZp) {
  FailureOr<int64_t> axisAttr = intAttr("axis", 1);
  if (failed(axisAttr))
    return failure();
  auto first = typeOf(ints[0]);
  int64_t rank = first.getRank();
  int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
  if (axis < 0 || axis >= rank || !first.getElementType().isInteger(8)) {
    error() << "Concat axis " << *axisAttr << " of " << first
            << " (8-bit tensors only)";
    return failure();
  }
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (Value v : ints) {
    auto t = typeOf(v);
    if (t.getRank() != rank || t.getElementType() != first.getElementType()) {
      error() << "Concat inputs " << first << " and " << t << " differ";
      return failure();
    }
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.getDimSize(d) != first.getDimSize(d)) {
        error() << "Concat inputs " << first << " and " << t
                << " differ outside the axis";
        return failure();
      }
    shape[axis] += t.getDimSize(axis);
  }
  return ConcatenateOp::create(
             builder, loc, RankedTensorType::get(shape, first.getElementType()),
             ints, builder.getI64IntegerAttr(axis),
             builder.getDenseF32ArrayAttr(scales),
             builder.getDenseI32ArrayAttr(zps), builder.getF32FloatAttr(outScale),
             builder.getI32IntegerAttr(outZp),
             RoundingAttr::get(context, Rounding::onnx))
      .getResult();
}

/// Concat of integer tensors, of dequantized tensors with equal parameters
/// (stays dequantized lazily), or DequantizeLinear xN -> Concat ->
/// QuantizeLinear with any parameters (QLinearConcat's rescale).
LogicalResult Importer::importConcat() {
  if (node->input_size() < 1 || node->output_size() != 1) {
    error() << "Concat needs inputs and one output";
    return failure();
  }
  SmallVector<QParams> qs;
  bool anyLazy = false, allLazy = true, equal = true;
  for (const std::string &name : node->input()) {
    auto it = lazy.find(name);
    if (it == lazy.end()) {
      allLazy = false;
      continue;
    }
    anyLazy = true;
    if (!it->second.q.perTensor()) {
      error() << "Concat of per-axis quantized inputs is not supported";
      return failure();
    }
    equal = equal && (qs.empty() || qs.front() == it->second.q);
    qs.push_back(it->second.q);
  }
  if (anyLazy && !allLazy) {
    error() << "Concat mixes dequantized and other inputs";
    return failure();
  }
  SmallVector<Value> ints;
  for (const std::string &name : node->input()) {
    FailureOr<Value> v = getValue(anyLazy ? StringRef(lazy[name].input) : name);
    if (failed(v))
      return failure();
    ints.push_back(*v);
  }
  SmallVector<float> scales;
  SmallVector<int32_t> zps;
  for (const QParams &q : qs) {
    scales.push_back(q.scales[0]);
    zps.push_back(q.zeroPoints[0]);
  }
  if (!anyLazy || equal) {
    float scale = anyLazy ? qs[0].scales[0] : 1.0f;
    int32_t zp = anyLazy ? qs[0].zeroPoints[0] : 0;
    scales.assign(ints.size(), scale);
    zps.assign(ints.size(), zp);
    FailureOr<Value> out = emitConcat(ints, scales, zps, scale, zp);
    if (failed(out))
      return failure();
    if (!anyLazy)
      return setOutput(0, *out);
    std::string intName = node->output(0) + "#int";
    values[intName] = *out;
    if (lazy.count(node->output(0)) || values.count(node->output(0))) {
      error() << "output '" << node->output(0) << "' is defined twice";
      return failure();
    }
    lazy[node->output(0)] = Lazy{intName, qs[0]};
    return success();
  }
  // Different parameters: the float concatenation must be quantized again.
  const onnx::NodeProto *activation = nullptr;
  int actIndex = -1;
  int next = findQuantizeConsumer(node->output(0), activation, actIndex);
  if (next < 0 || activation) {
    error() << "Concat of inputs with different quantization parameters "
               "needs one QuantizeLinear consumer";
    return failure();
  }
  FailureOr<QParams> yq = quantizeParams(graph->node(next));
  if (failed(yq))
    return failure();
  if (!yq->perTensor() ||
      elementType(yq->storage) != typeOf(ints[0]).getElementType()) {
    error() << "Concat's QuantizeLinear must be per tensor with the inputs' "
               "storage type";
    return failure();
  }
  FailureOr<Value> out =
      emitConcat(ints, scales, zps, yq->scales[0], yq->zeroPoints[0]);
  if (failed(out))
    return failure();
  done.insert(next);
  return bindNodeOutput(next, *out);
}

/// com.microsoft.QLinearConcat: Y_scale, Y_zero_point, then (X, X_scale,
/// X_zero_point) per input; attribute axis.
LogicalResult Importer::importQLinearConcat() {
  if (node->input_size() < 5 || (node->input_size() - 2) % 3 != 0 ||
      node->output_size() != 1) {
    error() << "QLinearConcat needs Y_scale, Y_zero_point and triples (X, "
               "X_scale, X_zero_point), and one output";
    return failure();
  }
  SmallVector<Value> ints;
  SmallVector<float> scales;
  SmallVector<int32_t> zps;
  for (int i = 2; i < node->input_size(); i += 3) {
    FailureOr<Value> x = getValue(input(i));
    if (failed(x))
      return failure();
    int32_t storage =
        typeOf(*x).getElementType().isUnsignedInteger(8) ? kUInt8 : kInt8;
    FailureOr<QParams> q =
        readQParams(input(i + 1), input(i + 2), storage, 1, "X");
    if (failed(q))
      return failure();
    if (!q->perTensor()) {
      error() << "QLinearConcat parameters must be per tensor";
      return failure();
    }
    ints.push_back(*x);
    scales.push_back(q->scales[0]);
    zps.push_back(q->zeroPoints[0]);
  }
  int32_t storage =
      typeOf(ints[0]).getElementType().isUnsignedInteger(8) ? kUInt8 : kInt8;
  FailureOr<QParams> yq = readQParams(input(0), input(1), storage, 1, "Y");
  if (failed(yq))
    return failure();
  if (!yq->perTensor()) {
    error() << "QLinearConcat parameters must be per tensor";
    return failure();
  }
  FailureOr<Value> out =
      emitConcat(ints, scales, zps, yq->scales[0], yq->zeroPoints[0]);
  if (failed(out))
    return failure();
  return setOutput(0, *out);
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

/// The op types the importer knows (default domain).
const llvm::StringSet<> &supportedOps() {
  static const llvm::StringSet<> ops = {
      "QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul",
      "ConvInteger",    "MatMulInteger",    "Conv",        "MatMul",
      "Gemm",           "Relu",             "Clip",        "MaxPool",
      "Reshape",        "Flatten",          "Transpose",   "Constant",
      "Add",            "Mul",              "Pad",         "Concat",
      "GlobalAveragePool", "Sigmoid",          "HardSwish",   "LeakyRelu",
      "Elu",            "AveragePool",      "Resize",      "Softmax"};
  return ops;
}

/// ONNX Runtime's contrib ops the importer knows (domain com.microsoft).
const llvm::StringSet<> &supportedContribOps() {
  static const llvm::StringSet<> ops = {
      "QLinearAdd", "QLinearMul", "QLinearGlobalAveragePool", "QLinearSigmoid",
      "QLinearLeakyRelu", "QLinearConcat", "QLinearAveragePool",
      "QLinearSoftmax"};
  return ops;
}

LogicalResult Importer::checkSupported(const onnx::GraphProto &g) {
  // Every unsupported operator at once: name, count, first node.
  std::map<std::string, std::pair<int, int>> unsupported;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &n = g.node(i);
    bool defaultDomain = n.domain().empty() || n.domain() == "ai.onnx";
    if (defaultDomain && supportedOps().contains(n.op_type()))
      continue;
    if (n.domain() == "com.microsoft" &&
        supportedContribOps().contains(n.op_type()))
      continue;
    std::string key = defaultDomain ? n.op_type()
                                    : n.domain() + "." + n.op_type();
    auto [it, inserted] = unsupported.try_emplace(key, 0, i);
    ++it->second.first;
  }
  if (unsupported.empty())
    return success();
  InFlightDiagnostic d = emitError(fileLoc);
  d << "the model uses " << unsupported.size()
    << " unsupported ONNX operator" << (unsupported.size() > 1 ? "s" : "")
    << ":";
  bool first = true;
  for (auto &[name, info] : unsupported) {
    d << (first ? " " : ", ") << name << " (x" << info.first
      << ", first at node " << info.second << ")";
    first = false;
  }
  return failure();
}

LogicalResult Importer::importNode() {
  StringRef op = node->op_type();
  if (op == "Constant") {
    if (failed(checkArity(0, 0, 1)))
      return failure();
    const onnx::AttributeProto *value = attr("value");
    if (!value || value->type() != onnx::AttributeProto::TENSOR) {
      error() << "Constant needs a tensor attribute 'value'";
      return failure();
    }
    FailureOr<Const> c = decodeTensor(value->t(), "constant");
    if (failed(c))
      return failure();
    const std::string &name = node->output(0);
    if (name.empty() || values.count(name) || constants.count(name) ||
        lazy.count(name)) {
      error() << "output '" << name << "' is defined twice";
      return failure();
    }
    constants[name] = std::move(*c);
    return success();
  }
  if (node->domain() == "com.microsoft") {
    if (op == "QLinearAdd" || op == "QLinearMul")
      return importQLinearBinary(op == "QLinearMul");
    if (op == "QLinearConcat")
      return importQLinearConcat();
    if (op == "QLinearAveragePool")
      return importAveragePool(/*qlinear=*/true, /*global=*/false);
    if (op == "QLinearSigmoid" || op == "QLinearLeakyRelu")
      return importActivation(/*qlinear=*/true);
    if (op == "QLinearGlobalAveragePool")
      return importAveragePool(/*qlinear=*/true, /*global=*/true);
    if (op == "QLinearSoftmax")
      return importSoftmax(/*qlinear=*/true);
  }
  if (op == "QuantizeLinear")
    return importQuantize();
  if (op == "Add" || op == "Mul")
    return importQDQBinary(op == "Mul");
  if (op == "Sigmoid" || op == "HardSwish" || op == "LeakyRelu" ||
      op == "Elu")
    return importActivation(/*qlinear=*/false);
  if (op == "AveragePool")
    return importAveragePool(/*qlinear=*/false, /*global=*/false);
  if (op == "GlobalAveragePool")
    return importAveragePool(/*qlinear=*/false, /*global=*/true);
  if (op == "DequantizeLinear")
    return importDequantize();
  if (op == "QLinearConv")
    return importQLinearConv();
  if (op == "QLinearMatMul")
    return importQLinearMatMul();
  if (op == "ConvInteger")
    return importIntegerOp(/*conv=*/true);
  if (op == "MatMulInteger")
    return importIntegerOp(/*conv=*/false);
  if (op == "Conv")
    return importQDQ(/*conv=*/true, /*gemm=*/false);
  if (op == "MatMul")
    return importQDQ(false, false);
  if (op == "Gemm")
    return importQDQ(false, true);
  if (op == "MaxPool")
    return importMaxPool();
  if (op == "Reshape")
    return importReshape(/*flatten=*/false);
  if (op == "Flatten")
    return importReshape(/*flatten=*/true);
  if (op == "Transpose")
    return importTranspose();
  if (op == "Resize")
    return importResize();
  if (op == "Softmax")
    return importSoftmax(/*qlinear=*/false);
  if (op == "Pad")
    return importPad();
  if (op == "Concat")
    return importConcat();
  // Relu and Clip are only taken fused into a QDQ Conv/MatMul/Gemm.
  error() << op << " is supported only between a QDQ Conv, MatMul or Gemm "
          << "and its QuantizeLinear";
  return failure();
}

LogicalResult Importer::importGraph(const onnx::GraphProto &g,
                                    ModuleOp module) {
  graph = &g;
  if (failed(checkSupported(g)))
    return failure();
  // Initializers.
  int64_t totalBytes = 0;
  for (const onnx::TensorProto &t : g.initializer()) {
    FailureOr<Const> c = decodeTensor(t, "initializer");
    if (failed(c))
      return failure();
    totalBytes += c->numElements() * dataTypeBytes(c->dataType);
    if (totalBytes > options.maxTotalBytes) {
      emitError(fileLoc) << "the initializers need more than "
                         << options.maxTotalBytes << " bytes";
      return failure();
    }
    if (t.name().empty() || constants.count(t.name())) {
      emitError(fileLoc) << "initializer '" << t.name()
                         << "' has no name or is defined twice";
      return failure();
    }
    constants[t.name()] = std::move(*c);
  }
  // Inputs (those that are not initializers) and outputs.
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  for (const onnx::ValueInfoProto &v : g.input()) {
    if (constants.count(v.name()))
      continue;
    FailureOr<RankedTensorType> t = valueInfoType(v);
    if (failed(t))
      return failure();
    argTypes.push_back(*t);
    argNames.push_back(v.name());
  }
  if (g.output_size() == 0) {
    emitError(fileLoc) << "the graph has no outputs";
    return failure();
  }
  // Uses and single consumers.
  for (int i = 0; i < g.node_size(); ++i)
    for (const std::string &in : g.node(i).input()) {
      if (in.empty())
        continue;
      ++uses[in];
      consumer[in] = i;
    }
  for (const onnx::ValueInfoProto &v : g.output())
    uses[v.name()] += 1;

  builder.setInsertionPointToEnd(module.getBody());
  func = func::FuncOp::create(builder, fileLoc, "main",
                              builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  for (auto [i, name] : llvm::enumerate(argNames)) {
    if (values.count(name)) {
      emitError(fileLoc) << "graph input '" << name << "' is listed twice";
      return failure();
    }
    values[name] = body->getArgument(i);
  }
  for (int i = 0; i < g.node_size(); ++i) {
    if (done.contains(i))
      continue;
    node = &g.node(i);
    nodeIndex = i;
    std::string label = node->name().empty()
                            ? node->op_type() + "#" + std::to_string(i)
                            : node->name();
    loc = NameLoc::get(builder.getStringAttr(label), fileLoc);
    if (failed(importNode()))
      return failure();
  }
  node = nullptr;
  loc = fileLoc;
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &v : g.output()) {
    FailureOr<Value> r = getValue(v.name());
    if (failed(r))
      return failure();
    results.push_back(*r);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  return success();
}

} // namespace

OwningOpRef<ModuleOp> Importer::run(StringRef buffer) {
  onnx::ModelProto model;
  if (buffer.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(buffer.data(), static_cast<int>(buffer.size()))) {
    emitError(fileLoc) << "not an ONNX model: the protobuf could not be "
                          "parsed (" << buffer.size() << " bytes)";
    return nullptr;
  }
  if (!model.has_graph()) {
    emitError(fileLoc) << "the ONNX model has no graph";
    return nullptr;
  }
  for (const auto &imported : model.opset_import()) {
    if (!imported.domain().empty() && imported.domain() != "ai.onnx")
      continue;
    if (imported.version() < 10) {
      emitError(fileLoc) << "the model imports ONNX opset "
                         << imported.version()
                         << "; quantized operators need opset 10 or later";
      return nullptr;
    }
    opset = imported.version();
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  if (failed(importGraph(model.graph(), *module)))
    return nullptr;
  if (failed(verify(*module))) {
    emitError(fileLoc) << "the imported module does not verify";
    return nullptr;
  }
  return module;
}

OwningOpRef<ModuleOp> mlir::qnn::importONNX(StringRef buffer,
                                            MLIRContext *context,
                                            StringRef sourceName,
                                            const ONNXImportOptions &options) {
  DialectRegistry registry;
  registerONNXImportDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();
  Importer importer(context, sourceName, options);
  return importer.run(buffer);
}

#endif // QNN_HAVE_ONNX

void mlir::qnn::registerONNXImportTranslation() {
  TranslateToMLIRRegistration registration(
      "import-onnx", "import a quantized ONNX model into qnn IR",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return importONNX(buffer->getBuffer(), context,
                          buffer->getBufferIdentifier());
      },
      registerONNXImportDialects);
}
