//===- TFLiteImport.cpp - TFLite flatbuffer to qnn IR ---------------------===//
//
// The importer reads only through the generated flatbuffers accessors, after
// the flatbuffers verifier has accepted the whole buffer, and checks every
// index (tensor, buffer, operator code) and every size (buffer bytes against
// the tensor shape, scales against the quantized dimension) before using it.
//
//===----------------------------------------------------------------------===//

#include "QNN/Target/TFLite/TFLiteImport.h"
#include "QNN/Target/ONNX/ONNXImport.h"
#include "QNN/IR/QNNDialect.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Target/TFLite/schema_subset_generated.h"
#include "QNN/Utils/ParserGuards.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::qnn;
namespace tfl = ::qnn::tflite;

namespace {

/// The schema version this importer reads (TFLite's TFLITE_SCHEMA_VERSION).
constexpr uint32_t kSchemaVersion = 3;

/// Quantization parameters of one tensor.
struct QuantParams {
  SmallVector<float> scales;
  SmallVector<int64_t> zeroPoints;
  int32_t dimension = 0;
  bool isPerTensor() const { return scales.size() == 1; }
};

class Importer {
public:
  Importer(const tfl::Model *model, MLIRContext *context, StringRef sourceName,
           const TFLiteImportOptions &options)
      : model(model), context(context), builder(context),
        sourceLoc(FileLineColLoc::get(context, sourceName, 0, 0)),
        options(options) {}

  OwningOpRef<ModuleOp> run();

private:
  //===--------------------------------------------------------------------===//
  // Diagnostics
  //===--------------------------------------------------------------------===//

  /// Starts an error located at the source file; inside an operator the
  /// message begins with the operator's index and name.
  InFlightDiagnostic error() {
    InFlightDiagnostic diag = emitError(sourceLoc);
    if (opIndex >= 0)
      diag << "operator " << opIndex << " (" << opName << "): ";
    return diag;
  }
  std::string tensorDesc(int32_t index) {
    std::string s = "tensor " + std::to_string(index);
    if (index >= 0 && static_cast<size_t>(index) < tensors()->size()) {
      if (const auto *name = tensors()->Get(index)->name())
        s += " '" + name->str() + "'";
    }
    return s;
  }

  //===--------------------------------------------------------------------===//
  // Tensors
  //===--------------------------------------------------------------------===//

  const flatbuffers::Vector<flatbuffers::Offset<tfl::Tensor>> *tensors() {
    return subgraph->tensors();
  }
  FailureOr<const tfl::Tensor *> getTensor(int32_t index);
  FailureOr<RankedTensorType> getType(int32_t index);
  FailureOr<QuantParams> getQuant(int32_t index, bool required = true);
  /// Per-tensor scale and zero point (exactly one of each).
  FailureOr<std::pair<float, int32_t>> getPerTensor(int32_t index);
  /// The constant data of a tensor, or nullptr (no error) if it has none.
  FailureOr<DenseElementsAttr> getConstant(int32_t index, bool required);
  /// The SSA value of a tensor: a function argument, an op result, or a
  /// constant materialized on first use.
  FailureOr<Value> getValue(int32_t index);
  Location tensorLoc(int32_t index);
  FailureOr<SmallVector<int64_t>> getIntConstant(int32_t index);

  //===--------------------------------------------------------------------===//
  // Operators
  //===--------------------------------------------------------------------===//

  LogicalResult importOperator(const tfl::Operator *op);
  using OperatorImporter = LogicalResult (*)(Importer &,
                                             tfl::BuiltinOperator);
  static OperatorImporter getOperatorImporter(tfl::BuiltinOperator builtin);
  /// The builtin code and the display name of `op`'s operator.
  FailureOr<std::pair<tfl::BuiltinOperator, std::string>>
  resolveOperator(const tfl::Operator *op);
  /// Verifies the ops one operator produced (in [begin, end)), reporting a
  /// verifier failure as that operator's error.
  LogicalResult verifyImported(Block::iterator begin, Block::iterator end);
  /// One error listing every operator kind that has no importer.
  LogicalResult checkOperatorsSupported();
  LogicalResult checkArity(size_t minInputs, size_t maxInputs, size_t outputs);
  int32_t input(size_t i) { return currentOp->inputs()->Get(i); }
  int32_t output(size_t i) { return currentOp->outputs()->Get(i); }
  bool hasInput(size_t i) {
    return i < currentOp->inputs()->size() && input(i) >= 0;
  }
  LogicalResult setOutput(size_t i, Value value);

  /// TFLite's CalculateActivationRangeQuantized for `act` on output tensor
  /// `outputIndex`; a clamp is emitted only where it narrows the storage
  /// range.
  FailureOr<Value> applyActivation(Value value, tfl::ActivationFunctionType act,
                                   int32_t outputIndex);
  Value clamp(Value value, int64_t lo, int64_t hi);
  Value reshape(Value value, RankedTensorType type, Location loc);

  LogicalResult importConv(bool depthwise);
  LogicalResult importTransposeConv();
  FailureOr<int32_t> filterZeroPoint(int32_t index, const QuantParams &q,
                                     int64_t dimension, int64_t channels);
  LogicalResult importPRelu();
  LogicalResult importBatchMatMul();
  /// The operands of a reduction with constant axes (MEAN, SUM,
  /// REDUCE_MAX/MIN): axes normalized, sorted and deduplicated as TFLite
  /// does, the result with the rank kept, and the 8-bit input's parameters.
  struct Reduction {
    Value input;
    SmallVector<int64_t> axes;
    RankedTensorType keptType, outType;
    std::pair<float, int32_t> inputParams, outputParams;
  };
  FailureOr<Reduction> readReduction();
  /// Sets the output to `kept`, reshaped when keep_dims is false.
  LogicalResult setReductionOutput(const Reduction &r, Value kept);
  LogicalResult importReduceMaxMin(bool isMax);
  LogicalResult importFullyConnected();
  LogicalResult importBinary(tfl::BuiltinOperator code);
  LogicalResult importPool(bool average);
  LogicalResult importConcatenation();
  LogicalResult importReshape();
  LogicalResult importSoftmax();
  /// A unary 8-bit operator whose output parameters TFLite fixes (scale
  /// `scale`, zero point `zpInt8` or `zpUInt8`): its input and parameters.
  struct FixedOutputUnary {
    Value input;
    RankedTensorType type;
    float inputScale;
    int32_t inputZp, outputZp;
  };
  FailureOr<FixedOutputUnary> readFixedOutputUnary(int64_t maxRank,
                                                   float scale,
                                                   StringRef scaleText,
                                                   int32_t zpInt8,
                                                   int32_t zpUInt8);
  LogicalResult importL2Normalization();
  LogicalResult importLogSoftmax();
  LogicalResult importPad();
  LogicalResult importQuantize();
  LogicalResult importDequantize();
  LogicalResult importRelu(tfl::BuiltinOperator code);
  LogicalResult importTableActivation(tfl::BuiltinOperator code);
  LogicalResult importTranspose();
  LogicalResult importMeanOrSum(bool isSum);
  LogicalResult importSplit();
  LogicalResult importSlice(bool strided);
  LogicalResult importMaxMin(bool isMax);
  LogicalResult importArg(bool isMax);
  LogicalResult importPack();
  LogicalResult importCast();
  LogicalResult importResizeNearest();
  LogicalResult importResizeBilinear();
  LogicalResult importGather();
  LogicalResult importMirrorPad();
  /// Picks `indices` along dimension 1 of a [N, K, C] value: tosa.gather.
  Value gatherRows(Value values, ArrayRef<int32_t> indices);
  LogicalResult importUnpackOrSplitV(bool unpack);
  LogicalResult importDepthSpace(bool toDepth);
  /// The slice of `in` (type `inType`) at static offsets/sizes/strides,
  /// reshaped to `outType` (rank-reducing slices of STRIDED_SLICE).
  FailureOr<Value> emitSlice(Value in, RankedTensorType inType,
                             ArrayRef<int64_t> offsets,
                             ArrayRef<int64_t> sizes,
                             ArrayRef<int64_t> strides,
                             RankedTensorType outType);

  /// Bias (optional input 2) + requantize + fused activation after a conv
  /// or dense accumulator `acc` whose channel axis is `axis`.
  LogicalResult finishAccumulator(Value acc, float inputScale,
                                  const QuantParams &weightQuant,
                                  int64_t channels, int64_t axis,
                                  tfl::ActivationFunctionType act,
                                  RankedTensorType accFinalType, Value *result,
                                  int biasIndex = 2);

  const tfl::Model *model;
  const tfl::SubGraph *subgraph = nullptr;
  MLIRContext *context;
  OpBuilder builder;
  Location sourceLoc;
  std::vector<Value> values;
  const tfl::Operator *currentOp = nullptr;
  const TFLiteImportOptions options;
  /// The `#qnn.rounding` of every rescale this import creates.
  RoundingAttr roundingAttr() {
    return RoundingAttr::get(
        context, options.rounding == TFLiteImportOptions::Rounding::Single
                     ? Rounding::tflite_single
                     : Rounding::tflite);
  }
  int64_t opIndex = -1;
  std::string opName;
  Location opLoc = UnknownLoc::get(context);
};

} // namespace

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

FailureOr<const tfl::Tensor *> Importer::getTensor(int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= tensors()->size()) {
    error() << "tensor index " << index << " is out of range (the subgraph has "
            << tensors()->size() << " tensors)";
    return failure();
  }
  return tensors()->Get(index);
}

Location Importer::tensorLoc(int32_t index) {
  const tfl::Tensor *tensor = tensors()->Get(index);
  std::string name = tensor->name() ? tensor->name()->str()
                                    : "tensor_" + std::to_string(index);
  return NameLoc::get(StringAttr::get(context, name));
}

static int64_t elementByteWidth(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

static std::optional<Type> getElementType(tfl::TensorType type,
                                          MLIRContext *context) {
  switch (type) {
  case tfl::TensorType::FLOAT32:
    return Float32Type::get(context);
  case tfl::TensorType::INT32:
    return IntegerType::get(context, 32);
  case tfl::TensorType::UINT8:
    return IntegerType::get(context, 8, IntegerType::Unsigned);
  case tfl::TensorType::INT64:
    return IntegerType::get(context, 64);
  case tfl::TensorType::INT16:
    return IntegerType::get(context, 16);
  case tfl::TensorType::INT8:
    return IntegerType::get(context, 8);
  default:
    return std::nullopt;
  }
}

FailureOr<RankedTensorType> Importer::getType(int32_t index) {
  FailureOr<const tfl::Tensor *> tensor = getTensor(index);
  if (failed(tensor))
    return failure();
  if ((*tensor)->sparsity()) {
    error() << tensorDesc(index) << " is sparse; sparse tensors are not "
            << "supported";
    return failure();
  }
  std::optional<Type> elementType = getElementType((*tensor)->type(), context);
  if (!elementType) {
    error() << tensorDesc(index) << " has unsupported element type "
            << tfl::EnumNameTensorType((*tensor)->type()) << " ("
            << static_cast<int>((*tensor)->type()) << ")";
    return failure();
  }
  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  if (const auto *dims = (*tensor)->shape()) {
    if (dims->size() > 8) {
      error() << tensorDesc(index) << " has rank " << dims->size()
              << "; at most 8 is supported";
      return failure();
    }
    for (int32_t d : *dims) {
      if (d < 0) {
        error() << tensorDesc(index) << " has a dynamic or negative dimension ("
                << d << "); only static shapes are supported";
        return failure();
      }
      if (d == 0) {
        error() << tensorDesc(index) << " has a dimension of size 0; empty "
                << "tensors are not supported";
        return failure();
      }
      // Checked per dimension, with overflow checks, whatever the limit.
      int64_t bytes = 0;
      if (__builtin_mul_overflow(numElements, int64_t(d), &numElements) ||
          __builtin_mul_overflow(numElements,
                                 elementByteWidth(*elementType), &bytes) ||
          bytes > options.maxTensorBytes) {
        error() << tensorDesc(index) << " needs more than "
                << options.maxTensorBytes
                << " bytes (the importer's tensor size limit)";
        return failure();
      }
      shape.push_back(d);
    }
  }
  return RankedTensorType::get(shape, *elementType);
}

FailureOr<QuantParams> Importer::getQuant(int32_t index, bool required) {
  FailureOr<RankedTensorType> type = getType(index);
  if (failed(type))
    return failure();
  const tfl::QuantizationParameters *q = tensors()->Get(index)->quantization();
  QuantParams params;
  if (!q || !q->scale() || q->scale()->size() == 0) {
    if (required) {
      error() << tensorDesc(index) << " has no quantization parameters";
      return failure();
    }
    return params;
  }
  for (float s : *q->scale()) {
    if (!std::isfinite(s) || s <= 0.0f) {
      error() << tensorDesc(index) << " has scale " << s
              << "; scales must be finite and positive";
      return failure();
    }
    params.scales.push_back(s);
  }
  if (const auto *zps = q->zero_point()) {
    // The verifier checks only the 4-byte alignment of a vector's length
    // field, so a hostile file can misalign the 64-bit elements: copy them.
    const uint8_t *data = zps->Data();
    for (size_t i = 0; i < zps->size(); ++i) {
      int64_t zp;
      std::memcpy(&zp, data + i * sizeof(int64_t), sizeof(int64_t));
      params.zeroPoints.push_back(flatbuffers::EndianScalar(zp));
    }
  }
  if (params.zeroPoints.empty())
    params.zeroPoints.push_back(0);
  if (params.zeroPoints.size() != 1 &&
      params.zeroPoints.size() != params.scales.size()) {
    error() << tensorDesc(index) << " has " << params.scales.size()
            << " scales but " << params.zeroPoints.size() << " zero points";
    return failure();
  }
  Type elementType = type->getElementType();
  if (auto intType = dyn_cast<IntegerType>(elementType)) {
    auto [qmin, qmax] = getStorageRange(intType);
    for (int64_t zp : params.zeroPoints)
      if (zp < qmin || zp > qmax) {
        error() << tensorDesc(index) << " has zero point " << zp
                << " outside the range [" << qmin << ", " << qmax
                << "] of its element type";
        return failure();
      }
  }
  params.dimension = q->quantized_dimension();
  if (params.scales.size() > 1) {
    if (params.dimension < 0 || params.dimension >= type->getRank()) {
      error() << tensorDesc(index) << " has quantized_dimension "
              << params.dimension << " outside its rank " << type->getRank();
      return failure();
    }
    if (type->getDimSize(params.dimension) !=
        static_cast<int64_t>(params.scales.size())) {
      error() << tensorDesc(index) << " has " << params.scales.size()
              << " scales but dimension " << params.dimension << " has size "
              << type->getDimSize(params.dimension);
      return failure();
    }
  }
  return params;
}

FailureOr<std::pair<float, int32_t>> Importer::getPerTensor(int32_t index) {
  FailureOr<QuantParams> q = getQuant(index);
  if (failed(q))
    return failure();
  if (!q->isPerTensor()) {
    error() << tensorDesc(index) << " has " << q->scales.size()
            << " per-channel scales; this operator needs per-tensor "
               "quantization";
    return failure();
  }
  return std::make_pair(q->scales[0], static_cast<int32_t>(q->zeroPoints[0]));
}

FailureOr<DenseElementsAttr> Importer::getConstant(int32_t index,
                                                   bool required) {
  FailureOr<RankedTensorType> type = getType(index);
  if (failed(type))
    return failure();
  uint32_t bufferIndex = tensors()->Get(index)->buffer();
  const auto *buffers = model->buffers();
  const tfl::Buffer *buffer = nullptr;
  if (bufferIndex != 0) {
    if (!buffers || bufferIndex >= buffers->size()) {
      error() << tensorDesc(index) << " refers to buffer " << bufferIndex
              << " but the model has " << (buffers ? buffers->size() : 0)
              << " buffers";
      return failure();
    }
    buffer = buffers->Get(bufferIndex);
  }
  if (buffer && buffer->offset() > 1) {
    error() << tensorDesc(index) << " stores its data outside the flatbuffer "
            << "(buffer " << bufferIndex << "); this is not supported";
    return failure();
  }
  if (!buffer || !buffer->data() || buffer->data()->size() == 0) {
    if (required) {
      error() << tensorDesc(index) << " must be a constant but has no data "
              << "(buffer " << bufferIndex << ")";
      return failure();
    }
    return DenseElementsAttr();
  }
  int64_t elementBytes = type->getElementTypeBitWidth() / 8;
  int64_t expected = type->getNumElements() * elementBytes;
  if (static_cast<int64_t>(buffer->data()->size()) != expected) {
    error() << tensorDesc(index) << " has shape " << type->getShape().size()
            << "-D with " << type->getNumElements() << " elements (" << expected
            << " bytes) but its buffer " << bufferIndex << " holds "
            << buffer->data()->size() << " bytes";
    return failure();
  }
  ArrayRef<char> raw(reinterpret_cast<const char *>(buffer->data()->data()),
                     buffer->data()->size());
  // Whole-byte integers are stored as the attribute stores them (little
  // endian, packed): the attribute copies the buffer into storage of its
  // own, aligned. A buffer of one repeated value becomes a splat, as
  // DenseElementsAttr::get would make it. (Element by element through
  // APInt, MobileNet v2's 3.5 M weights took 65 ms of its import.)
  if (auto intType = dyn_cast<IntegerType>(type->getElementType());
      intType && llvm::endianness::native == llvm::endianness::little &&
      intType.getWidth() % 8 == 0 && elementBytes > 0) {
    bool splat = true;
    for (int64_t at = elementBytes; splat && at < expected; at += elementBytes)
      splat = std::memcmp(raw.data(), raw.data() + at, elementBytes) == 0;
    return DenseElementsAttr::getFromRawBuffer(
        *type, splat ? raw.take_front(elementBytes) : raw);
  }
  // Rebuild through APInt/APFloat so that the attribute owns aligned data.
  if (auto intType = dyn_cast<IntegerType>(type->getElementType())) {
    SmallVector<APInt> ints;
    ints.reserve(type->getNumElements());
    unsigned width = intType.getWidth();
    for (int64_t i = 0, e = type->getNumElements(); i < e; ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, raw.data() + i * elementBytes, elementBytes);
      ints.push_back(APInt(width, bits));
    }
    return DenseElementsAttr::get(*type, ints);
  }
  SmallVector<float> floats(type->getNumElements());
  std::memcpy(floats.data(), raw.data(), raw.size());
  return DenseElementsAttr::get(*type, ArrayRef<float>(floats));
}

FailureOr<SmallVector<int64_t>> Importer::getIntConstant(int32_t index) {
  FailureOr<DenseElementsAttr> attr = getConstant(index, /*required=*/true);
  if (failed(attr))
    return failure();
  auto intType = dyn_cast<IntegerType>(attr->getElementType());
  if (!intType || (intType.getWidth() != 32 && intType.getWidth() != 64)) {
    error() << tensorDesc(index) << " must be an INT32 or INT64 constant";
    return failure();
  }
  SmallVector<int64_t> result;
  for (const APInt &v : attr->getValues<APInt>())
    result.push_back(v.getSExtValue());
  return result;
}

FailureOr<Value> Importer::getValue(int32_t index) {
  if (failed(getTensor(index)))
    return failure();
  if (values[index])
    return values[index];
  FailureOr<DenseElementsAttr> attr = getConstant(index, /*required=*/false);
  if (failed(attr))
    return failure();
  if (!*attr) {
    error() << tensorDesc(index) << " is read before any operator produces it "
            << "and is neither a subgraph input nor a constant";
    return failure();
  }
  // Constants go at the start of the function so any operator can use them.
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(builder.getInsertionBlock());
  Value value =
      arith::ConstantOp::create(builder, tensorLoc(index), *attr).getResult();
  values[index] = value;
  return value;
}

LogicalResult Importer::setOutput(size_t i, Value value) {
  int32_t index = output(i);
  FailureOr<RankedTensorType> type = getType(index);
  if (failed(type))
    return failure();
  if (value.getType() != *type) {
    error() << "the result has type " << value.getType() << " but output "
            << tensorDesc(index) << " has type " << *type;
    return failure();
  }
  if (values[index]) {
    error() << tensorDesc(index) << " is written by more than one operator";
    return failure();
  }
  values[index] = value;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value Importer::clamp(Value value, int64_t lo, int64_t hi) {
  auto type = cast<RankedTensorType>(value.getType());
  auto elementType = cast<IntegerType>(type.getElementType());
  return tosa::ClampOp::create(builder, opLoc, type, value,
                               builder.getIntegerAttr(elementType, lo),
                               builder.getIntegerAttr(elementType, hi))
      .getResult();
}

FailureOr<Value> Importer::applyActivation(Value value,
                                           tfl::ActivationFunctionType act,
                                           int32_t outputIndex) {
  if (act == tfl::ActivationFunctionType::NONE)
    return value;
  FailureOr<std::pair<float, int32_t>> q = getPerTensor(outputIndex);
  if (failed(q))
    return failure();
  auto type = cast<RankedTensorType>(value.getType());
  auto intType = dyn_cast<IntegerType>(type.getElementType());
  if (!intType) {
    error() << "fused activation on a non-integer result";
    return failure();
  }
  int64_t qmin, qmax;
  std::tie(qmin, qmax) = getStorageRange(intType);
  float scale;
  int32_t zp;
  std::tie(scale, zp) = *q;
  // TFLite: zero_point + static_cast<int32_t>(TfLiteRound(f / scale)),
  // which the storage range then bounds; computed so that a tiny scale
  // cannot overflow the conversion.
  auto quantize = [&](float f) -> int64_t {
    double q = std::round(static_cast<double>(f) / scale);
    return static_cast<int64_t>(zp) +
           static_cast<int64_t>(std::clamp(q, -0x1p40, 0x1p40));
  };
  int64_t lo = qmin, hi = qmax;
  switch (act) {
  case tfl::ActivationFunctionType::RELU:
    lo = std::max<int64_t>(qmin, quantize(0.0f));
    break;
  case tfl::ActivationFunctionType::RELU6:
    lo = std::max<int64_t>(qmin, quantize(0.0f));
    hi = std::min<int64_t>(qmax, quantize(6.0f));
    break;
  case tfl::ActivationFunctionType::RELU_N1_TO_1:
    lo = std::max<int64_t>(qmin, quantize(-1.0f));
    hi = std::min<int64_t>(qmax, quantize(1.0f));
    break;
  default:
    error() << "fused activation " << tfl::EnumNameActivationFunctionType(act)
            << " (" << static_cast<int>(act) << ") is not supported";
    return failure();
  }
  if (lo > hi) {
    error() << "fused activation range [" << lo << ", " << hi
            << "] is empty for output " << tensorDesc(outputIndex);
    return failure();
  }
  if (lo == qmin && hi == qmax)
    return value;
  return clamp(value, lo, hi);
}

Value Importer::reshape(Value value, RankedTensorType type, Location loc) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source == type)
    return value;
  if (source.getRank() != type.getRank()) {
    bool collapse = source.getRank() > type.getRank();
    std::optional<SmallVector<ReassociationIndices>> reassociation =
        collapse ? getReassociationIndicesForReshape(source, type)
                 : getReassociationIndicesForReshape(type, source);
    if (reassociation && !reassociation->empty()) {
      if (collapse)
        return tensor::CollapseShapeOp::create(builder, loc, type, value,
                                               *reassociation)
            .getResult();
      return tensor::ExpandShapeOp::create(builder, loc, type, value,
                                           *reassociation)
          .getResult();
    }
  }
  auto shapeType =
      RankedTensorType::get({type.getRank()}, builder.getIntegerType(64));
  Value shape = arith::ConstantOp::create(
      builder, loc, DenseIntElementsAttr::get(shapeType, type.getShape()));
  return tensor::ReshapeOp::create(builder, loc, type, value, shape)
      .getResult();
}

LogicalResult Importer::checkArity(size_t minInputs, size_t maxInputs,
                                   size_t outputs) {
  size_t numInputs = currentOp->inputs() ? currentOp->inputs()->size() : 0;
  size_t numOutputs = currentOp->outputs() ? currentOp->outputs()->size() : 0;
  if (numInputs < minInputs || numInputs > maxInputs) {
    error() << "has " << numInputs << " inputs; expected "
            << (minInputs == maxInputs ? std::to_string(minInputs)
                                       : std::to_string(minInputs) + " to " +
                                             std::to_string(maxInputs));
    return failure();
  }
  for (size_t i = 0; i < minInputs; ++i)
    if (currentOp->inputs()->Get(i) < 0) {
      error() << "input " << i << " is missing (index -1)";
      return failure();
    }
  if (outputs != 0 && numOutputs != outputs) {
    error() << "has " << numOutputs << " outputs; expected " << outputs;
    return failure();
  }
  if (numOutputs == 0) {
    error() << "has no outputs";
    return failure();
  }
  return success();
}

/// TFLite's ComputePaddingHeightWidth for one dimension: returns the output
/// size and the [before, after] padding (total / 2 before, the rest after).
static std::optional<std::tuple<int64_t, int64_t, int64_t>>
computePadding(tfl::Padding padding, int64_t in, int64_t filter, int64_t stride,
               int64_t dilation) {
  if (stride < 1 || dilation < 1 || filter < 1)
    return std::nullopt;
  int64_t effective = (filter - 1) * dilation + 1;
  int64_t out = padding == tfl::Padding::SAME
                    ? (in + stride - 1) / stride
                    : (in + stride - effective) / stride;
  if (out < 1)
    return std::nullopt;
  int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return std::make_tuple(out, total / 2, total - total / 2);
}

//===----------------------------------------------------------------------===//
// Convolutions and fully connected
//===----------------------------------------------------------------------===//

LogicalResult Importer::finishAccumulator(Value acc, float inputScale,
                                          const QuantParams &weightQuant,
                                          int64_t channels, int64_t axis,
                                          tfl::ActivationFunctionType act,
                                          RankedTensorType accFinalType,
                                          Value *result, int biasIndex) {
  auto accType = cast<RankedTensorType>(acc.getType());
  if (hasInput(biasIndex)) {
    FailureOr<RankedTensorType> biasType = getType(input(biasIndex));
    if (failed(biasType))
      return failure();
    if (!biasType->getElementType().isInteger(32)) {
      error() << "bias " << tensorDesc(input(biasIndex)) << " has element type "
              << biasType->getElementType() << "; only INT32 biases are "
              << "supported";
      return failure();
    }
    if (biasType->getNumElements() != channels) {
      error() << "bias " << tensorDesc(input(biasIndex)) << " has "
              << biasType->getNumElements() << " elements but there are "
              << channels << " output channels";
      return failure();
    }
    // The bias quantization (and its quantized_dimension) is ignored, as in
    // TFLite: its scale is input_scale * weight_scale by construction.
    FailureOr<DenseElementsAttr> bias = getConstant(input(biasIndex), true);
    if (failed(bias))
      return failure();
    SmallVector<int64_t> shape(accType.getRank(), 1);
    shape[axis] = channels;
    auto shapedType = RankedTensorType::get(shape, builder.getI32Type());
    Value biasValue = arith::ConstantOp::create(builder, tensorLoc(input(biasIndex)),
                                                bias->reshape(shapedType));
    acc = tosa::AddOp::create(builder, opLoc, accType, acc, biasValue)
              .getResult();
  }
  FailureOr<std::pair<float, int32_t>> outQuant = getPerTensor(output(0));
  if (failed(outQuant))
    return failure();
  SmallVector<double> requantScales;
  for (float ws : weightQuant.scales)
    requantScales.push_back(static_cast<double>(inputScale) *
                            static_cast<double>(ws));
  auto resultType =
      RankedTensorType::get(accType.getShape(), accFinalType.getElementType());
  auto requant = RequantizeOp::create(
      builder, opLoc, resultType, acc,
      builder.getDenseF64ArrayAttr(requantScales), builder.getI32IntegerAttr(0),
      builder.getF32FloatAttr(outQuant->first),
      builder.getI32IntegerAttr(outQuant->second),
      requantScales.size() > 1 ? builder.getI64IntegerAttr(axis)
                               : IntegerAttr(),
      roundingAttr());
  FailureOr<Value> activated =
      applyActivation(requant.getResult(), act, output(0));
  if (failed(activated))
    return failure();
  *result = *activated;
  return success();
}

/// The single weight zero point that qnn.conv2d / qnn.dense accept.
static std::optional<int32_t> uniformZeroPoint(const QuantParams &q) {
  for (int64_t zp : q.zeroPoints)
    if (zp != q.zeroPoints[0])
      return std::nullopt;
  return static_cast<int32_t>(q.zeroPoints[0]);
}

/// The one zero point of a convolution filter quantized per tensor or per
/// output channel (along `dimension`, `channels` of them).
FailureOr<int32_t> Importer::filterZeroPoint(int32_t index,
                                             const QuantParams &q,
                                             int64_t dimension,
                                             int64_t channels) {
  if (!q.isPerTensor() &&
      (q.dimension != dimension ||
       static_cast<int64_t>(q.scales.size()) != channels)) {
    error() << "filter " << tensorDesc(input(index))
            << " is quantized per channel along dimension " << q.dimension
            << "; expected the output-channel dimension " << dimension;
    return failure();
  }
  std::optional<int32_t> zp = uniformZeroPoint(q);
  if (!zp) {
    error() << "filter " << tensorDesc(input(index))
            << " has differing per-channel zero points; only one weight "
               "zero point is supported";
    return failure();
  }
  return *zp;
}

LogicalResult Importer::importConv(bool depthwise) {
  if (failed(checkArity(2, 3, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> wType = getType(input(1));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(wType) || failed(outType))
    return failure();
  if (inType->getRank() != 4 || wType->getRank() != 4 ||
      outType->getRank() != 4) {
    error() << "expects rank-4 input, filter and output, got " << *inType
            << ", " << *wType << ", " << *outType;
    return failure();
  }
  tfl::Padding padding;
  int64_t strideH, strideW, dilH, dilW;
  tfl::ActivationFunctionType act;
  if (depthwise) {
    const auto *opts = currentOp->builtin_options_as_DepthwiseConv2DOptions();
    if (!opts) {
      error() << "has no DepthwiseConv2DOptions";
      return failure();
    }
    padding = opts->padding();
    strideH = opts->stride_h();
    strideW = opts->stride_w();
    dilH = opts->dilation_h_factor();
    dilW = opts->dilation_w_factor();
    act = opts->fused_activation_function();
  } else {
    const auto *opts = currentOp->builtin_options_as_Conv2DOptions();
    if (!opts) {
      error() << "has no Conv2DOptions";
      return failure();
    }
    padding = opts->padding();
    strideH = opts->stride_h();
    strideW = opts->stride_w();
    dilH = opts->dilation_h_factor();
    dilW = opts->dilation_w_factor();
    act = opts->fused_activation_function();
  }
  int64_t channels = inType->getDimSize(3);
  int64_t outChannels = wType->getDimSize(depthwise ? 3 : 0);
  int64_t kh = wType->getDimSize(1), kw = wType->getDimSize(2);
  int64_t groups = 1;
  if (depthwise) {
    if (wType->getDimSize(0) != 1 || channels == 0 ||
        outChannels % channels != 0) {
      error() << "depthwise filter " << *wType << " does not fit input "
              << *inType << " (expected [1, KH, KW, C * multiplier])";
      return failure();
    }
    groups = channels;
  } else if (wType->getDimSize(3) != channels) {
    error() << "filter " << *wType << " has " << wType->getDimSize(3)
            << " input channels but the input has " << channels;
    return failure();
  }
  auto ph = computePadding(padding, inType->getDimSize(1), kh, strideH, dilH);
  auto pw = computePadding(padding, inType->getDimSize(2), kw, strideW, dilW);
  if (!ph || !pw) {
    error() << "invalid window: strides " << strideH << "x" << strideW
            << ", dilations " << dilH << "x" << dilW << ", filter " << kh << "x"
            << kw << " on input " << *inType;
    return failure();
  }
  auto [oh, padTop, padBottom] = *ph;
  auto [ow, padLeft, padRight] = *pw;
  if (outType->getDimSize(0) != inType->getDimSize(0) ||
      outType->getDimSize(1) != oh || outType->getDimSize(2) != ow ||
      outType->getDimSize(3) != outChannels) {
    error() << "output " << tensorDesc(output(0)) << " has shape " << *outType
            << " but the convolution produces [" << inType->getDimSize(0)
            << ", " << oh << ", " << ow << ", " << outChannels << "]";
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> inQuant = getPerTensor(input(0));
  FailureOr<QuantParams> wQuant = getQuant(input(1));
  if (failed(inQuant) || failed(wQuant))
    return failure();
  FailureOr<int32_t> wZp =
      filterZeroPoint(1, *wQuant, depthwise ? 3 : 0, outChannels);
  if (failed(wZp))
    return failure();
  FailureOr<Value> in = getValue(input(0));
  FailureOr<Value> w = getValue(input(1));
  if (failed(in) || failed(w))
    return failure();
  auto accType = RankedTensorType::get(
      {inType->getDimSize(0), oh, ow, outChannels}, builder.getI32Type());
  auto conv = Conv2DOp::create(
      builder, opLoc, accType, *in, *w, builder.getF32FloatAttr(inQuant->first),
      builder.getI32IntegerAttr(inQuant->second),
      builder.getDenseF32ArrayAttr(wQuant->scales),
      builder.getI32IntegerAttr(*wZp),
      builder.getDenseI64ArrayAttr({strideH, strideW}),
      builder.getDenseI64ArrayAttr({padTop, padLeft, padBottom, padRight}),
      builder.getDenseI64ArrayAttr({dilH, dilW}),
      builder.getI64IntegerAttr(groups),
      ActivationLayoutAttr::get(context, ActivationLayout::NHWC),
      KernelLayoutAttr::get(context, depthwise ? KernelLayout::IHWO
                                               : KernelLayout::OHWI));
  Value result;
  if (failed(finishAccumulator(conv.getResult(), inQuant->first, *wQuant,
                               outChannels, 3, act, *outType, &result)))
    return failure();
  return setOutput(0, result);
}

/// TRANSPOSE_CONV (output_shape, weights [O, KH, KW, I], input, bias): the
/// scatter-accumulate of TFLite's kernel is the correlation of the input
/// with zero points inserted between its pixels (stride - 1 of them), padded
/// by (K - 1 - pad) before, with the spatially flipped weights: a
/// qnn.conv2d, whose integer sums are exactly TFLite's, followed by its
/// bias, per-channel requantize and activation. The npu fusion then makes
/// it an npu.conv2d on the upsampled input.
LogicalResult Importer::importTransposeConv() {
  if (failed(checkArity(3, 4, 1)))
    return failure();
  const auto *opts = currentOp->builtin_options_as_TransposeConvOptions();
  if (!opts) {
    error() << "has no TransposeConvOptions";
    return failure();
  }
  int64_t sh = opts->stride_h(), sw = opts->stride_w();
  if (sh < 1 || sw < 1 || sh > 4096 || sw > 4096) {
    error() << "strides " << sh << "x" << sw << " must be in [1, 4096]";
    return failure();
  }
  FailureOr<RankedTensorType> wType = getType(input(1));
  FailureOr<RankedTensorType> inType = getType(input(2));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(wType) || failed(outType))
    return failure();
  if (inType->getRank() != 4 || wType->getRank() != 4 ||
      outType->getRank() != 4) {
    error() << "expects rank-4 input, filter and output, got " << *inType
            << ", " << *wType << ", " << *outType;
    return failure();
  }
  FailureOr<SmallVector<int64_t>> shapeValues = getIntConstant(input(0));
  if (failed(shapeValues))
    return failure();
  SmallVector<int64_t> outShape = *shapeValues;
  if (outShape != SmallVector<int64_t>(outType->getShape())) {
    error() << "output_shape " << tensorDesc(input(0))
            << " does not match the output " << *outType;
    return failure();
  }
  int64_t n = inType->getDimSize(0), h = inType->getDimSize(1),
          w = inType->getDimSize(2), c = inType->getDimSize(3);
  int64_t o = wType->getDimSize(0), kh = wType->getDimSize(1),
          kw = wType->getDimSize(2);
  int64_t oh = outShape[1], ow = outShape[2];
  if (!wType->getElementType().isInteger(8) ||
      !inType->getElementType().isInteger(8)) {
    error() << "filter " << *wType << " and input " << *inType
            << " must be quantized to 8 bits";
    return failure();
  }
  if (wType->getDimSize(3) != c || outShape[0] != n || outShape[3] != o) {
    error() << "filter " << *wType << ", input " << *inType << " and output "
            << *outType << " do not agree ([O, KH, KW, I], [N, H, W, I], "
            << "[N, OH, OW, O])";
    return failure();
  }
  // TFLite pads as a convolution from the output back to the input would.
  auto ph = computePadding(opts->padding(), oh, kh, sh, 1);
  auto pw = computePadding(opts->padding(), ow, kw, sw, 1);
  if (!ph || !pw) {
    error() << "invalid window: strides " << sh << "x" << sw << ", filter "
            << kh << "x" << kw << " for output " << *outType;
    return failure();
  }
  int64_t padTop = std::get<1>(*ph), padLeft = std::get<1>(*pw);
  // The correlation's padding around the upsampled input of
  // (h - 1) * sh + 1 rows.
  int64_t top = kh - 1 - padTop, left = kw - 1 - padLeft;
  int64_t bottom = oh + kh - 1 - top - ((h - 1) * sh + 1);
  int64_t right = ow + kw - 1 - left - ((w - 1) * sw + 1);
  if (top < 0 || left < 0 || bottom < 0 || right < 0) {
    error() << "input " << *inType << " does not fit the output " << *outType
            << " with strides " << sh << "x" << sw << " and filter " << kh
            << "x" << kw;
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> inQuant = getPerTensor(input(2));
  FailureOr<QuantParams> wQuant = getQuant(input(1));
  if (failed(inQuant) || failed(wQuant))
    return failure();
  FailureOr<int32_t> wZp = filterZeroPoint(1, *wQuant, 0, o);
  if (failed(wZp))
    return failure();
  FailureOr<DenseElementsAttr> weights = getConstant(input(1), true);
  FailureOr<Value> in = getValue(input(2));
  if (failed(weights) || failed(in))
    return failure();
  // Flip the filter in H and W.
  SmallVector<APInt> values(weights->getValues<APInt>());
  SmallVector<APInt> flipped(values.size());
  for (int64_t oc = 0; oc < o; ++oc)
    for (int64_t y = 0; y < kh; ++y)
      for (int64_t x = 0; x < kw; ++x)
        for (int64_t ic = 0; ic < c; ++ic)
          flipped[((oc * kh + (kh - 1 - y)) * kw + (kw - 1 - x)) * c + ic] =
              values[((oc * kh + y) * kw + x) * c + ic];
  Value flippedW = arith::ConstantOp::create(
      builder, tensorLoc(input(1)),
      DenseElementsAttr::get(weights->getType(), flipped));
  // Upsample: [N, H, W, C] -> [N, H, 1, W, 1, C] -> pad the unit dims to the
  // strides with the zero point -> [N, H * sh, W * sw, C] -> the first
  // (H - 1) * sh + 1 rows and (W - 1) * sw + 1 columns.
  Type elem = inType->getElementType();
  Value x = *in;
  if (sh > 1 || sw > 1) {
    auto six = RankedTensorType::get({n, h, 1, w, 1, c}, elem);
    SmallVector<ReassociationIndices> groups = {{0}, {1, 2}, {3, 4}, {5}};
    x = tensor::ExpandShapeOp::create(builder, opLoc, six, x, groups);
    auto padded = RankedTensorType::get({n, h, sh, w, sw, c}, elem);
    SmallVector<OpFoldResult> low(6, builder.getIndexAttr(0)),
        high(6, builder.getIndexAttr(0));
    high[2] = builder.getIndexAttr(sh - 1);
    high[4] = builder.getIndexAttr(sw - 1);
    Value zp = arith::ConstantOp::create(
        builder, opLoc,
        builder.getIntegerAttr(elem, APInt(8, static_cast<uint64_t>(
                                                  inQuant->second & 0xff))));
    x = tensor::PadOp::create(builder, opLoc, padded, x, low, high, zp);
    auto wide = RankedTensorType::get({n, h * sh, w * sw, c}, elem);
    x = tensor::CollapseShapeOp::create(builder, opLoc, wide, x, groups);
    SmallVector<OpFoldResult> offsets(4, builder.getIndexAttr(0)),
        sizes = {builder.getIndexAttr(n),
                 builder.getIndexAttr((h - 1) * sh + 1),
                 builder.getIndexAttr((w - 1) * sw + 1),
                 builder.getIndexAttr(c)},
        ones(4, builder.getIndexAttr(1));
    x = tensor::ExtractSliceOp::create(builder, opLoc, x, offsets, sizes, ones);
  }
  auto accType = RankedTensorType::get({n, oh, ow, o}, builder.getI32Type());
  auto conv = Conv2DOp::create(
      builder, opLoc, accType, x, flippedW,
      builder.getF32FloatAttr(inQuant->first),
      builder.getI32IntegerAttr(inQuant->second),
      builder.getDenseF32ArrayAttr(wQuant->scales),
      builder.getI32IntegerAttr(*wZp), builder.getDenseI64ArrayAttr({1, 1}),
      builder.getDenseI64ArrayAttr({top, left, bottom, right}),
      builder.getDenseI64ArrayAttr({1, 1}), builder.getI64IntegerAttr(1),
      ActivationLayoutAttr::get(context, ActivationLayout::NHWC),
      KernelLayoutAttr::get(context, KernelLayout::OHWI));
  Value result;
  if (failed(finishAccumulator(conv.getResult(), inQuant->first, *wQuant, o, 3,
                               opts->fused_activation_function(), *outType,
                               &result, /*biasIndex=*/3)))
    return failure();
  return setOutput(0, result);
}

LogicalResult Importer::importFullyConnected() {
  if (failed(checkArity(2, 3, 1)))
    return failure();
  const auto *opts = currentOp->builtin_options_as_FullyConnectedOptions();
  tfl::ActivationFunctionType act = opts ? opts->fused_activation_function()
                                         : tfl::ActivationFunctionType::NONE;
  if (opts && opts->weights_format() != 0) {
    error() << "shuffled weights formats are not supported";
    return failure();
  }
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> wType = getType(input(1));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(wType) || failed(outType))
    return failure();
  if (wType->getRank() != 2) {
    error() << "expects a rank-2 weight [O, K], got " << *wType;
    return failure();
  }
  int64_t outChannels = wType->getDimSize(0), depth = wType->getDimSize(1);
  int64_t total = inType->getNumElements();
  if (depth == 0 || total % depth != 0) {
    error() << "input " << *inType << " does not divide into rows of " << depth
            << " (the weight's K)";
    return failure();
  }
  int64_t batch = total / depth;
  if (outType->getNumElements() != batch * outChannels) {
    error() << "output " << tensorDesc(output(0)) << " has shape " << *outType
            << " but the layer produces " << batch << "x" << outChannels;
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> inQuant = getPerTensor(input(0));
  FailureOr<QuantParams> wQuant = getQuant(input(1));
  if (failed(inQuant) || failed(wQuant))
    return failure();
  if (!wQuant->isPerTensor() && wQuant->dimension != 0) {
    error() << "weight " << tensorDesc(input(1)) << " is quantized per channel "
            << "along dimension " << wQuant->dimension << "; expected 0";
    return failure();
  }
  std::optional<int32_t> wZp = uniformZeroPoint(*wQuant);
  if (!wZp) {
    error() << "weight " << tensorDesc(input(1))
            << " has differing per-channel "
            << "zero points";
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  FailureOr<Value> w = getValue(input(1));
  if (failed(in) || failed(w))
    return failure();
  Value flat = reshape(
      *in, RankedTensorType::get({batch, depth}, inType->getElementType()),
      opLoc);
  auto accType =
      RankedTensorType::get({batch, outChannels}, builder.getI32Type());
  auto dense = DenseOp::create(builder, opLoc, accType, flat, *w,
                               builder.getF32FloatAttr(inQuant->first),
                               builder.getI32IntegerAttr(inQuant->second),
                               builder.getDenseF32ArrayAttr(wQuant->scales),
                               builder.getI32IntegerAttr(*wZp));
  Value result;
  if (failed(finishAccumulator(dense.getResult(), inQuant->first, *wQuant,
                               outChannels, 1, act, *outType, &result)))
    return failure();
  return setOutput(0, reshape(result, *outType, opLoc));
}

//===----------------------------------------------------------------------===//
// Elementwise, pooling, concatenation
//===----------------------------------------------------------------------===//

LogicalResult Importer::importBinary(tfl::BuiltinOperator code) {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  using B = tfl::BuiltinOperator;
  tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE;
  if (code == B::ADD) {
    if (const auto *opts = currentOp->builtin_options_as_AddOptions())
      act = opts->fused_activation_function();
  } else if (code == B::SUB) {
    if (const auto *opts = currentOp->builtin_options_as_SubOptions())
      act = opts->fused_activation_function();
  } else if (code == B::DIV) {
    if (const auto *opts = currentOp->builtin_options_as_DivOptions())
      act = opts->fused_activation_function();
  } else if (const auto *opts = currentOp->builtin_options_as_MulOptions()) {
    act = opts->fused_activation_function();
  }
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<std::pair<float, int32_t>> lq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> rq = getPerTensor(input(1));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  if (failed(outType) || failed(lq) || failed(rq) || failed(oq))
    return failure();
  FailureOr<Value> lhs = getValue(input(0));
  FailureOr<Value> rhs = getValue(input(1));
  if (failed(lhs) || failed(rhs))
    return failure();
  auto build = [&](auto opTag) {
    using OpTy = decltype(opTag);
    return OpTy::create(builder, opLoc, *outType, *lhs, *rhs,
                        builder.getF32FloatAttr(lq->first),
                        builder.getI32IntegerAttr(lq->second),
                        builder.getF32FloatAttr(rq->first),
                        builder.getI32IntegerAttr(rq->second),
                        builder.getF32FloatAttr(oq->first),
                        builder.getI32IntegerAttr(oq->second), roundingAttr())
        .getResult();
  };
  Value result = code == B::ADD   ? build(AddOp())
                 : code == B::SUB ? build(SubtractOp())
                 : code == B::SQUARED_DIFFERENCE
                     ? build(SquaredDifferenceOp())
                 : code == B::DIV ? build(DivOp())
                                  : build(MulOp());
  FailureOr<Value> activated = applyActivation(result, act, output(0));
  if (failed(activated))
    return failure();
  return setOutput(0, *activated);
}

LogicalResult Importer::importPool(bool average) {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  const auto *opts = currentOp->builtin_options_as_Pool2DOptions();
  if (!opts) {
    error() << "has no Pool2DOptions";
    return failure();
  }
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  if (inType->getRank() != 4 || outType->getRank() != 4) {
    error() << "expects rank-4 input and output";
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  if (failed(iq) || failed(oq))
    return failure();
  if (*iq != *oq) {
    error() << "input and output quantization differ (scale " << iq->first
            << " zero point " << iq->second << " vs scale " << oq->first
            << " zero point " << oq->second << "); TFLite's quantized pooling "
            << "requires them equal";
    return failure();
  }
  int64_t kh = opts->filter_height(), kw = opts->filter_width();
  auto ph = computePadding(opts->padding(), inType->getDimSize(1), kh,
                           opts->stride_h(), 1);
  auto pw = computePadding(opts->padding(), inType->getDimSize(2), kw,
                           opts->stride_w(), 1);
  if (!ph || !pw) {
    error() << "invalid pooling window " << kh << "x" << kw << " strides "
            << opts->stride_h() << "x" << opts->stride_w();
    return failure();
  }
  auto [oh, padTop, padBottom] = *ph;
  auto [ow, padLeft, padRight] = *pw;
  if (outType->getDimSize(0) != inType->getDimSize(0) ||
      outType->getDimSize(1) != oh || outType->getDimSize(2) != ow ||
      outType->getDimSize(3) != inType->getDimSize(3)) {
    error() << "output " << tensorDesc(output(0)) << " has shape " << *outType
            << " but pooling produces [" << inType->getDimSize(0) << ", " << oh
            << ", " << ow << ", " << inType->getDimSize(3) << "]";
    return failure();
  }
  if (padTop >= kh || padBottom >= kh || padLeft >= kw || padRight >= kw) {
    error() << "padding is not smaller than the pooling window";
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  auto kernel = builder.getDenseI64ArrayAttr({kh, kw});
  auto strides = builder.getDenseI64ArrayAttr(
      {int64_t(opts->stride_h()), int64_t(opts->stride_w())});
  auto pads =
      builder.getDenseI64ArrayAttr({padTop, padLeft, padBottom, padRight});
  auto layout = ActivationLayoutAttr::get(context, ActivationLayout::NHWC);
  Value result = average ? AvgPool2DOp::create(builder, opLoc, *outType, *in,
                                               kernel, strides, pads, layout)
                               .getResult()
                         : MaxPool2DOp::create(builder, opLoc, *outType, *in,
                                               kernel, strides, pads, layout)
                               .getResult();
  FailureOr<Value> activated =
      applyActivation(result, opts->fused_activation_function(), output(0));
  if (failed(activated))
    return failure();
  return setOutput(0, *activated);
}

LogicalResult Importer::importConcatenation() {
  if (failed(checkArity(1, 1 << 16, 1)))
    return failure();
  const auto *opts = currentOp->builtin_options_as_ConcatenationOptions();
  if (!opts) {
    error() << "has no ConcatenationOptions";
    return failure();
  }
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  if (failed(outType) || failed(oq))
    return failure();
  int64_t axis = opts->axis();
  if (axis < 0)
    axis += outType->getRank();
  if (axis < 0 || axis >= outType->getRank()) {
    error() << "axis " << opts->axis() << " is out of range for rank "
            << outType->getRank();
    return failure();
  }
  SmallVector<Value> inputs;
  SmallVector<float> scales;
  SmallVector<int32_t> zps;
  for (size_t i = 0, e = currentOp->inputs()->size(); i < e; ++i) {
    FailureOr<std::pair<float, int32_t>> q = getPerTensor(input(i));
    if (failed(q))
      return failure();
    FailureOr<Value> v = getValue(input(i));
    if (failed(v))
      return failure();
    inputs.push_back(*v);
    scales.push_back(q->first);
    zps.push_back(q->second);
  }
  Value result = ConcatenateOp::create(builder, opLoc, *outType, inputs,
                                       builder.getI64IntegerAttr(axis),
                                       builder.getDenseF32ArrayAttr(scales),
                                       builder.getDenseI32ArrayAttr(zps),
                                       builder.getF32FloatAttr(oq->first),
                                       builder.getI32IntegerAttr(oq->second))
                     .getResult();
  FailureOr<Value> activated =
      applyActivation(result, opts->fused_activation_function(), output(0));
  if (failed(activated))
    return failure();
  return setOutput(0, *activated);
}

//===----------------------------------------------------------------------===//
// Shape operators
//===----------------------------------------------------------------------===//

LogicalResult Importer::importReshape() {
  // RESHAPE takes an optional shape tensor, SQUEEZE/EXPAND_DIMS one input
  // (plus an axis for EXPAND_DIMS); the output tensor's static shape decides.
  if (failed(checkArity(1, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  if (inType->getNumElements() != outType->getNumElements() ||
      inType->getElementType() != outType->getElementType()) {
    error() << "cannot reshape " << *inType << " into " << *outType;
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  return setOutput(0, reshape(*in, *outType, opLoc));
}

LogicalResult Importer::importTranspose() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> perm = getIntConstant(input(1));
  if (failed(inType) || failed(outType) || failed(perm))
    return failure();
  int64_t rank = inType->getRank();
  SmallVector<bool> seen(rank, false);
  SmallVector<int32_t> perms;
  SmallVector<int64_t> shape;
  if (static_cast<int64_t>(perm->size()) != rank) {
    error() << "permutation has " << perm->size() << " entries for rank "
            << rank;
    return failure();
  }
  for (int64_t p : *perm) {
    if (p < 0 || p >= rank || seen[p]) {
      error() << "invalid permutation entry " << p;
      return failure();
    }
    seen[p] = true;
    perms.push_back(static_cast<int32_t>(p));
    shape.push_back(inType->getDimSize(p));
  }
  if (ArrayRef<int64_t>(shape) != outType->getShape() ||
      inType->getElementType() != outType->getElementType()) {
    error() << "output " << tensorDesc(output(0)) << " has type " << *outType
            << " but the transpose produces shape of " << shape.size()
            << " dims";
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  Value result = tosa::TransposeOp::create(builder, opLoc, *outType, *in, perms)
                     .getResult();
  return setOutput(0, result);
}

LogicalResult Importer::importPad() {
  if (failed(checkArity(2, 3, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> pads = getIntConstant(input(1));
  if (failed(inType) || failed(outType) || failed(pads))
    return failure();
  int64_t rank = inType->getRank();
  if (outType->getRank() != rank) {
    error() << "input " << *inType << " and output " << *outType
            << " ranks differ";
    return failure();
  }
  if (static_cast<int64_t>(pads->size()) != 2 * rank) {
    error() << "paddings have " << pads->size() << " entries; expected "
            << 2 * rank << " ([rank, 2])";
    return failure();
  }
  SmallVector<int64_t> low, high;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = (*pads)[2 * d], hi = (*pads)[2 * d + 1];
    if (lo < 0 || hi < 0 ||
        inType->getDimSize(d) + lo + hi != outType->getDimSize(d)) {
      error() << "paddings [" << lo << ", " << hi << "] of dimension " << d
              << " do not map " << *inType << " to " << *outType;
      return failure();
    }
    low.push_back(lo);
    high.push_back(hi);
  }
  Type elementType = inType->getElementType();
  TypedAttr padAttr;
  if (auto intType = dyn_cast<IntegerType>(elementType)) {
    FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
    FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
    if (failed(iq) || failed(oq))
      return failure();
    if (*iq != *oq) {
      error() << "input and output quantization differ; a quantized PAD "
              << "must keep them";
      return failure();
    }
    int64_t padValue = iq->second;
    if (hasInput(2)) {
      FailureOr<DenseElementsAttr> cv = getConstant(input(2), true);
      if (failed(cv))
        return failure();
      if (cv->getNumElements() != 1 || cv->getElementType() != elementType) {
        error() << "constant_values must be one element of the input type";
        return failure();
      }
      APInt v = *cv->getValues<APInt>().begin();
      padValue = intType.isUnsigned() ? v.getZExtValue() : v.getSExtValue();
    }
    padAttr = builder.getIntegerAttr(intType, padValue);
  } else {
    float padValue = 0.0f;
    if (hasInput(2)) {
      FailureOr<DenseElementsAttr> cv = getConstant(input(2), true);
      if (failed(cv))
        return failure();
      if (cv->getNumElements() != 1 || cv->getElementType() != elementType) {
        error() << "constant_values must be one element of the input type";
        return failure();
      }
      padValue = (*cv->getValues<APFloat>().begin()).convertToFloat();
    }
    padAttr = builder.getFloatAttr(elementType, padValue);
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  Value padValue = arith::ConstantOp::create(builder, opLoc, padAttr);
  SmallVector<OpFoldResult> lowFold, highFold;
  for (int64_t d = 0; d < rank; ++d) {
    lowFold.push_back(builder.getIndexAttr(low[d]));
    highFold.push_back(builder.getIndexAttr(high[d]));
  }
  Value result = tensor::PadOp::create(builder, opLoc, *outType, *in, lowFold,
                                       highFold, padValue)
                     .getResult();
  return setOutput(0, result);
}

FailureOr<Value> Importer::emitSlice(Value in, RankedTensorType inType,
                                     ArrayRef<int64_t> offsets,
                                     ArrayRef<int64_t> sizes,
                                     ArrayRef<int64_t> strides,
                                     RankedTensorType outType) {
  SmallVector<OpFoldResult> o, z, s;
  for (size_t d = 0; d < offsets.size(); ++d) {
    o.push_back(builder.getIndexAttr(offsets[d]));
    z.push_back(builder.getIndexAttr(sizes[d]));
    s.push_back(builder.getIndexAttr(strides[d]));
  }
  auto sliceType = RankedTensorType::get(sizes, inType.getElementType());
  Value slice = tensor::ExtractSliceOp::create(builder, opLoc, sliceType, in,
                                               o, z, s)
                    .getResult();
  if (sliceType.getNumElements() != outType.getNumElements() ||
      sliceType.getElementType() != outType.getElementType()) {
    error() << "output has type " << outType << ", but the slice is "
            << sliceType;
    return failure();
  }
  return reshape(slice, outType, opLoc);
}

/// SLICE(input, begin, size) and STRIDED_SLICE(input, begin, end, strides)
/// with constant parameters: the values are copied (TFLite copies the
/// stored integers whatever the quantization), as tensor.extract_slice.
/// STRIDED_SLICE: begin/end masks, shrink_axis_mask, negative indices and
/// positive strides; ellipsis/new-axis masks, `offset` and negative strides
/// are refused.
LogicalResult Importer::importSlice(bool strided) {
  if (failed(checkArity(strided ? 4 : 3, strided ? 4 : 3, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> begin = getIntConstant(input(1));
  FailureOr<SmallVector<int64_t>> second = getIntConstant(input(2));
  if (failed(inType) || failed(outType) || failed(begin) || failed(second))
    return failure();
  int64_t rank = inType->getRank();
  SmallVector<int64_t> strides(rank, 1);
  if (strided) {
    FailureOr<SmallVector<int64_t>> s = getIntConstant(input(3));
    if (failed(s))
      return failure();
    strides = *s;
  }
  if (static_cast<int64_t>(begin->size()) != rank ||
      static_cast<int64_t>(second->size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank) {
    error() << "begin/" << (strided ? "end/strides" : "size")
            << " must have one entry per dimension of " << *inType;
    return failure();
  }
  int32_t beginMask = 0, endMask = 0, shrinkMask = 0;
  if (strided) {
    const auto *opts = currentOp->builtin_options_as_StridedSliceOptions();
    if (opts) {
      if (opts->ellipsis_mask() || opts->new_axis_mask() || opts->offset()) {
        error() << "STRIDED_SLICE with an ellipsis or new-axis mask or "
                   "'offset' is not supported";
        return failure();
      }
      beginMask = opts->begin_mask();
      endMask = opts->end_mask();
      shrinkMask = opts->shrink_axis_mask();
    }
  }
  SmallVector<int64_t> offsets, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = inType->getDimSize(d);
    int64_t b = (*begin)[d];
    if (strides[d] <= 0) {
      error() << "stride " << strides[d] << " in dimension " << d
              << " (positive strides only)";
      return failure();
    }
    if (!strided) {
      int64_t size = (*second)[d] == -1 ? dim - b : (*second)[d];
      if (b < 0 || size < 0 || b + size > dim) {
        error() << "slice [" << b << ", +" << (*second)[d]
                << ") is outside dimension " << d << " of size " << dim;
        return failure();
      }
      offsets.push_back(b);
      sizes.push_back(size);
      continue;
    }
    int64_t e = (*second)[d];
    if (beginMask & (1 << d))
      b = 0;
    if (endMask & (1 << d))
      e = dim;
    if (b < 0)
      b += dim;
    if (e < 0)
      e += dim;
    if (shrinkMask & (1 << d)) {
      if (b < 0 || b >= dim) {
        error() << "shrunk index " << (*begin)[d] << " is outside dimension "
                << d << " of size " << dim;
        return failure();
      }
      e = b + 1;
    }
    b = std::clamp<int64_t>(b, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    offsets.push_back(b);
    sizes.push_back(e > b ? (e - b + strides[d] - 1) / strides[d] : 0);
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  FailureOr<Value> result =
      emitSlice(*in, *inType, offsets, sizes, strides, *outType);
  if (failed(result))
    return failure();
  return setOutput(0, *result);
}

/// ARG_MAX / ARG_MIN over one constant axis of a quantized tensor, with an
/// INT32 or INT64 result (the output tensor's type): qnn.argmax/argmin.
LogicalResult Importer::importArg(bool isMax) {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> axisValues = getIntConstant(input(1));
  if (failed(inType) || failed(outType) || failed(axisValues))
    return failure();
  if (axisValues->size() != 1) {
    error() << "axis must have one element";
    return failure();
  }
  int64_t rank = inType->getRank();
  int64_t axis =
      (*axisValues)[0] < 0 ? (*axisValues)[0] + rank : (*axisValues)[0];
  if (axis < 0 || axis >= rank) {
    error() << "axis " << (*axisValues)[0] << " is out of range for "
            << *inType;
    return failure();
  }
  auto elem = dyn_cast<IntegerType>(inType->getElementType());
  if (!elem || elem.getWidth() != 8) {
    error() << "input " << *inType << " must be quantized to 8 bits";
    return failure();
  }
  Type outElem = outType->getElementType();
  if (!outElem.isInteger(32) && !outElem.isInteger(64)) {
    error() << "output " << *outType << " must be INT32 or INT64";
    return failure();
  }
  SmallVector<int64_t> shape(inType->getShape());
  shape.erase(shape.begin() + axis);
  auto resultType = RankedTensorType::get(shape, outElem);
  if (resultType != *outType) {
    error() << "output has type " << *outType << ", expected " << resultType;
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  auto axisAttr = builder.getI64IntegerAttr(axis);
  Value result =
      isMax ? ArgMaxOp::create(builder, opLoc, resultType, *in, axisAttr)
                  .getResult()
            : ArgMinOp::create(builder, opLoc, resultType, *in, axisAttr)
                  .getResult();
  return setOutput(0, result);
}

Value Importer::gatherRows(Value values, ArrayRef<int32_t> indices) {
  auto type = cast<RankedTensorType>(values.getType());
  int64_t n = type.getDimSize(0), w = static_cast<int64_t>(indices.size());
  SmallVector<int32_t> all;
  for (int64_t i = 0; i < n; ++i)
    llvm::append_range(all, indices);
  auto indexType = RankedTensorType::get({n, w}, builder.getI32Type());
  Value indexValue = arith::ConstantOp::create(
      builder, opLoc, DenseElementsAttr::get(indexType, ArrayRef(all)));
  auto resultType = RankedTensorType::get({n, w, type.getDimSize(2)},
                                          type.getElementType());
  return tosa::GatherOp::create(builder, opLoc, resultType, values, indexValue)
      .getResult();
}

/// MIRROR_PAD (REFLECT or SYMMETRIC, constant paddings): per padded
/// dimension, a tosa.gather of the mirrored source indices.
LogicalResult Importer::importMirrorPad() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> pads = getIntConstant(input(1));
  const auto *opts = currentOp->builtin_options_as_MirrorPadOptions();
  if (failed(inType) || failed(outType) || failed(pads))
    return failure();
  bool symmetric = opts && opts->mode() == tfl::MirrorPadMode::SYMMETRIC;
  int64_t rank = inType->getRank();
  if (static_cast<int64_t>(pads->size()) != 2 * rank) {
    error() << "paddings must be [" << rank << ", 2]";
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  Value v = *in;
  SmallVector<int64_t> shape(inType->getShape());
  Type elem = inType->getElementType();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = (*pads)[2 * d], hi = (*pads)[2 * d + 1], n = shape[d];
    // REFLECT excludes the edge (at most n - 1 values), SYMMETRIC repeats
    // it (at most n).
    int64_t limit = symmetric ? n : n - 1;
    if (lo < 0 || hi < 0 || lo > limit || hi > limit) {
      error() << "paddings [" << lo << ", " << hi << "] of dimension " << d
              << " (size " << n << ") must lie in [0, " << limit << "]";
      return failure();
    }
    if (lo == 0 && hi == 0)
      continue;
    SmallVector<int32_t> picks;
    for (int64_t p = -lo; p < n + hi; ++p) {
      int64_t s = p;
      if (p < 0)
        s = symmetric ? -p - 1 : -p;
      else if (p >= n)
        s = symmetric ? 2 * n - 1 - p : 2 * n - 2 - p;
      picks.push_back(static_cast<int32_t>(s));
    }
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < d; ++i)
      outer *= shape[i];
    for (int64_t i = d + 1; i < rank; ++i)
      inner *= shape[i];
    v = reshape(v, RankedTensorType::get({outer, n, inner}, elem), opLoc);
    v = gatherRows(v, picks);
    shape[d] = n + lo + hi;
    v = reshape(v, RankedTensorType::get(shape, elem), opLoc);
  }
  if (cast<RankedTensorType>(v.getType()) != *outType) {
    error() << "output has type " << *outType << ", expected "
            << v.getType();
    return failure();
  }
  return setOutput(0, v);
}

/// GATHER (batch_dims 0): params reshaped to [outer, K, inner], one
/// tosa.gather, reshaped to outer x indices x inner. Constant indices are
/// checked against K here, as TFLite checks them at run time. Indices
/// computed at run time (int32, or int16/int64 cast to i32) are clamped to
/// [0, K - 1] first (in their own type): TFLite fails the invocation for an index outside, a
/// compiled program has no error path and must not read outside the
/// tensor. With outer > 1 they gather the rows of the [K, outer * inner]
/// transpose.
LogicalResult Importer::importGather() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> idxType = getType(input(1));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(idxType) || failed(outType))
    return failure();
  const auto *opts = currentOp->builtin_options_as_GatherOptions();
  int64_t rank = inType->getRank();
  int64_t axis = opts ? opts->axis() : 0;
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank || (opts && opts->batch_dims() != 0)) {
    error() << "GATHER axis " << (opts ? opts->axis() : 0)
            << " / batch_dims must address " << *inType << " with 0 batch "
            << "dimensions";
    return failure();
  }
  Type idxElem = idxType->getElementType();
  if (!idxElem.isSignlessInteger(16) && !idxElem.isSignlessInteger(32) &&
      !idxElem.isSignlessInteger(64)) {
    error() << "GATHER indices of type " << *idxType
            << " are not supported (int16, int32 or int64)";
    return failure();
  }
  int64_t k = inType->getDimSize(axis), outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= inType->getDimSize(d);
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= inType->getDimSize(d);
  SmallVector<int64_t> shape(inType->getShape().take_front(axis));
  llvm::append_range(shape, idxType->getShape());
  llvm::append_range(shape, inType->getShape().drop_front(axis + 1));
  Type elem = inType->getElementType();
  auto expected = RankedTensorType::get(shape, elem);
  int64_t count = idxType->getNumElements();
  if (expected != *outType || count == 0 || k == 0) {
    error() << "output has type " << *outType << ", expected " << expected
            << " (with at least one index and one row)";
    return failure();
  }
  FailureOr<DenseElementsAttr> constIdx = getConstant(input(1), false);
  if (failed(constIdx))
    return failure();
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  Value v = reshape(*in, RankedTensorType::get({outer, k, inner}, elem), opLoc);
  if (*constIdx) {
    FailureOr<SmallVector<int64_t>> indices = getIntConstant(input(1));
    if (failed(indices))
      return failure();
    SmallVector<int32_t> picks;
    for (int64_t i : *indices) {
      if (i < 0 || i >= k) {
        error() << "GATHER index " << i << " is outside [0, " << k << ")";
        return failure();
      }
      picks.push_back(static_cast<int32_t>(i));
    }
    return setOutput(0, reshape(gatherRows(v, picks), *outType, opLoc));
  }
  // Run-time indices: [1, count] i32, clamped to the rows.
  FailureOr<Value> idx = getValue(input(1));
  if (failed(idx))
    return failure();
  auto i32Type = builder.getI32Type();
  Value indices = reshape(
      *idx, RankedTensorType::get({1, count}, idxElem), opLoc);
  indices = tosa::ClampOp::create(builder, opLoc, indices.getType(), indices,
                                  builder.getIntegerAttr(idxElem, 0),
                                  builder.getIntegerAttr(idxElem, k - 1));
  if (!idxElem.isSignlessInteger(32))
    indices = tosa::CastOp::create(
        builder, opLoc, RankedTensorType::get({1, count}, i32Type), indices);
  auto perm = builder.getDenseI32ArrayAttr({1, 0, 2});
  if (outer > 1) {
    v = tosa::TransposeOp::create(
        builder, opLoc, RankedTensorType::get({k, outer, inner}, elem), v,
        perm);
  }
  v = reshape(v, RankedTensorType::get({1, k, outer * inner}, elem), opLoc);
  v = tosa::GatherOp::create(
      builder, opLoc, RankedTensorType::get({1, count, outer * inner}, elem),
      v, indices);
  if (outer > 1) {
    v = reshape(v, RankedTensorType::get({count, outer, inner}, elem),
                opLoc);
    v = tosa::TransposeOp::create(
        builder, opLoc, RankedTensorType::get({outer, count, inner}, elem), v,
        perm);
  }
  return setOutput(0, reshape(v, *outType, opLoc));
}

/// RESIZE_BILINEAR of a quantized NHWC tensor to a constant size:
/// qnn.resize_bilinear with TFLite's rule for the type (int8: the
/// fixed-point ResizeBilinearInteger; uint8: float32 interpolation).
LogicalResult Importer::importResizeBilinear() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> size = getIntConstant(input(1));
  if (failed(inType) || failed(outType) || failed(size))
    return failure();
  const auto *opts = currentOp->builtin_options_as_ResizeBilinearOptions();
  if (inType->getRank() != 4 || size->size() != 2) {
    error() << "needs a 4-D NHWC input and a size of two values";
    return failure();
  }
  // TFLite's int8 kernel is the fixed-point ResizeBilinearInteger; its
  // uint8 kernel interpolates in float32 and truncates.
  Type elem = inType->getElementType();
  if (!elem.isSignlessInteger(8) && !elem.isUnsignedInteger(8)) {
    error() << "RESIZE_BILINEAR of " << *inType
            << " is not supported (INT8 or UINT8 only)";
    return failure();
  }
  ResizeArithmetic arithmetic = elem.isUnsignedInteger(8)
                                    ? ResizeArithmetic::float32
                                    : ResizeArithmetic::fixed_point;
  auto expected = RankedTensorType::get(
      {inType->getDimSize(0), (*size)[0], (*size)[1], inType->getDimSize(3)},
      inType->getElementType());
  if (expected != *outType) {
    error() << "output has type " << *outType << ", expected " << expected;
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  Value result =
      ResizeBilinearOp::create(
          builder, opLoc, *outType, *in,
          builder.getBoolAttr(opts && opts->align_corners()),
          builder.getBoolAttr(opts && opts->half_pixel_centers()),
          ResizeArithmeticAttr::get(context, arithmetic))
          .getResult();
  return setOutput(0, result);
}

/// RESIZE_NEAREST_NEIGHBOR (NHWC, constant size): TFLite's source index for
/// each output row and column (its GetNearestNeighbor, in float32: scale =
/// in / out, or (in - 1) / (out - 1) with align_corners; floor((i + offset)
/// * scale), or round half away with align_corners; offset 0.5 with
/// half_pixel_centers; clamped to [0, in - 1]) computed at import, then two
/// tosa.gather copies (rows, then columns).
LogicalResult Importer::importResizeNearest() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> size = getIntConstant(input(1));
  if (failed(inType) || failed(outType) || failed(size))
    return failure();
  const auto *opts =
      currentOp->builtin_options_as_ResizeNearestNeighborOptions();
  bool alignCorners = opts && opts->align_corners();
  bool halfPixel = opts && opts->half_pixel_centers();
  if (inType->getRank() != 4 || size->size() != 2 || (*size)[0] < 1 ||
      (*size)[1] < 1 || (*size)[0] > 65536 || (*size)[1] > 65536) {
    error() << "needs a 4-D NHWC input and a size of two positive values";
    return failure();
  }
  int64_t n = inType->getDimSize(0), h = inType->getDimSize(1),
          w = inType->getDimSize(2), c = inType->getDimSize(3);
  int64_t oh = (*size)[0], ow = (*size)[1];
  Type elem = inType->getElementType();
  auto expected = RankedTensorType::get({n, oh, ow, c}, elem);
  if (expected != *outType) {
    error() << "output has type " << *outType << ", expected " << expected;
    return failure();
  }
  auto sourceIndices = [&](int64_t in, int64_t out) {
    float scale = (alignCorners && out > 1)
                      ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                      : static_cast<float>(in) / static_cast<float>(out);
    float offset = halfPixel ? 0.5f : 0.0f;
    SmallVector<int32_t> result;
    for (int64_t i = 0; i < out; ++i) {
      float v = (static_cast<float>(i) + offset) * scale;
      int64_t s = static_cast<int64_t>(alignCorners ? std::round(v)
                                                    : std::floor(v));
      s = std::min<int64_t>(s, in - 1);
      if (halfPixel)
        s = std::max<int64_t>(s, 0);
      result.push_back(static_cast<int32_t>(s));
    }
    return result;
  };
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  // Rows: [N, H, W * C] gathered to [N, OH, W * C].
  Value v = reshape(*in, RankedTensorType::get({n, h, w * c}, elem), opLoc);
  v = gatherRows(v, sourceIndices(h, oh));
  // Columns: [N, OH, W, C] -> [N, W, OH, C] -> [N, W, OH * C], gathered to
  // [N, OW, OH * C], back to [N, OH, OW, C].
  v = reshape(v, RankedTensorType::get({n, oh, w, c}, elem), opLoc);
  v = tosa::TransposeOp::create(builder, opLoc,
                                RankedTensorType::get({n, w, oh, c}, elem), v,
                                builder.getDenseI32ArrayAttr({0, 2, 1, 3}))
          .getResult();
  v = reshape(v, RankedTensorType::get({n, w, oh * c}, elem), opLoc);
  v = gatherRows(v, sourceIndices(w, ow));
  v = reshape(v, RankedTensorType::get({n, ow, oh, c}, elem), opLoc);
  v = tosa::TransposeOp::create(builder, opLoc, *outType, v,
                                builder.getDenseI32ArrayAttr({0, 2, 1, 3}))
          .getResult();
  return setOutput(0, v);
}

/// CAST between integer types (TFLite's static_cast: narrowing wraps,
/// int8 <-> uint8 keeps the bits), from integers to float32 (exact for 8-
/// and 16-bit values, rounded to nearest for i32), and from float32 to
/// integers: static_cast truncates toward zero, so `math.trunc` comes first
/// and the tosa.cast that follows converts an integral value (exact in
/// range; a value outside the integer type's range, undefined in TFLite,
/// saturates as tosa.cast says, NaN becomes 0).
LogicalResult Importer::importCast() {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  Type from = inType->getElementType(), to = outType->getElementType();
  auto supported = [](Type t) { return isa<IntegerType>(t) || t.isF32(); };
  if (inType->getShape() != outType->getShape()) {
    error() << "CAST output " << *outType << " must have the shape of its "
            << "input " << *inType;
    return failure();
  }
  if (!supported(from) || !supported(to) || from.isInteger(1) ||
      to.isInteger(1)) {
    error() << "CAST from " << *inType << " to " << *outType
            << " is not supported (between integers and float32 only)";
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  if (from == to)
    return setOutput(0, *in);
  Value v = *in;
  if (from.isF32())
    v = mlir::math::TruncOp::create(builder, opLoc, v).getResult();
  return setOutput(
      0, tosa::CastOp::create(builder, opLoc, *outType, v).getResult());
}

/// PACK: each input gains a dimension of 1 at `axis`, then they are
/// concatenated along it; the stored integers are copied (qnn.concatenate
/// with every input given the output's parameters), as TFLite does.
LogicalResult Importer::importPack() {
  if (failed(checkArity(1, 1 << 16, 1)))
    return failure();
  const auto *opts = currentOp->builtin_options_as_PackOptions();
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  if (!opts || failed(outType) || failed(oq)) {
    if (!opts)
      error() << "has no PackOptions";
    return failure();
  }
  int64_t n = static_cast<int64_t>(currentOp->inputs()->size());
  int64_t rank = outType->getRank();
  int64_t axis = opts->axis() < 0 ? opts->axis() + rank : opts->axis();
  if (axis < 0 || axis >= rank || outType->getDimSize(axis) != n ||
      opts->values_count() != n) {
    error() << "axis " << opts->axis() << " and " << n
            << " inputs do not give " << *outType;
    return failure();
  }
  SmallVector<int64_t> pieceShape(outType->getShape());
  pieceShape[axis] = 1;
  auto pieceType =
      RankedTensorType::get(pieceShape, outType->getElementType());
  SmallVector<Value> pieces;
  for (int64_t i = 0; i < n; ++i) {
    FailureOr<RankedTensorType> t = getType(input(i));
    FailureOr<Value> v = getValue(input(i));
    if (failed(t) || failed(v))
      return failure();
    if (t->getNumElements() != pieceType.getNumElements() ||
        t->getElementType() != pieceType.getElementType()) {
      error() << "input " << i << " " << *t << " does not fit " << *outType;
      return failure();
    }
    pieces.push_back(reshape(*v, pieceType, opLoc));
  }
  SmallVector<float> scales(n, oq->first);
  SmallVector<int32_t> zps(n, oq->second);
  Value result = ConcatenateOp::create(
                     builder, opLoc, *outType, pieces,
                     builder.getI64IntegerAttr(axis),
                     builder.getDenseF32ArrayAttr(scales),
                     builder.getDenseI32ArrayAttr(zps),
                     builder.getF32FloatAttr(oq->first),
                     builder.getI32IntegerAttr(oq->second))
                     .getResult();
  return setOutput(0, result);
}

/// UNPACK (one output per index of `axis`, the axis removed) and SPLIT_V
/// (constant sizes, one of them possibly -1): tensor.extract_slice copies.
LogicalResult Importer::importUnpackOrSplitV(bool unpack) {
  size_t outputs = currentOp->outputs() ? currentOp->outputs()->size() : 0;
  if (failed(checkArity(unpack ? 1 : 3, unpack ? 1 : 3, outputs)) ||
      outputs == 0)
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  if (failed(inType))
    return failure();
  int64_t rank = inType->getRank();
  int64_t axis = 0;
  SmallVector<int64_t> sizes;
  if (unpack) {
    const auto *opts = currentOp->builtin_options_as_UnpackOptions();
    if (!opts) {
      error() << "has no UnpackOptions";
      return failure();
    }
    axis = opts->axis() < 0 ? opts->axis() + rank : opts->axis();
    if (axis < 0 || axis >= rank ||
        inType->getDimSize(axis) != static_cast<int64_t>(outputs)) {
      error() << "cannot unpack dimension " << opts->axis() << " of "
              << *inType << " into " << outputs << " outputs";
      return failure();
    }
    sizes.assign(outputs, 1);
  } else {
    FailureOr<SmallVector<int64_t>> s = getIntConstant(input(1));
    FailureOr<SmallVector<int64_t>> a = getIntConstant(input(2));
    if (failed(s) || failed(a))
      return failure();
    if (a->size() != 1) {
      error() << "axis must have one element";
      return failure();
    }
    axis = (*a)[0] < 0 ? (*a)[0] + rank : (*a)[0];
    if (axis < 0 || axis >= rank || s->size() != outputs) {
      error() << "axis " << (*a)[0] << " or " << s->size()
              << " sizes do not fit " << *inType << " and " << outputs
              << " outputs";
      return failure();
    }
    sizes = *s;
    int64_t known = 0, inferred = -1;
    for (auto [i, v] : llvm::enumerate(sizes)) {
      if (v == -1 && inferred < 0) {
        inferred = static_cast<int64_t>(i);
      } else if (v < 0 || v > inType->getDimSize(axis)) {
        error() << "size_splits holds " << v;
        return failure();
      } else {
        known += v;
      }
    }
    if (inferred >= 0)
      sizes[inferred] = inType->getDimSize(axis) - known;
    int64_t total = 0;
    for (int64_t v : sizes)
      total += v;
    if (total != inType->getDimSize(axis) ||
        (inferred >= 0 && sizes[inferred] < 0)) {
      error() << "size_splits do not add up to dimension " << axis << " of "
              << *inType;
      return failure();
    }
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  int64_t offset = 0;
  for (size_t i = 0; i < outputs; ++i) {
    FailureOr<RankedTensorType> outType = getType(output(i));
    if (failed(outType))
      return failure();
    SmallVector<int64_t> offsets(rank, 0), shape(inType->getShape()),
        strides(rank, 1);
    offsets[axis] = offset;
    shape[axis] = sizes[i];
    offset += sizes[i];
    FailureOr<Value> slice =
        emitSlice(*in, *inType, offsets, shape, strides, *outType);
    if (failed(slice) || failed(setOutput(i, *slice)))
      return failure();
  }
  return success();
}

/// MAXIMUM / MINIMUM: TFLite compares the stored integers (no rescale; its
/// converter gives both inputs and the output the same parameters), with
/// NumPy broadcasting: tosa.maximum / tosa.minimum, the lower-rank operand
/// reshaped with leading 1s.
/// BATCH_MATMUL (int8/uint8, per-tensor): qnn.batch_matmul of the
/// operands (adj_x / adj_y as tosa.transpose of the last two dimensions),
/// then qnn.requantize with input scale lhs_scale * rhs_scale (TFLite's
/// GetQuantizedConvolutionMultipler). The batch dimensions must be equal
/// (TFLite also broadcasts them).
LogicalResult Importer::importBatchMatMul() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  const auto *opts = currentOp->builtin_options_as_BatchMatMulOptions();
  bool adjX = opts && opts->adj_x(), adjY = opts && opts->adj_y();
  FailureOr<RankedTensorType> lType = getType(input(0));
  FailureOr<RankedTensorType> rType = getType(input(1));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(lType) || failed(rType) || failed(outType))
    return failure();
  int64_t rank = outType->getRank();
  if (rank < 2 || lType->getRank() < 2 || rType->getRank() < 2 ||
      lType->getRank() > rank || rType->getRank() > rank ||
      !lType->getElementType().isInteger(8) ||
      lType->getElementType() != rType->getElementType() ||
      lType->getElementType() != outType->getElementType()) {
    error() << "operands " << *lType << ", " << *rType << " and output "
            << *outType
            << " must be 8-bit of one type, of rank >= 2, the output's rank "
               "the larger";
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> lq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> rq = getPerTensor(input(1));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  FailureOr<Value> lhs = getValue(input(0));
  FailureOr<Value> rhs = getValue(input(1));
  if (failed(lq) || failed(rq) || failed(oq) || failed(lhs) || failed(rhs))
    return failure();
  // A lower-rank operand gets leading 1s (numpy's matmul broadcasting).
  auto toRank = [&](Value v) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t missing = rank - type.getRank();
    if (missing == 0)
      return v;
    SmallVector<int64_t> shape(missing, 1);
    llvm::append_range(shape, type.getShape());
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < type.getRank(); ++d)
      groups.push_back({d + missing});
    for (int64_t d = 0; d < missing; ++d)
      groups.front().insert(groups.front().begin() + d, d);
    return tensor::ExpandShapeOp::create(
               builder, opLoc,
               RankedTensorType::get(shape, type.getElementType()), v, groups)
        .getResult();
  };
  auto transposeLast = [&](Value v) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int32_t> perm;
    SmallVector<int64_t> shape(type.getShape());
    for (int64_t d = 0; d < rank; ++d)
      perm.push_back(static_cast<int32_t>(d));
    std::swap(perm[rank - 1], perm[rank - 2]);
    std::swap(shape[rank - 1], shape[rank - 2]);
    return tosa::TransposeOp::create(
               builder, opLoc, RankedTensorType::get(shape, type.getElementType()),
               v, builder.getDenseI32ArrayAttr(perm))
        .getResult();
  };
  Value l = toRank(*lhs), r = toRank(*rhs);
  l = adjX ? transposeLast(l) : l;
  r = adjY ? transposeLast(r) : r;
  auto lt = cast<RankedTensorType>(l.getType());
  auto rt = cast<RankedTensorType>(r.getType());
  SmallVector<int64_t> accShape(outType->getShape());
  for (int64_t d = 0; d < rank - 2; ++d) {
    int64_t ld = lt.getDimSize(d), rd = rt.getDimSize(d);
    if ((ld != 1 && rd != 1 && ld != rd) ||
        outType->getDimSize(d) != std::max(ld, rd)) {
      error() << "batch dimensions of " << lt << " and " << rt
              << " do not broadcast to the output " << *outType;
      return failure();
    }
  }
  if (lt.getDimSize(rank - 1) != rt.getDimSize(rank - 2) ||
      outType->getDimSize(rank - 2) != lt.getDimSize(rank - 2) ||
      outType->getDimSize(rank - 1) != rt.getDimSize(rank - 1)) {
    error() << "operands " << lt << " x " << rt << " (after adj_x = " << adjX
            << ", adj_y = " << adjY << ") do not give the output " << *outType;
    return failure();
  }
  auto accType = RankedTensorType::get(accShape, builder.getI32Type());
  Value acc = BatchMatMulOp::create(builder, opLoc, accType, l, r,
                                    builder.getF32FloatAttr(lq->first),
                                    builder.getI32IntegerAttr(lq->second),
                                    builder.getF32FloatAttr(rq->first),
                                    builder.getI32IntegerAttr(rq->second))
                  .getResult();
  double scale =
      static_cast<double>(lq->first) * static_cast<double>(rq->first);
  Value result =
      RequantizeOp::create(builder, opLoc, *outType, acc,
                           builder.getDenseF64ArrayAttr({scale}),
                           builder.getI32IntegerAttr(0),
                           builder.getF32FloatAttr(oq->first),
                           builder.getI32IntegerAttr(oq->second),
                           IntegerAttr(), roundingAttr())
          .getResult();
  return setOutput(0, result);
}

/// PRELU (input, alpha): qnn.prelu, alpha broadcast to the input (NumPy's
/// rule; TFLite converters write it as [1, ..., C]).
LogicalResult Importer::importPRelu() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> alphaType = getType(input(1));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(alphaType) || failed(outType))
    return failure();
  if (*inType != *outType || !inType->getElementType().isInteger(8) ||
      !alphaType->getElementType().isInteger(8)) {
    error() << "input " << *inType << ", alpha " << *alphaType
            << " and output " << *outType
            << " must be 8-bit, with the output of the input's type";
    return failure();
  }
  if (alphaType->getRank() > inType->getRank()) {
    error() << "alpha " << *alphaType << " has a higher rank than the input "
            << *inType;
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> aq = getPerTensor(input(1));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  FailureOr<Value> in = getValue(input(0));
  FailureOr<Value> alpha = getValue(input(1));
  if (failed(iq) || failed(aq) || failed(oq) || failed(in) || failed(alpha))
    return failure();
  Value result =
      PReluOp::create(builder, opLoc, *outType, *in, *alpha,
                      builder.getF32FloatAttr(iq->first),
                      builder.getI32IntegerAttr(iq->second),
                      builder.getF32FloatAttr(aq->first),
                      builder.getI32IntegerAttr(aq->second),
                      builder.getF32FloatAttr(oq->first),
                      builder.getI32IntegerAttr(oq->second), roundingAttr())
          .getResult();
  return setOutput(0, result);
}

LogicalResult Importer::importMaxMin(bool isMax) {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> aType = getType(input(0));
  FailureOr<RankedTensorType> bType = getType(input(1));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(aType) || failed(bType) || failed(outType))
    return failure();
  Type elem = outType->getElementType();
  if (aType->getElementType() != elem || bType->getElementType() != elem ||
      !isa<IntegerType>(elem)) {
    error() << "inputs " << *aType << ", " << *bType << " and output "
            << *outType << " must share one integer type";
    return failure();
  }
  int64_t rank = outType->getRank();
  if (aType->getRank() > rank || bType->getRank() > rank) {
    error() << "an input has a higher rank than the output " << *outType;
    return failure();
  }
  auto expand = [&](Value v, RankedTensorType t) -> FailureOr<Value> {
    SmallVector<int64_t> shape(rank - t.getRank(), 1);
    llvm::append_range(shape, t.getShape());
    for (int64_t d = 0; d < rank; ++d)
      if (shape[d] != 1 && shape[d] != outType->getDimSize(d)) {
        error() << "input " << t << " does not broadcast to " << *outType;
        return failure();
      }
    return reshape(v, RankedTensorType::get(shape, elem), opLoc);
  };
  FailureOr<Value> a = getValue(input(0));
  FailureOr<Value> b = getValue(input(1));
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> ea = expand(*a, *aType);
  FailureOr<Value> eb = expand(*b, *bType);
  if (failed(ea) || failed(eb))
    return failure();
  Value result =
      isMax ? tosa::MaximumOp::create(builder, opLoc, *outType, *ea, *eb)
                  .getResult()
            : tosa::MinimumOp::create(builder, opLoc, *outType, *ea, *eb)
                  .getResult();
  return setOutput(0, result);
}

/// DEPTH_TO_SPACE / SPACE_TO_DEPTH (NHWC, TFLite's DCR order) as reshape,
/// transpose, reshape: a copy of the stored values.
LogicalResult Importer::importDepthSpace(bool toDepth) {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  int32_t bs = 0;
  if (toDepth) {
    if (const auto *o = currentOp->builtin_options_as_SpaceToDepthOptions())
      bs = o->block_size();
  } else if (const auto *o =
                 currentOp->builtin_options_as_DepthToSpaceOptions()) {
    bs = o->block_size();
  }
  if (inType->getRank() != 4 || bs < 1 || bs > 4096) {
    error() << "needs a 4-D NHWC input and a block size in [1, 4096], got "
            << *inType << " and " << bs;
    return failure();
  }
  int64_t n = inType->getDimSize(0), h = inType->getDimSize(1),
          w = inType->getDimSize(2), c = inType->getDimSize(3);
  Type elem = inType->getElementType();
  SmallVector<int64_t> split, result;
  if (toDepth) {
    if (h % bs || w % bs) {
      error() << "H and W of " << *inType << " must be multiples of " << bs;
      return failure();
    }
    split = {n, h / bs, bs, w / bs, bs, c};
    result = {n, h / bs, w / bs, c * bs * bs};
  } else {
    if (c % (int64_t(bs) * bs)) {
      error() << "C of " << *inType << " must be a multiple of " << bs * bs;
      return failure();
    }
    split = {n, h, w, bs, bs, c / (int64_t(bs) * bs)};
    result = {n, h * bs, w * bs, c / (int64_t(bs) * bs)};
  }
  auto resultType = RankedTensorType::get(result, elem);
  if (resultType.getShape() != outType->getShape() ||
      elem != outType->getElementType()) {
    error() << "output has type " << *outType << ", expected " << resultType;
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  // [N, H', a, W', b, C'] <-> [N, H', W', a, b, C'] by swapping dims 2, 3.
  Value v = reshape(*in, RankedTensorType::get(split, elem), opLoc);
  SmallVector<int64_t> swapped = split;
  std::swap(swapped[2], swapped[3]);
  v = tosa::TransposeOp::create(builder, opLoc,
                                RankedTensorType::get(swapped, elem), v,
                                builder.getDenseI32ArrayAttr({0, 1, 3, 2, 4, 5}))
          .getResult();
  return setOutput(0, reshape(v, resultType, opLoc));
}

LogicalResult Importer::importSplit() {
  // SPLIT(axis, input) into equal parts along a constant axis.
  if (failed(checkArity(2, 2, 0)))
    return failure();
  FailureOr<SmallVector<int64_t>> axisValues = getIntConstant(input(0));
  FailureOr<RankedTensorType> inType = getType(input(1));
  if (failed(axisValues) || failed(inType))
    return failure();
  if (axisValues->size() != 1) {
    error() << "axis must have one element";
    return failure();
  }
  int64_t rank = inType->getRank();
  int64_t axis =
      (*axisValues)[0] < 0 ? (*axisValues)[0] + rank : (*axisValues)[0];
  size_t parts = currentOp->outputs()->size();
  if (axis < 0 || axis >= rank || inType->getDimSize(axis) % parts != 0) {
    error() << "cannot split dimension " << (*axisValues)[0] << " of "
            << *inType << " into " << parts << " parts";
    return failure();
  }
  FailureOr<Value> in = getValue(input(1));
  if (failed(in))
    return failure();
  int64_t size = inType->getDimSize(axis) / parts;
  for (size_t i = 0; i < parts; ++i) {
    FailureOr<RankedTensorType> outType = getType(output(i));
    if (failed(outType))
      return failure();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (int64_t d = 0; d < rank; ++d) {
      offsets.push_back(builder.getIndexAttr(d == axis ? i * size : 0));
      sizes.push_back(
          builder.getIndexAttr(d == axis ? size : inType->getDimSize(d)));
      strides.push_back(builder.getIndexAttr(1));
    }
    SmallVector<int64_t> shape(inType->getShape());
    shape[axis] = size;
    auto sliceType = RankedTensorType::get(shape, inType->getElementType());
    if (sliceType != *outType) {
      error() << "output " << tensorDesc(output(i)) << " has type " << *outType
              << ", expected " << sliceType;
      return failure();
    }
    Value slice =
        tensor::ExtractSliceOp::create(builder, tensorLoc(output(i)), sliceType,
                                       *in, offsets, sizes, strides)
            .getResult();
    if (failed(setOutput(i, slice)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Quantization and activations
//===----------------------------------------------------------------------===//

/// L2_NORMALIZATION (8-bit, no fused activation, at most 4-D):
/// qnn.l2_normalize along the last dimension. TFLite requires the output
/// scale 1/128 and zero point 0 (int8) or 128 (uint8); so does the importer.
FailureOr<Importer::FixedOutputUnary>
Importer::readFixedOutputUnary(int64_t maxRank, float scale,
                               StringRef scaleText, int32_t zpInt8,
                               int32_t zpUInt8) {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  if (!inType->getElementType().isInteger(8) || *inType != *outType ||
      inType->getRank() < 1 || inType->getRank() > maxRank ||
      inType->getNumElements() == 0) {
    error() << "input " << *inType << " and output " << *outType
            << " must be one non-empty 8-bit type of rank 1 to " << maxRank;
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  FailureOr<Value> in = getValue(input(0));
  if (failed(iq) || failed(oq) || failed(in))
    return failure();
  int32_t expectedZp =
      inType->getElementType().isUnsignedInteger() ? zpUInt8 : zpInt8;
  if (oq->first != scale || oq->second != expectedZp) {
    error() << "output " << tensorDesc(output(0)) << " has scale "
            << oq->first << " and zero point " << oq->second
            << "; TFLite requires " << scaleText << " and " << expectedZp;
    return failure();
  }
  return FixedOutputUnary{*in, *outType, iq->first, iq->second, oq->second};
}

LogicalResult Importer::importL2Normalization() {
  if (const auto *opts = currentOp->builtin_options_as_L2NormOptions();
      opts && opts->fused_activation_function() !=
                  tfl::ActivationFunctionType::NONE) {
    error() << "a fused activation is not supported (TFLite's kernels "
               "refuse it too)";
    return failure();
  }
  FailureOr<FixedOutputUnary> u =
      readFixedOutputUnary(4, 1.0f / 128.0f, "1/128", 0, 128);
  if (failed(u))
    return failure();
  Value result = L2NormalizeOp::create(builder, opLoc, u->type, u->input,
                                       builder.getF32FloatAttr(u->inputScale),
                                       builder.getI32IntegerAttr(u->inputZp),
                                       roundingAttr())
                     .getResult();
  return setOutput(0, result);
}

/// LOG_SOFTMAX of int8/uint8 along the last axis: qnn.log_softmax (TFLite's
/// runtime kernel, in float32). TFLite's Prepare requires the output scale
/// 16/256 and zero point 127 (int8) or 255 (uint8).
LogicalResult Importer::importLogSoftmax() {
  FailureOr<FixedOutputUnary> u = readFixedOutputUnary(
      std::numeric_limits<int32_t>::max(), 16.0f / 256.0f, "16/256", 127, 255);
  if (failed(u))
    return failure();
  Value result = LogSoftmaxOp::create(builder, opLoc, u->type, u->input,
                                      builder.getF32FloatAttr(u->inputScale),
                                      builder.getF32FloatAttr(16.0f / 256.0f),
                                      builder.getI32IntegerAttr(u->outputZp))
                     .getResult();
  return setOutput(0, result);
}

LogicalResult Importer::importSoftmax() {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  if (inType->getShape() != outType->getShape() || inType->getRank() < 1) {
    error() << "input " << *inType << " and output " << *outType
            << " shapes differ";
    return failure();
  }
  float beta = 1.0f;
  if (const auto *opts = currentOp->builtin_options_as_SoftmaxOptions())
    beta = opts->beta();
  if (!std::isfinite(beta) || beta <= 0.0f) {
    error() << "beta " << beta << " must be finite and positive";
    return failure();
  }
  FailureOr<Value> in = getValue(input(0));
  if (failed(in))
    return failure();
  auto floatType =
      RankedTensorType::get(inType->getShape(), builder.getF32Type());
  Value x = *in;
  bool quantized = isa<IntegerType>(inType->getElementType());
  if (quantized) {
    FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
    if (failed(iq))
      return failure();
    // beta folds into the dequantize scale: softmax(beta * s * (q - zp)).
    x = DequantizeOp::create(builder, opLoc, floatType, x,
                             builder.getDenseF32ArrayAttr({iq->first * beta}),
                             builder.getDenseI32ArrayAttr({iq->second}),
                             IntegerAttr())
            .getResult();
  } else if (beta != 1.0f) {
    error() << "float SOFTMAX with beta != 1 is not supported";
    return failure();
  }
  Value init = tensor::EmptyOp::create(builder, opLoc, floatType.getShape(),
                                       builder.getF32Type());
  Value soft = linalg::SoftmaxOp::create(builder, opLoc, TypeRange{floatType},
                                         x, init, inType->getRank() - 1)
                   .getResult()[0];
  if (quantized) {
    FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
    if (failed(oq))
      return failure();
    soft = QuantizeOp::create(builder, opLoc, *outType, soft,
                              builder.getDenseF32ArrayAttr({oq->first}),
                              builder.getDenseI32ArrayAttr({oq->second}),
                              IntegerAttr())
               .getResult();
  }
  return setOutput(0, soft);
}

LogicalResult Importer::importQuantize() {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  if (inType->getShape() != outType->getShape() ||
      !isa<IntegerType>(outType->getElementType())) {
    error() << "cannot quantize " << *inType << " into " << *outType;
    return failure();
  }
  FailureOr<QuantParams> oq = getQuant(output(0));
  FailureOr<Value> in = getValue(input(0));
  if (failed(oq) || failed(in))
    return failure();
  if (inType->getElementType().isF32()) {
    SmallVector<int32_t> zps;
    for (int64_t zp : oq->zeroPoints)
      zps.push_back(static_cast<int32_t>(zp));
    Value result =
        QuantizeOp::create(builder, opLoc, *outType, *in,
                           builder.getDenseF32ArrayAttr(oq->scales),
                           builder.getDenseI32ArrayAttr(zps),
                           oq->isPerTensor()
                               ? IntegerAttr()
                               : builder.getI64IntegerAttr(oq->dimension))
            .getResult();
    return setOutput(0, result);
  }
  if (!isa<IntegerType>(inType->getElementType())) {
    error() << "cannot quantize from " << inType->getElementType();
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> oqt = getPerTensor(output(0));
  if (failed(iq) || failed(oqt))
    return failure();
  Value result =
      RequantizeOp::create(
          builder, opLoc, *outType, *in,
          builder.getDenseF64ArrayAttr({static_cast<double>(iq->first)}),
          builder.getI32IntegerAttr(iq->second),
          builder.getF32FloatAttr(oqt->first),
          builder.getI32IntegerAttr(oqt->second), IntegerAttr(),
          roundingAttr())
          .getResult();
  return setOutput(0, result);
}

LogicalResult Importer::importDequantize() {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  if (!isa<IntegerType>(inType->getElementType()) ||
      !outType->getElementType().isF32() ||
      inType->getShape() != outType->getShape()) {
    error() << "cannot dequantize " << *inType << " into " << *outType;
    return failure();
  }
  FailureOr<QuantParams> iq = getQuant(input(0));
  FailureOr<Value> in = getValue(input(0));
  if (failed(iq) || failed(in))
    return failure();
  SmallVector<int32_t> zps;
  for (int64_t zp : iq->zeroPoints)
    zps.push_back(static_cast<int32_t>(zp));
  Value result =
      DequantizeOp::create(builder, opLoc, *outType, *in,
                           builder.getDenseF32ArrayAttr(iq->scales),
                           builder.getDenseI32ArrayAttr(zps),
                           iq->isPerTensor()
                               ? IntegerAttr()
                               : builder.getI64IntegerAttr(iq->dimension))
          .getResult();
  return setOutput(0, result);
}

LogicalResult Importer::importRelu(tfl::BuiltinOperator code) {
  // TFLite's quantized ReluX: requantize by input_scale / output_scale, then
  // clamp to the activation range of the output parameters.
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  if (inType->getShape() != outType->getShape() ||
      inType->getElementType() != outType->getElementType() ||
      !isa<IntegerType>(inType->getElementType())) {
    error() << "expects quantized input and output of one type, got " << *inType
            << " and " << *outType;
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  FailureOr<Value> in = getValue(input(0));
  if (failed(iq) || failed(oq) || failed(in))
    return failure();
  Value value = *in;
  if (*iq != *oq)
    value = RequantizeOp::create(
                builder, opLoc, *outType, value,
                builder.getDenseF64ArrayAttr({static_cast<double>(iq->first)}),
                builder.getI32IntegerAttr(iq->second),
                builder.getF32FloatAttr(oq->first),
                builder.getI32IntegerAttr(oq->second), IntegerAttr(),
                roundingAttr())
                .getResult();
  tfl::ActivationFunctionType act =
      code == tfl::BuiltinOperator::RELU ? tfl::ActivationFunctionType::RELU
      : code == tfl::BuiltinOperator::RELU6
          ? tfl::ActivationFunctionType::RELU6
          : tfl::ActivationFunctionType::RELU_N1_TO_1;
  FailureOr<Value> activated = applyActivation(value, act, output(0));
  if (failed(activated))
    return failure();
  return setOutput(0, *activated);
}

LogicalResult Importer::importTableActivation(tfl::BuiltinOperator code) {
  if (failed(checkArity(1, 1, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  if (failed(inType) || failed(outType))
    return failure();
  FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  FailureOr<Value> in = getValue(input(0));
  if (failed(iq) || failed(oq) || failed(in))
    return failure();
  auto is = builder.getF32FloatAttr(iq->first);
  auto iz = builder.getI32IntegerAttr(iq->second);
  auto os = builder.getF32FloatAttr(oq->first);
  auto oz = builder.getI32IntegerAttr(oq->second);
  Value result;
  switch (code) {
  case tfl::BuiltinOperator::LOGISTIC:
    result = SigmoidOp::create(builder, opLoc, *outType, *in, is, iz, os, oz)
                 .getResult();
    break;
  case tfl::BuiltinOperator::TANH:
    result = TanhOp::create(builder, opLoc, *outType, *in, is, iz, os, oz)
                 .getResult();
    break;
  case tfl::BuiltinOperator::HARD_SWISH:
    result = HardSwishOp::create(builder, opLoc, *outType, *in, is, iz, os, oz)
                 .getResult();
    break;
  case tfl::BuiltinOperator::ELU:
    result = EluOp::create(builder, opLoc, *outType, *in, is, iz, os, oz)
                 .getResult();
    break;
  case tfl::BuiltinOperator::RSQRT:
    // TFLite's only 8-bit RSQRT kernel is int8's.
    if (!inType->getElementType().isSignlessInteger(8)) {
      error() << "RSQRT of " << *inType
              << " is not supported: TFLite's 8-bit kernel takes int8";
      return failure();
    }
    result = RsqrtOp::create(builder, opLoc, *outType, *in, is, iz, os, oz,
                             roundingAttr())
                 .getResult();
    break;
  default: {
    float alpha = 0.0f;
    if (const auto *opts = currentOp->builtin_options_as_LeakyReluOptions())
      alpha = opts->alpha();
    result = LeakyReluOp::create(builder, opLoc, *outType, *in, is, iz, os, oz,
                                 builder.getF32FloatAttr(alpha), roundingAttr())
                 .getResult();
    break;
  }
  }
  return setOutput(0, result);
}

FailureOr<Importer::Reduction> Importer::readReduction() {
  if (failed(checkArity(2, 2, 1)))
    return failure();
  FailureOr<RankedTensorType> inType = getType(input(0));
  FailureOr<RankedTensorType> outType = getType(output(0));
  FailureOr<SmallVector<int64_t>> axes = getIntConstant(input(1));
  if (failed(inType) || failed(outType) || failed(axes))
    return failure();
  if (!inType->getElementType().isInteger(8) ||
      outType->getElementType() != inType->getElementType()) {
    error() << "input " << *inType << " and output " << *outType
            << " must share one 8-bit type";
    return failure();
  }
  Reduction r;
  r.outType = *outType;
  int64_t rank = inType->getRank();
  SmallVector<int64_t> keptShape(inType->getShape());
  for (int64_t a : *axes) {
    int64_t axis = a < 0 ? a + rank : a;
    if (axis < 0 || axis >= rank) {
      error() << "axis " << a << " is out of range for " << *inType;
      return failure();
    }
    if (llvm::is_contained(r.axes, axis))
      continue; // TFLite ignores repeated axes
    r.axes.push_back(axis);
    keptShape[axis] = 1;
  }
  llvm::sort(r.axes);
  r.keptType = RankedTensorType::get(keptShape, inType->getElementType());
  if (r.keptType.getNumElements() != outType->getNumElements()) {
    error() << "output " << *outType << " does not hold the reduction "
            << r.keptType;
    return failure();
  }
  FailureOr<std::pair<float, int32_t>> iq = getPerTensor(input(0));
  FailureOr<std::pair<float, int32_t>> oq = getPerTensor(output(0));
  FailureOr<Value> in = getValue(input(0));
  if (failed(iq) || failed(oq) || failed(in))
    return failure();
  r.input = *in;
  r.inputParams = *iq;
  r.outputParams = *oq;
  return r;
}

LogicalResult Importer::setReductionOutput(const Reduction &r, Value kept) {
  return setOutput(0, kept.getType() == r.outType
                          ? kept
                          : reshape(kept, r.outType, opLoc));
}

/// REDUCE_MAX / REDUCE_MIN (8-bit, constant axes, keep_dims): the extreme
/// stored integer over the axes (qnn.reduce_max / qnn.reduce_min, rank
/// kept), then a reshape when keep_dims is false. TFLite compares the
/// stored integers; the input and output parameters must be equal for that
/// to be the real extreme, which the importer requires.
LogicalResult Importer::importReduceMaxMin(bool isMax) {
  FailureOr<Reduction> r = readReduction();
  if (failed(r))
    return failure();
  if (r->inputParams != r->outputParams) {
    error() << "input and output quantization differ; the stored integers' "
               "extreme is the real one only with equal parameters";
    return failure();
  }
  auto axesAttr = builder.getDenseI64ArrayAttr(r->axes);
  Value result =
      isMax ? ReduceMaxOp::create(builder, opLoc, r->keptType, r->input,
                                  axesAttr)
                  .getResult()
            : ReduceMinOp::create(builder, opLoc, r->keptType, r->input,
                                  axesAttr)
                  .getResult();
  return setReductionOutput(*r, result);
}

/// MEAN and SUM (8-bit, constant axes): TFLite's reference kernel
/// QuantizedMeanOrSum, the centred sum rescaled once by input_scale /
/// output_scale (the count folded into the multiplier for MEAN). MEAN over
/// H and W of a rank-4 tensor is qnn.global_avg_pool (the pooling op an
/// accelerator knows); other axes, and SUM, are qnn.reduce_sum. TFLite's
/// optimized MEAN takes another formula for keep_dims = true over [1, 2]
/// (docs/Arithmetic.md); both are within one unit. SUM with equal input
/// and output parameters takes the same path (the multiplier is exactly 1;
/// TFLite 2.x does so too, older releases added the bytes with wrap-around).
LogicalResult Importer::importMeanOrSum(bool isSum) {
  FailureOr<Reduction> r = readReduction();
  if (failed(r))
    return failure();
  auto [inScale, inZp] = r->inputParams;
  auto [outScale, outZp] = r->outputParams;
  Value result;
  if (!isSum && r->keptType.getRank() == 4 &&
      r->axes == ArrayRef<int64_t>{1, 2})
    result = GlobalAvgPoolOp::create(
                 builder, opLoc, r->keptType, r->input,
                 builder.getF32FloatAttr(inScale),
                 builder.getI32IntegerAttr(inZp),
                 builder.getF32FloatAttr(outScale),
                 builder.getI32IntegerAttr(outZp),
                 ActivationLayoutAttr::get(context, ActivationLayout::NHWC),
                 roundingAttr())
                 .getResult();
  else
    result = ReduceSumOp::create(
                 builder, opLoc, r->keptType, r->input,
                 builder.getDenseI64ArrayAttr(r->axes),
                 builder.getF32FloatAttr(inScale),
                 builder.getI32IntegerAttr(inZp),
                 builder.getF32FloatAttr(outScale),
                 builder.getI32IntegerAttr(outZp),
                 isSum ? UnitAttr() : builder.getUnitAttr(), roundingAttr())
                 .getResult();
  return setReductionOutput(*r, result);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// The importer of each supported builtin operator; null for the others.
/// This table is the one list of what the importer takes.
Importer::OperatorImporter
Importer::getOperatorImporter(tfl::BuiltinOperator builtin) {
  using B = tfl::BuiltinOperator;
  switch (builtin) {
  case B::CONV_2D:
    return [](Importer &i, B) { return i.importConv(false); };
  case B::DEPTHWISE_CONV_2D:
    return [](Importer &i, B) { return i.importConv(true); };
  case B::TRANSPOSE_CONV:
    return [](Importer &i, B) { return i.importTransposeConv(); };
  case B::PRELU:
    return [](Importer &i, B) { return i.importPRelu(); };
  case B::BATCH_MATMUL:
    return [](Importer &i, B) { return i.importBatchMatMul(); };
  case B::REDUCE_MAX:
    return [](Importer &i, B) { return i.importReduceMaxMin(true); };
  case B::REDUCE_MIN:
    return [](Importer &i, B) { return i.importReduceMaxMin(false); };
  case B::FULLY_CONNECTED:
    return [](Importer &i, B) { return i.importFullyConnected(); };
  case B::ADD:
  case B::SUB:
  case B::MUL:
  case B::SQUARED_DIFFERENCE:
  case B::DIV:
    return [](Importer &i, B b) { return i.importBinary(b); };
  case B::AVERAGE_POOL_2D:
    return [](Importer &i, B) { return i.importPool(true); };
  case B::MAX_POOL_2D:
    return [](Importer &i, B) { return i.importPool(false); };
  case B::CONCATENATION:
    return [](Importer &i, B) { return i.importConcatenation(); };
  case B::RESHAPE:
  case B::SQUEEZE:
  case B::EXPAND_DIMS:
    return [](Importer &i, B) { return i.importReshape(); };
  case B::SOFTMAX:
    return [](Importer &i, B) { return i.importSoftmax(); };
  case B::L2_NORMALIZATION:
    return [](Importer &i, B) { return i.importL2Normalization(); };
  case B::LOG_SOFTMAX:
    return [](Importer &i, B) { return i.importLogSoftmax(); };
  case B::PAD:
  case B::PADV2:
    return [](Importer &i, B) { return i.importPad(); };
  case B::QUANTIZE:
    return [](Importer &i, B) { return i.importQuantize(); };
  case B::DEQUANTIZE:
    return [](Importer &i, B) { return i.importDequantize(); };
  case B::RELU:
  case B::RELU6:
  case B::RELU_N1_TO_1:
    return [](Importer &i, B b) { return i.importRelu(b); };
  case B::LOGISTIC:
  case B::TANH:
  case B::HARD_SWISH:
  case B::LEAKY_RELU:
  case B::ELU:
  case B::RSQRT:
    return [](Importer &i, B b) { return i.importTableActivation(b); };
  case B::TRANSPOSE:
    return [](Importer &i, B) { return i.importTranspose(); };
  case B::MEAN:
    return [](Importer &i, B) { return i.importMeanOrSum(false); };
  case B::SUM:
    return [](Importer &i, B) { return i.importMeanOrSum(true); };
  case B::SPLIT:
    return [](Importer &i, B) { return i.importSplit(); };
  case B::SLICE:
    return [](Importer &i, B) { return i.importSlice(false); };
  case B::MAXIMUM:
    return [](Importer &i, B) { return i.importMaxMin(true); };
  case B::ARG_MAX:
    return [](Importer &i, B) { return i.importArg(true); };
  case B::PACK:
    return [](Importer &i, B) { return i.importPack(); };
  case B::CAST:
    return [](Importer &i, B) { return i.importCast(); };
  case B::RESIZE_NEAREST_NEIGHBOR:
    return [](Importer &i, B) { return i.importResizeNearest(); };
  case B::RESIZE_BILINEAR:
    return [](Importer &i, B) { return i.importResizeBilinear(); };
  case B::GATHER:
    return [](Importer &i, B) { return i.importGather(); };
  case B::MIRROR_PAD:
    return [](Importer &i, B) { return i.importMirrorPad(); };
  case B::UNPACK:
    return [](Importer &i, B) { return i.importUnpackOrSplitV(true); };
  case B::SPLIT_V:
    return [](Importer &i, B) { return i.importUnpackOrSplitV(false); };
  case B::ARG_MIN:
    return [](Importer &i, B) { return i.importArg(false); };
  case B::MINIMUM:
    return [](Importer &i, B) { return i.importMaxMin(false); };
  case B::STRIDED_SLICE:
    return [](Importer &i, B) { return i.importSlice(true); };
  case B::SPACE_TO_DEPTH:
    return [](Importer &i, B) { return i.importDepthSpace(true); };
  case B::DEPTH_TO_SPACE:
    return [](Importer &i, B) { return i.importDepthSpace(false); };
  default:
    return nullptr;
  }
}

FailureOr<std::pair<tfl::BuiltinOperator, std::string>>
Importer::resolveOperator(const tfl::Operator *op) {
  const auto *codes = model->operator_codes();
  if (!codes || op->opcode_index() >= codes->size()) {
    error() << "opcode_index " << op->opcode_index() << " is out of range ("
            << (codes ? codes->size() : 0) << " operator codes)";
    return failure();
  }
  const tfl::OperatorCode *opcode = codes->Get(op->opcode_index());
  int32_t code = std::max<int32_t>(opcode->deprecated_builtin_code(),
                                   opcode->builtin_code());
  auto builtin = static_cast<tfl::BuiltinOperator>(code);
  std::string name;
  if (code == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM))
    name = "CUSTOM '" +
           (opcode->custom_code() ? opcode->custom_code()->str() : "") + "'";
  else if (*tfl::EnumNameBuiltinOperator(builtin))
    name = tfl::EnumNameBuiltinOperator(builtin);
  else
    name = "builtin code " + std::to_string(code);
  return std::make_pair(builtin, name);
}

LogicalResult Importer::checkOperatorsSupported() {
  const auto *ops = subgraph->operators();
  if (!ops)
    return success();
  // Every unsupported operator kind with the indices that use it, in order
  // of first use.
  std::vector<std::pair<std::string, SmallVector<int64_t>>> unsupported;
  for (auto [i, op] : llvm::enumerate(*ops)) {
    opIndex = static_cast<int64_t>(i);
    auto resolved = resolveOperator(op);
    if (failed(resolved))
      return failure();
    if (getOperatorImporter(resolved->first))
      continue;
    auto it = llvm::find_if(unsupported, [&](const auto &entry) {
      return entry.first == resolved->second;
    });
    if (it == unsupported.end())
      it = unsupported.insert(unsupported.end(), {resolved->second, {}});
    it->second.push_back(opIndex);
  }
  opIndex = -1;
  if (unsupported.empty())
    return success();
  InFlightDiagnostic diag = error();
  diag << "the model uses " << unsupported.size()
       << " operator kind(s) that the qnn-mlir importer does not support: ";
  llvm::interleaveComma(unsupported, diag, [&](const auto &entry) {
    diag << entry.first << " (" << entry.second.size() << "x, operator"
         << (entry.second.size() > 1 ? "s " : " ");
    llvm::interleaveComma(entry.second, diag);
    diag << ")";
  });
  return failure();
}

LogicalResult Importer::verifyImported(Block::iterator begin,
                                       Block::iterator end) {
  for (Operation &op : llvm::make_range(begin, end)) {
    // The verifier's message becomes part of this operator's one error.
    std::string message;
    LogicalResult verified = success();
    {
      ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
        if (message.empty())
          message = diag.str();
        return success();
      });
      verified = verify(&op, /*verifyRecursively=*/false);
    }
    if (failed(verified)) {
      error() << "cannot be represented: " << message << " (at "
              << op.getLoc() << ")";
      return failure();
    }
  }
  return success();
}

LogicalResult Importer::importOperator(const tfl::Operator *op) {
  auto resolved = resolveOperator(op);
  if (failed(resolved))
    return failure();
  auto [builtin, name] = *resolved;
  opName = name;
  if (!op->inputs() || !op->outputs()) {
    error() << "has no inputs or outputs vector";
    return failure();
  }
  for (int32_t index : *op->outputs())
    if (failed(getTensor(index)))
      return failure();
  for (int32_t index : *op->inputs())
    if (index != -1 && failed(getTensor(index)))
      return failure();
  if (op->outputs()->size() > 0)
    opLoc = tensorLoc(op->outputs()->Get(0));
  currentOp = op;
  OperatorImporter importer = getOperatorImporter(builtin);
  if (!importer) {
    error() << "is not supported by the qnn-mlir importer";
    return failure();
  }
  return importer(*this, builtin);
}

OwningOpRef<ModuleOp> Importer::run() {
  if (model->version() != kSchemaVersion) {
    error() << "unsupported schema version " << model->version()
            << " (expected " << kSchemaVersion << ")";
    return nullptr;
  }
  if (!model->subgraphs() || model->subgraphs()->size() == 0) {
    error() << "the model has no subgraphs";
    return nullptr;
  }
  subgraph = model->subgraphs()->Get(0);
  if (!subgraph->tensors() || !subgraph->inputs() || !subgraph->outputs()) {
    error() << "subgraph 0 lacks its tensors, inputs or outputs";
    return nullptr;
  }
  values.assign(tensors()->size(), Value());
  // The total size, before anything is built: each tensor counts with its
  // static dimensions, at one byte per element at least (each one is
  // checked in full, and against the per-tensor limit, where it is used).
  int64_t totalBytes = 0;
  for (const tfl::Tensor *tensor : *tensors()) {
    int64_t bytes = 1;
    if (const auto *dims = tensor->shape())
      for (int32_t d : *dims) {
        bytes *= std::max<int32_t>(d, 1);
        if (bytes > options.maxTotalBytes)
          break;
      }
    totalBytes += bytes;
    if (totalBytes > options.maxTotalBytes) {
      error() << "the model's tensors need more than " << options.maxTotalBytes
              << " bytes (the importer's total size limit)";
      return nullptr;
    }
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(sourceLoc);
  SmallVector<Type> argTypes, resultTypes;
  for (int32_t index : *subgraph->inputs()) {
    FailureOr<RankedTensorType> type = getType(index);
    if (failed(type))
      return nullptr;
    argTypes.push_back(*type);
  }
  for (int32_t index : *subgraph->outputs()) {
    FailureOr<RankedTensorType> type = getType(index);
    if (failed(type))
      return nullptr;
    resultTypes.push_back(*type);
  }
  builder.setInsertionPointToEnd(module->getBody());
  auto func =
      func::FuncOp::create(builder, sourceLoc, "main",
                           builder.getFunctionType(argTypes, resultTypes));
  Block *entry = func.addEntryBlock();
  for (auto [i, index] : llvm::enumerate(*subgraph->inputs())) {
    Location loc = tensorLoc(index);
    entry->getArgument(i).setLoc(loc);
    func.setArgAttr(i, "tfl.name", cast<NameLoc>(loc).getName());
    if (values[index]) {
      error() << tensorDesc(index) << " is listed twice as a subgraph input";
      return nullptr;
    }
    values[index] = entry->getArgument(i);
  }
  for (auto [i, index] : llvm::enumerate(*subgraph->outputs()))
    func.setResultAttr(i, "tfl.name",
                       cast<NameLoc>(tensorLoc(index)).getName());
  builder.setInsertionPointToEnd(entry);

  if (failed(checkOperatorsSupported()))
    return nullptr;
  if (const auto *ops = subgraph->operators()) {
    for (auto [i, op] : llvm::enumerate(*ops)) {
      opIndex = static_cast<int64_t>(i);
      Block *block = builder.getInsertionBlock();
      Operation *last = block->empty() ? nullptr : &block->back();
      if (failed(importOperator(op)) ||
          failed(verifyImported(last ? std::next(last->getIterator())
                                     : block->begin(),
                                block->end())))
        return nullptr;
    }
  }
  opIndex = -1;
  SmallVector<Value> results;
  for (int32_t index : *subgraph->outputs()) {
    FailureOr<Value> value = getValue(index);
    if (failed(value))
      return nullptr;
    results.push_back(*value);
  }
  func::ReturnOp::create(builder, sourceLoc, results);
  if (failed(verify(*module))) {
    error() << "the imported IR does not verify (see the diagnostics above)";
    return nullptr;
  }
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void mlir::qnn::registerTFLiteImportDialects(DialectRegistry &registry) {
  registry.insert<QNNDialect, arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, mlir::math::MathDialect,
                  tensor::TensorDialect, tosa::TosaDialect>();
}

OwningOpRef<ModuleOp>
mlir::qnn::importTFLite(StringRef buffer, MLIRContext *context,
                        StringRef sourceName,
                        const TFLiteImportOptions &options) {
  DialectRegistry registry;
  registerTFLiteImportDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();
  Location loc = FileLineColLoc::get(context, sourceName, 0, 0);

  // Flatbuffers reads scalars in place: give it 16-byte aligned memory.
  std::unique_ptr<llvm::WritableMemoryBuffer> aligned =
      llvm::WritableMemoryBuffer::getNewUninitMemBuffer(buffer.size(), "",
                                                        llvm::Align(16));
  if (!aligned) {
    emitError(loc) << "cannot allocate " << buffer.size() << " bytes";
    return nullptr;
  }
  std::memcpy(aligned->getBufferStart(), buffer.data(), buffer.size());
  const auto *data =
      reinterpret_cast<const uint8_t *>(aligned->getBufferStart());

  if (buffer.size() < 8 || buffer.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    emitError(loc) << "not a TFLite model: " << buffer.size()
                   << " bytes is too short or too large";
    return nullptr;
  }
  if (!flatbuffers::BufferHasIdentifier(data, tfl::ModelIdentifier())) {
    emitError(loc) << "not a TFLite model: the file identifier is not '"
                   << tfl::ModelIdentifier() << "'";
    return nullptr;
  }
  flatbuffers::Verifier verifier(data, buffer.size(), /*max_depth=*/64,
                                 /*max_tables=*/10000000);
  if (!tfl::VerifyModelBuffer(verifier)) {
    emitError(loc) << "corrupted TFLite model: the flatbuffer does not verify "
                   << "(truncated, or an offset or size points outside the "
                   << "file)";
    return nullptr;
  }
  Importer importer(tfl::GetModel(data), context, sourceName, options);
  return importer.run();
}

namespace {
/// The importer's command-line options, created on registration.
struct TFLiteImportCLOptions {
  llvm::cl::OptionCategory category{"TFLite import options"};
  llvm::cl::opt<TFLiteImportOptions::Rounding> rounding{
      "tflite-rounding",
      llvm::cl::desc("Rounding of TFLite's fixed-point rescales"),
      llvm::cl::values(
          clEnumValN(TFLiteImportOptions::Rounding::Single, "single",
                     "single rounding (TFLITE_SINGLE_ROUNDING=1): the "
                     "TFLite/LiteRT 2.x runtimes (default)"),
          clEnumValN(TFLiteImportOptions::Rounding::Double, "double",
                     "gemmlowp's double rounding: TFLite Micro, older "
                     "TFLite builds")),
      llvm::cl::init(TFLiteImportOptions::Rounding::Single),
      llvm::cl::cat(category)};
  llvm::cl::opt<int64_t> maxTensorBytes{
      "max-tensor-bytes",
      llvm::cl::desc("Refuse models with a larger tensor (bytes)"),
      llvm::cl::init(TFLiteImportOptions().maxTensorBytes),
      llvm::cl::cat(category)};
  llvm::cl::opt<int64_t> maxTotalBytes{
      "max-total-bytes",
      llvm::cl::desc("Refuse models whose tensors need more (bytes)"),
      llvm::cl::init(TFLiteImportOptions().maxTotalBytes),
      llvm::cl::cat(category)};
};
llvm::ManagedStatic<TFLiteImportCLOptions> clOptions;
bool clOptionsRegistered = false;
} // namespace

llvm::cl::OptionCategory &mlir::qnn::registerTFLiteImportCLOptions() {
  clOptionsRegistered = true;
  return clOptions->category;
}

TFLiteImportOptions mlir::qnn::getTFLiteImportCLOptions() {
  TFLiteImportOptions options;
  if (!clOptionsRegistered)
    return options;
  options.rounding = clOptions->rounding;
  options.maxTensorBytes = clOptions->maxTensorBytes;
  options.maxTotalBytes = clOptions->maxTotalBytes;
  return options;
}

void mlir::qnn::registerTFLiteImportTranslation() {
  registerTFLiteImportCLOptions();
  TranslateToMLIRRegistration registration(
      "import-tflite", "import a TFLite flatbuffer model into qnn IR",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return importTFLite(buffer->getBuffer(), context,
                            buffer->getBufferIdentifier(),
                            getTFLiteImportCLOptions());
      },
      registerTFLiteImportDialects, llvm::Align(16));
}

OwningOpRef<ModuleOp> mlir::qnn::loadProgramFile(StringRef path,
                                                 MLIRContext *context,
                                                 llvm::SourceMgr &sourceMgr,
                                                 StringRef toolName,
                                                 const TFLiteImportOptions &options) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    llvm::errs() << toolName << ": " << error << "\n";
    return nullptr;
  }
  if (path.ends_with(".tflite"))
    return importTFLite(file->getBuffer(), context, path, options);
  if (path.ends_with(".onnx"))
    return importONNX(file->getBuffer(), context, path);
  // Text that MLIR 22's parser crashes on (llvm/llvm-project#179045).
  if (size_t at = findIndexDenseArray(file->getBuffer());
      at != StringRef::npos) {
    StringRef before = file->getBuffer().take_front(at);
    unsigned line = 1 + before.count('\n');
    unsigned column = 1 + at - (before.rfind('\n') + 1);
    emitError(FileLineColLoc::get(context, path, line, column))
        << "dense arrays of 'index' are not supported (they crash MLIR 22's "
           "parser: llvm/llvm-project#179045)";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}
