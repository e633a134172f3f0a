//===- ConvKernelDepthwise.cpp - the depthwise kernel body ---------------===//
//
// KernelBuilder::buildDepthwiseRowTiles: the depthwise kernels, row
// tiles with the borders handled in the kernel.
//
//===----------------------------------------------------------------------===//

#include "ConvKernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

void KernelBuilder::buildDepthwiseRowTiles() {
  bool vnni = s.flavor == KernelFlavor::DepthwiseVNNI;
  // The packed narrowing of the epilogue, if it ends in one (AVX512).
  std::optional<NarrowingTail> tail =
      vnni ? narrowingTail() : std::optional<NarrowingTail>();
  Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
  int64_t lanes = s.lanes();
  auto accType = VectorType::get({lanes}, i32);
  auto byteType = VectorType::get({64}, i8);
  int64_t cBlocks = s.cp / lanes;
  int64_t tileRows = vnni ? 8 : 4;
  int64_t inH = s.inputH(), inW = s.inputW();
  // The range [first, end) of output positions whose taps all fall inside
  // the input along one axis.
  auto insideRange = [](int64_t pad, int64_t stride, int64_t span,
                        int64_t extent, int64_t outN) {
    int64_t first = std::min((pad + stride - 1) / stride, outN);
    int64_t last = extent - 1 + pad - span;
    int64_t end = last < 0 ? 0 : std::min(outN, last / stride + 1);
    return std::make_pair(first, std::max(first, end));
  };
  int64_t ohA, ohB;
  std::tie(ohA, ohB) =
      insideRange(s.padTop, s.sh, (s.kh - 1) * s.dh, inH, s.oh);
  int64_t owA, owB;
  std::tie(owA, owB) =
      insideRange(s.padLeft, s.sw, (s.kw - 1) * s.dw, inW, s.ow);

  // How a tile reads the columns left and right of the input.
  enum class Columns {
    /// Every column is inside the input.
    Inside,
    /// The tile's first pixel is a constant: the columns outside the
    /// input are known here and read as the zero point's lanes, the
    /// others load without a check.
    Static,
    /// Each column's position is clamped and its lanes selected at run
    /// time (a row with more border tiles than emitted statically).
    Dynamic,
  };
  // The output rows of a band whose packed columns carry down (serial
  // code, packed kernel rows at stride 1: the end of this function):
  // `count` rows from the tile's, each accumulated and passed to
  // `store`.
  struct RowCarry {
    Value count;
    function_ref<void(OpBuilder &, Value, ArrayRef<Value>)> store;
  };
  // The accumulators of one tile's channel block c0 (multiplier index
  // jIv): `rows` pixels from (oh, ow0) (`ow0S` is ow0's value for
  // Columns::Static). With `rowCheck`, the tile's input rows may be
  // above or below the input (the border rows). With `carry` (packed
  // kernel rows, stride 1), the tiles of carry.count output rows from
  // oh, each one's packed columns derived from the row above's, are
  // accumulated and stored (carry.store), and nothing is returned.
  auto tileAccumulators = [&](OpBuilder &bb, Value nIv, Value ohIv, Value ow0,
                              int64_t ow0S, int64_t rows, bool rowCheck,
                              Columns columnsKind, Value jIv, Value c0,
                              Value zpLanes, const RowCarry *carry = nullptr) {
    // A kernel on the padded plane has nothing to check.
    if (s.inH == 0) {
      rowCheck = false;
      columnsKind = Columns::Inside;
    }
    // Packed kernel rows of s8 input: the columns hold the bytes as
    // stored, and one xor per packed column flips every row's byte
    // (x + 128 = x ^ 0x80 as a byte) instead of an add per row and
    // column; the zero point's lanes (zpLanes holds its unsigned byte)
    // are read as stored too.
    bool flipPacked = vnni && s.packsKernelRows() && s.inputSigned;
    auto splat = [&](uint32_t v) {
      return constant(DenseElementsAttr::get(
          accType, bb.getI32IntegerAttr(static_cast<int32_t>(v))));
    };
    if (flipPacked && zpLanes)
      zpLanes = arith::XOrIOp::create(bb, loc, zpLanes, splat(0x80));
    SmallVector<Value> init(rows, depthwiseInitialAccumulator(bb, jIv, c0));
    Value ihBase = mul(bb, ohIv, s.sh);
    Value iwBase = mul(bb, ow0, s.sw);
    // Column offsets (from iwBase) of each (pixel, tap).
    std::map<int64_t, int64_t> columnSlot;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t k = 0; k < s.kw; ++k)
        columnSlot.try_emplace(r * s.sw + k * s.dw, 0);
    // The i32 lanes of every column the tile reads in input row ih.
    auto loadRow = [&](OpBuilder &kb, Value ih) -> std::map<int64_t, Value> {
      // A border row: whether input row ih exists, and
      // ih clamped into the input (loads stay inside).
      Value rowInside;
      if (rowCheck) {
        rowInside = within(kb, ih, inH);
        ih = clampInto(kb, ih, inH);
      }
      std::map<int64_t, Value> columns;
      for (auto &entry : columnSlot) {
        int64_t off = entry.first - s.padLeft;
        Value lanes;
        if (columnsKind == Columns::Static) {
          int64_t iw = ow0S * s.sw + off;
          lanes = iw < 0 || iw >= inW
                      ? zpLanes
                      : loadLanes(kb, nIv, ih, idx(kb, iw), c0, rowInside,
                                  zpLanes, !flipPacked);
        } else if (columnsKind == Columns::Dynamic) {
          Value iw = add(kb, iwBase, off);
          Value inside = within(kb, iw, inW);
          if (rowInside)
            inside = arith::AndIOp::create(kb, loc, inside, rowInside);
          lanes = loadLanes(kb, nIv, ih, clampInto(kb, iw, inW), c0, inside,
                            zpLanes, !flipPacked);
        } else {
          lanes = loadLanes(kb, nIv, ih, add(kb, iwBase, off), c0, rowInside,
                            zpLanes, !flipPacked);
        }
        columns[entry.first] = lanes;
      }
      return columns;
    };
    // The i32 lanes of every column the tile reads in kernel row khIv.
    // The input row of kernel row khIv.
    auto inputRow = [&](OpBuilder &kb, Value khIv) {
      Value ih = arith::AddIOp::create(kb, loc, ihBase, mul(kb, khIv, s.dh));
      return add(kb, ih, -s.padTop);
    };
    auto loadColumns = [&](OpBuilder &kb,
                           Value khIv) -> std::map<int64_t, Value> {
      return loadRow(kb, inputRow(kb, khIv));
    };
    // The tap weights of kernel row khIv (row 0 of packed rows).
    auto loadTaps = [&](OpBuilder &kb, Value khIv) {
      SmallVector<Value> taps;
      for (int64_t k = 0; k < s.kw; ++k) {
        SmallVector<Value> at = {jIv, khIv, idx(kb, k), c0};
        taps.push_back(
            vnni ? vector::BitCastOp::create(
                       kb, loc, byteType,
                       vector::LoadOp::create(kb, loc, accType, w, at))
                       .getResult()
                 : arith::ExtSIOp::create(
                       kb, loc, accType,
                       vector::LoadOp::create(
                           kb, loc, VectorType::get({lanes}, i16), w, at))
                       .getResult());
      }
      return taps;
    };
    // Every (pixel, tap) pair of the tile.
    auto steps = [&](OpBuilder &kb, ValueRange acc,
                     const std::map<int64_t, Value> &columns,
                     ArrayRef<Value> taps) {
      SmallVector<Value> next(acc);
      for (int64_t k = 0; k < s.kw; ++k)
        for (int64_t r = 0; r < rows; ++r) {
          Value column = columns.at(r * s.sw + k * s.dw);
          if (vnni)
            column = vector::BitCastOp::create(kb, loc, byteType, column);
          next[r] = step(kb, next[r], column, taps[k]);
        }
      return next;
    };
    if (!s.packsKernelRows())
      return reduceLoop(
          bb, s.kh, init, [&](OpBuilder &kb, Value khIv, ValueRange acc) {
            // Columns first, then taps (IR order).
            std::map<int64_t, Value> columns = loadColumns(kb, khIv);
            SmallVector<Value> taps = loadTaps(kb, khIv);
            return steps(kb, acc, columns, taps);
          });
    // Packed kernel rows: row y's lanes, shifted left by 8y, ORed into
    // each column's vector, then one vpdpbusd per (pixel, kernel
    // column). The tiles of interior rows unroll the kernel rows; those
    // of border rows (and of rows with more border tiles than emitted
    // statically), a small part of the work, loop over them carrying
    // the columns, one row's loads in the loop body. Zen 4, one core:
    // with every tile unrolled MobileNet v2's qnn-compile took 1.37 ->
    // 1.67 s, this way 1.58 s; the layers run within 1-2% of the fully
    // unrolled ones at stride 1 and 5% at stride 2 (dw2 50 -> 53 us,
    // against 59 before the packing); looped everywhere, the gain was
    // mostly lost (dw3 104 -> 98 us, not 82).
    bool unrollRows = columnsKind != Columns::Dynamic && !rowCheck;
    // With `carry`, the columns first hold kernel rows 0 .. kh - 2 in
    // bytes 1 .. kh - 1 (the row above the band's first, less its row
    // 0), and the loop below derives every row of the band, the first
    // included: one copy of the accumulation and the epilogue.
    int64_t packRows = carry ? s.kh - 1 : s.kh;
    int64_t firstByte = carry ? 1 : 0;
    Value zero = arith::ConstantOp::create(
        bb, loc, DenseElementsAttr::get(accType, bb.getI32IntegerAttr(0)));
    // With AVX512-VBMI, byte permutes (vpermt2b) place the input rows'
    // bytes as stored in the packed columns: where the rows need no
    // check, 2 to 4 of them, and the columns are known per tile (unrolled
    // kernel rows, and the bands that carry them, never run-time checked
    // columns).
    bool permuteRows =
        vbmi && !rowCheck && columnsKind != Columns::Dynamic && s.kh <= 4;
    auto bytes16 = VectorType::get({16}, i8);
    // (zpLanes holds the zero point's byte as stored for s8 input.)
    Value zpBytes =
        permuteRows && zpLanes
            ? arith::TruncIOp::create(bb, loc, bytes16, zpLanes).getResult()
            : Value();
    // The bytes of every column the tile reads in input row ih (the zero
    // point's outside the input).
    auto loadRowBytes = [&](OpBuilder &kb, Value ih) {
      std::map<int64_t, Value> columns;
      for (auto &entry : columnSlot) {
        int64_t off = entry.first - s.padLeft;
        auto load = [&](Value iw) -> Value {
          return vector::LoadOp::create(kb, loc, bytes16, x,
                                        ValueRange{nIv, ih, iw, c0});
        };
        int64_t iw = ow0S * s.sw + off;
        columns[entry.first] = columnsKind == Columns::Inside
                                   ? load(add(kb, iwBase, off))
                               : iw < 0 || iw >= inW ? zpBytes
                                                     : load(idx(kb, iw));
      }
      return columns;
    };
    // 64 bytes: lo's 16, then hi's 16 if given; the rest undefined.
    auto widenBytes = [&](OpBuilder &kb, Value lo,
                          Value hi = Value()) -> Value {
      SmallVector<int64_t> mask;
      for (int64_t j = 0; j < 64; ++j)
        mask.push_back(j < 16 ? j : j < 32 && hi ? j : -1);
      return vector::ShuffleOp::create(kb, loc, lo, hi ? hi : lo, mask);
    };
    // vpermt2b: byte j of the result is byte index[j] of the 128 bytes
    // of the two tables, as i32 lanes.
    auto permuteBytes = [&](OpBuilder &kb, Value first, Value index,
                            Value second) -> Value {
      return vector::BitCastOp::create(
          kb, loc, accType,
          LLVM::CallIntrinsicOp::create(
              kb, loc, byteType,
              kb.getStringAttr("llvm.x86.avx512.vpermi2var.qi.512"),
              ValueRange{first, index, second})
              .getResult(0));
    };
    // With VBMI, unrolled kernel rows pack by byte permutes: per column,
    // rows 0 and 1 in one 64-byte table (16 bytes each), rows 2 and 3 in
    // the other, and one vpermt2b takes row y's byte c into byte y of
    // lane c (bytes past the kernel rows meet zero weight bytes): a
    // 16-byte insert or two and one permute per column instead of kh
    // zero-extending loads, kh - 1 shifts and ORs. Zen 5, one thread:
    // dw2 (stride 2) 25.7 -> 21.4 us; two threads, whose rows all pack
    // anew, dw1 23 -> 19, dw2 13.7 -> 11.1, dw7 6.6 -> 5.8.
    SmallVector<Value> packed;
    if (permuteRows && unrollRows && !carry) {
      SmallVector<std::map<int64_t, Value>> rows;
      for (int64_t y = 0; y < s.kh; ++y)
        rows.push_back(loadRowBytes(bb, inputRow(bb, idx(bb, y))));
      SmallVector<int8_t> index;
      for (int64_t c = 0; c < 16; ++c)
        for (int64_t y = 0; y < 4; ++y) {
          // Row y's table (rows 0-1 in the first, then 2-3; with two
          // rows, row 1 alone in the second) and position in it.
          int64_t table = s.kh == 2 ? y : y / 2;
          int64_t pos = s.kh == 2 ? 0 : y % 2;
          index.push_back(static_cast<int8_t>(
              y < s.kh ? 64 * table + 16 * pos + c : 4 * c + y));
        }
      Value packIndex =
          constant(DenseElementsAttr::get(byteType, ArrayRef<int8_t>(index)));
      for (auto &entry : columnSlot) {
        auto row = [&](int64_t y) { return rows[y].at(entry.first); };
        Value first =
            s.kh == 2 ? widenBytes(bb, row(0)) : widenBytes(bb, row(0), row(1));
        Value second = s.kh == 2   ? widenBytes(bb, row(1))
                       : s.kh == 3 ? widenBytes(bb, row(2))
                                   : widenBytes(bb, row(2), row(3));
        packed.push_back(permuteBytes(bb, first, packIndex, second));
      }
    } else {
      SmallVector<Value> packedInit(columnSlot.size(), zero);
      packed = reduceLoop(
          bb, packRows, packedInit,
          [&](OpBuilder &kb, Value khIv, ValueRange cols) {
            // Unrolled, the first row is the lanes as loaded and the
            // shifts are constants.
            std::optional<int64_t> row = getConstantIntValue(khIv);
            Value shift;
            if (row) {
              shift = arith::ConstantOp::create(
                  kb, loc,
                  DenseElementsAttr::get(
                      accType, kb.getI32IntegerAttr(8 * (*row + firstByte))));
            } else {
              Value byte = add(kb, khIv, firstByte);
              Value bits = arith::IndexCastOp::create(
                  kb, loc, i32,
                  arith::MulIOp::create(kb, loc, byte, idx(kb, 8)));
              shift = vector::BroadcastOp::create(kb, loc, accType, bits);
            }
            std::map<int64_t, Value> lanes = loadColumns(kb, khIv);
            SmallVector<Value> next;
            for (auto [col, entry] : llvm::zip_equal(cols, columnSlot)) {
              Value v = lanes.at(entry.first);
              next.push_back(row == 0 && !firstByte
                                 ? v
                                 : arith::OrIOp::create(
                                       kb, loc, col,
                                       arith::ShLIOp::create(kb, loc, v, shift))
                                       .getResult());
            }
            return next;
          },
          unrollRows);
    }
    // `byte` in bytes [first, first + count) of every lane.
    auto inRowBytes = [&](uint8_t byte, int64_t first, int64_t count) {
      uint32_t bits = 0;
      for (int64_t y = first; y < first + count; ++y)
        bits |= static_cast<uint32_t>(byte) << (8 * y);
      return splat(bits);
    };
    Value flipBytes =
        flipPacked ? inRowBytes(0x80, firstByte, packRows) : Value();
    std::map<int64_t, Value> columns;
    for (auto [col, entry] : llvm::zip_equal(packed, columnSlot))
      columns[entry.first] =
          flipPacked ? arith::XOrIOp::create(bb, loc, col, flipBytes) : col;
    SmallVector<Value> taps = loadTaps(bb, idx(bb, 0));
    // With a window coefficient d (KernelSpec::d), each packed column's
    // sum of its kernel rows' bytes times d (one vpdpbusd against d in
    // those bytes) is added to the accumulator of every pixel whose
    // window holds the column, before the taps: the weights are stored
    // less d.
    Value windowBytes;
    if (s.d != 0)
      windowBytes = vector::BitCastOp::create(
          bb, loc, byteType, inRowBytes(static_cast<uint8_t>(s.d), 0, s.kh));
    auto withWindowSums = [&](OpBuilder &kb,
                              const std::map<int64_t, Value> &cols) {
      SmallVector<Value> accs(init);
      if (!windowBytes)
        return accs;
      std::map<int64_t, Value> sums;
      for (auto &[slot, col] : cols)
        sums[slot] =
            step(kb, zero, vector::BitCastOp::create(kb, loc, byteType, col),
                 windowBytes);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < s.kw; ++k)
          accs[r] = arith::AddIOp::create(kb, loc, accs[r],
                                          sums.at(r * s.sw + k * s.dw));
      return accs;
    };
    if (!carry)
      return steps(bb, withWindowSums(bb, columns), columns, taps);
    // The band's rows: output row oh + i reads input rows one lower than
    // row oh + i - 1, so each packed column drops its byte 0 (a right
    // shift by 8) and takes input row oh + i + kh - 1 - padTop, flipped
    // for s8 input, as byte kh - 1 (by a byte permute with VBMI, below):
    // a load, two shifts and one vpternlogd per column instead of kh
    // loads, kh - 1 shifts and the ORs (Zen 4, AOT, one thread: MobileNet
    // v2 2.28-2.30 -> 2.21-2.24 ms, the generated MobileNet v1 3.07-3.10
    // -> 3.05). Columns outside the input take the zero point's lanes as
    // their new row.
    int64_t top = 8 * (s.kh - 1);
    Value eight = splat(8), topShift = splat(top);
    Value topFlip = flipPacked ? splat(0x80u << top) : Value();
    SmallVector<Value> carried;
    for (auto &entry : columns)
      carried.push_back(entry.second);
    // With AVX512-VBMI, one two-source byte permute (vpermt2b) per
    // column does the slide: the carried column's bytes 1 .. kh - 1 move
    // down, the new row's 16 bytes as stored (loadRowBytes) become byte
    // kh - 1 of their lanes, byte 3 of a 3-row kernel stays 0; the same
    // xor then flips the new byte for s8 input. One instruction and a
    // 16-byte load instead of the zero-extending load, two shifts and the
    // OR (Zen 5, one thread: MobileNet v1's dw1 36.0 -> 29.2 us, dw3 36.2
    // -> 31.1, MobileNet v2's 56x56x144 43 -> 36).
    Value slideIndex;
    if (permuteRows) {
      SmallVector<int8_t> index;
      for (int64_t c = 0; c < 16; ++c)
        for (int64_t y = 0; y < 4; ++y)
          index.push_back(static_cast<int8_t>(y < s.kh - 1    ? 4 * c + y + 1
                                              : y == s.kh - 1 ? 64 + c
                                                              : 4 * c + y));
      slideIndex =
          constant(DenseElementsAttr::get(byteType, ArrayRef<int8_t>(index)));
    }
    scf::ForOp::create(
        bb, loc, idx(bb, 0), carry->count, idx(bb, 1), carried,
        [&](OpBuilder &lb, Location, Value i, ValueRange cols) {
          Value oh = arith::AddIOp::create(lb, loc, ohIv, i);
          Value ih = add(lb, oh, (s.kh - 1) * s.dh - s.padTop);
          // The new row: its bytes (widened for the permutes) or its
          // lanes.
          std::map<int64_t, Value> fresh;
          if (permuteRows) {
            fresh = loadRowBytes(lb, ih);
            for (auto &entry : fresh)
              entry.second = widenBytes(lb, entry.second);
          } else {
            fresh = loadRow(lb, ih);
          }
          std::map<int64_t, Value> next;
          SmallVector<Value> yields;
          for (auto [col, entry] : llvm::zip_equal(cols, columnSlot)) {
            Value v;
            if (permuteRows) {
              v = permuteBytes(
                  lb, vector::BitCastOp::create(lb, loc, byteType, col),
                  slideIndex, fresh.at(entry.first));
            } else {
              // In this order (the IR is the same whatever the C++
              // compiler's order of evaluating arguments).
              Value in = arith::ShLIOp::create(lb, loc, fresh.at(entry.first),
                                               topShift);
              Value down = arith::ShRUIOp::create(lb, loc, col, eight);
              v = arith::OrIOp::create(lb, loc, down, in);
            }
            if (topFlip)
              v = arith::XOrIOp::create(lb, loc, v, topFlip);
            next[entry.first] = v;
            yields.push_back(v);
          }
          carry->store(lb, oh, steps(lb, withWindowSums(lb, next), next, taps));
          scf::YieldOp::create(lb, loc, yields);
        });
    return SmallVector<Value>{};
  };
  // Applies the epilogue to a tile's accumulators and stores its pixels.
  auto storeTile = [&](OpBuilder &bb, Value nIv, Value ohIv, Value ow0,
                       int64_t rows, Value jIv, Value c0,
                       ArrayRef<Value> accs) {
    SmallVector<Value> constants;
    if (epilogue)
      constants = loadChannelConstants(bb, c0);
    auto store = [&](Value v, int64_t r) {
      vector::StoreOp::create(bb, loc, v, out,
                              ValueRange{nIv, ohIv, add(bb, ow0, r), jIv, c0});
    };
    // Pixels narrow together, four (or two, or one) at a
    // time (packBytes), then one 16-byte store each.
    if (tail) {
      // Every vector holds the same channels.
      std::optional<PackedTail> perChannel =
          packTail(bb, *tail, SmallVector<ArrayRef<Value>>(4, constants));
      for (int64_t g = 0; g < rows;) {
        int64_t count = rows - g >= 4 ? 4 : rows - g >= 2 ? 2 : 1;
        SmallVector<Value> vals;
        for (int64_t r = g; r < g + count; ++r)
          vals.push_back(applyEpilogue(bb, accs[r], constants, &*tail));
        if (count == 1)
          vals.push_back(vals.front());
        // Opaque: LLVM would otherwise fold the vpermd
        // into a permute per 16-byte extract (nine
        // shuffles instead of one).
        Value packed =
            packBytes(bb, vals, *tail, perChannel ? &*perChannel : nullptr,
                      /*opaque=*/true);
        for (int64_t k = 0; k < count; ++k)
          store(vector::ExtractStridedSliceOp::create(
                    bb, loc, packed, ArrayRef<int64_t>{16 * k},
                    ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1}),
                g + k);
        g += count;
      }
      return;
    }
    for (int64_t r = 0; r < rows; ++r)
      store(epilogue ? applyEpilogue(bb, accs[r], constants) : accs[r], r);
  };
  // The loops over the multiplier and the channel blocks of a tile;
  // `body` builds one block's accumulation and stores.
  auto channelBlocks =
      [&](OpBuilder &tb,
          function_ref<void(OpBuilder &, Value, Value, Value)> body) {
        scf::ForOp::create(
            tb, loc, idx(tb, 0), idx(tb, s.mult), idx(tb, 1), ValueRange{},
            [&](OpBuilder &jb, Location, Value jIv, ValueRange) {
              scf::ForOp::create(
                  jb, loc, idx(jb, 0), idx(jb, cBlocks), idx(jb, 1),
                  ValueRange{},
                  [&](OpBuilder &bb, Location, Value cb, ValueRange) {
                    Value c0 = mul(bb, cb, lanes);
                    Value zpLanes =
                        s.inH ? vector::LoadOp::create(bb, loc, accType, corr,
                                                       idx(bb, s.op))
                                    .getResult()
                              : Value();
                    body(bb, jIv, c0, zpLanes);
                    scf::YieldOp::create(bb, loc);
                  });
              scf::YieldOp::create(jb, loc);
            });
      };
  // One tile: its accumulation and stores for every channel block; with
  // `bandRows` (a band whose rows carry, see RowCarry), also the tiles
  // at the same columns of the bandRows - 1 output rows below.
  auto tileBody = [&](OpBuilder &tb, Value nIv, Value ohIv, Value ow0,
                      int64_t ow0S, int64_t rows, bool rowCheck,
                      Columns columnsKind, Value bandRows = Value()) {
    channelBlocks(tb, [&](OpBuilder &bb, Value jIv, Value c0, Value zpLanes) {
      auto storeRow = [&](OpBuilder &sb, Value oh, ArrayRef<Value> accs) {
        storeTile(sb, nIv, oh, ow0, rows, jIv, c0, accs);
      };
      RowCarry carry{bandRows, storeRow};
      bool carries = bandRows && !rowCheck;
      SmallVector<Value> accs = tileAccumulators(
          bb, nIv, ohIv, ow0, ow0S, rows, rowCheck, columnsKind, jIv, c0,
          zpLanes, carries ? &carry : nullptr);
      if (!carries)
        storeTile(bb, nIv, ohIv, ow0, rows, jIv, c0, accs);
    });
  };
  // One output row as tiles of tileRows pixels from ow = 0 and a last
  // tile of the rest. The tiles whose taps all fall inside the input
  // along the row run as a loop; the others (at most kStaticTiles on
  // each side, else a loop of checked tiles) and the last one are
  // emitted at their constant positions, so that their columns outside
  // the input are known here. (With single checked pixels instead, a
  // 14-pixel row ran 6 of its pixels one at a time.)
  constexpr int64_t kStaticTiles = 2;
  int64_t fullTiles = s.ow / tileRows, rest = s.ow % tileRows;
  // The number of tiles of a row taken as full tiles only (the last one
  // ending at the row's last pixel, see tileStart).
  int64_t rowTileCount = (s.ow + tileRows - 1) / tileRows;
  int64_t cleanA = std::min(fullTiles, (owA + tileRows - 1) / tileRows);
  int64_t cleanB = std::max(cleanA, std::min(fullTiles, owB / tileRows));
  // The first column of tile t of a row of full tiles, the last one
  // (with a rest) ending at the row's last pixel.
  auto tileStart = [&](OpBuilder &ob, Value t) {
    return rest ? clampedTileStart(ob, t, tileRows, s.ow)
                : mul(ob, t, tileRows);
  };
  auto rowTiles = [&](OpBuilder &ob, Value nIv, Value ohIv, bool rowCheck,
                      Value bandRows = Value()) {
    // A border row (a few per image) is one loop of checked tiles, the
    // last one ending at the row's last pixel (recomputing pixels of the
    // tile before it, in the same row: the same thread), so that border
    // rows cost one tile body rather than a row's three or four: the
    // self-padding kernels' code was about four times the padded-copy
    // kernels' (compile time).
    if (rowCheck && s.inH != 0 && s.ow >= tileRows) {
      forLoop(ob, 0, rowTileCount, 1, [&](OpBuilder &lb, Value t) {
        Value ow0 = tileStart(lb, t);
        tileBody(lb, nIv, ohIv, ow0, 0, tileRows, /*rowCheck=*/true,
                 Columns::Dynamic);
      });
      return;
    }
    // An interior row of a self-padding kernel on the int16 and generic
    // targets, with its few border tiles at constant positions: one
    // loop over the tiles, each channel block's accumulation chosen by
    // an scf.index_switch on the tile (its static tiles as cases, the
    // interior ones as the default) and one epilogue after it for them
    // all, instead of an epilogue per tile variant (each 16-lane
    // epilogue costs LLVM's instruction selection about 8 M
    // instructions). A rest is one more tile, ending at the row's last
    // pixel. (The VNNI kernel keeps its separate tiles, and so do
    // stride-2 rows: merged, MobileNet v1's dw2 ran 8% slower on Zen 3,
    // dw1 and dw3 at stride 1 the same.)
    if (!vnni && !rowCheck && s.inH != 0 && s.sw == 1 && s.ow >= tileRows &&
        cleanA <= kStaticTiles && fullTiles - cleanB <= kStaticTiles &&
        cleanB > cleanA) {
      // The static tiles: (index, first column).
      SmallVector<std::pair<int64_t, int64_t>> staticTiles;
      for (int64_t t = 0; t < cleanA; ++t)
        staticTiles.push_back({t, t * tileRows});
      for (int64_t t = cleanB; t < fullTiles; ++t)
        staticTiles.push_back({t, t * tileRows});
      if (rest)
        staticTiles.push_back({fullTiles, s.ow - tileRows});
      SmallVector<int64_t> cases;
      for (auto [tile, start] : staticTiles)
        cases.push_back(tile);
      forLoop(ob, 0, rowTileCount, 1, [&](OpBuilder &lb, Value t) {
        Value ow0 = tileStart(lb, t);
        channelBlocks(lb, [&](OpBuilder &bb, Value jIv, Value c0,
                              Value zpLanes) {
          // The static tiles' starts, defined before the switch that
          // uses them.
          SmallVector<Value> starts;
          for (auto [tile, start] : staticTiles)
            starts.push_back(idx(bb, start));
          SmallVector<Type> types(tileRows, accType);
          auto tileSwitch = scf::IndexSwitchOp::create(bb, loc, types, t, cases,
                                                       cases.size());
          auto accumulate = [&](Region &region, Value start, int64_t startS,
                                Columns kind) {
            OpBuilder cb(region.getContext());
            cb.setInsertionPointToStart(&region.emplaceBlock());
            SmallVector<Value> accs =
                tileAccumulators(cb, nIv, ohIv, start, startS, tileRows,
                                 /*rowCheck=*/false, kind, jIv, c0, zpLanes);
            scf::YieldOp::create(cb, loc, accs);
          };
          for (auto [i, tile] : llvm::enumerate(staticTiles))
            accumulate(tileSwitch.getCaseRegions()[i], starts[i], tile.second,
                       Columns::Static);
          accumulate(tileSwitch.getDefaultRegion(), ow0, 0, Columns::Inside);
          SmallVector<Value> accs(tileSwitch.getResults());
          storeTile(bb, nIv, ohIv, ow0, tileRows, jIv, c0, accs);
        });
      });
      return;
    }
    // (A Dynamic tile's columns are checked per row: it does not carry
    // rows, and a band of rows runs it once per row.)
    auto borderTiles = [&](int64_t lo, int64_t hi) {
      if (hi - lo > kStaticTiles) {
        auto dynamicTiles = [&](OpBuilder &rb, Value oh) {
          forLoop(rb, lo * tileRows, hi * tileRows, tileRows,
                  [&](OpBuilder &lb, Value ow0) {
                    tileBody(lb, nIv, oh, ow0, 0, tileRows, rowCheck,
                             Columns::Dynamic);
                  });
        };
        if (!bandRows) {
          dynamicTiles(ob, ohIv);
          return;
        }
        scf::ForOp::create(
            ob, loc, idx(ob, 0), bandRows, idx(ob, 1), ValueRange{},
            [&](OpBuilder &rb, Location, Value i, ValueRange) {
              dynamicTiles(rb, arith::AddIOp::create(rb, loc, ohIv, i));
              scf::YieldOp::create(rb, loc);
            });
        return;
      }
      for (int64_t t = lo; t < hi; ++t)
        tileBody(ob, nIv, ohIv, idx(ob, t * tileRows), t * tileRows, tileRows,
                 rowCheck, Columns::Static, bandRows);
    };
    borderTiles(0, cleanA);
    forLoop(ob, cleanA * tileRows, cleanB * tileRows, tileRows,
            [&](OpBuilder &lb, Value ow0) {
              tileBody(lb, nIv, ohIv, ow0, 0, tileRows, rowCheck,
                       Columns::Inside, bandRows);
            });
    borderTiles(cleanB, fullTiles);
    if (rest)
      tileBody(ob, nIv, ohIv, idx(ob, fullTiles * tileRows),
               fullTiles * tileRows, rest, rowCheck, Columns::Static, bandRows);
  };
  int64_t work = s.n * s.oh * s.ow * s.op * s.kh * s.kw * kDepthwiseWorkFactor;
  // Output rows [lo, hi) (`skip` rows skipped after `split`), each image
  // and row once (serial code).
  auto rowsLoop = [&](OpBuilder &ob, int64_t count, int64_t lo, int64_t split,
                      int64_t skip, bool rowCheck) {
    if (count <= 0)
      return;
    auto row = [&](OpBuilder &rb, Value nIv, Value i) {
      Value oh = add(rb, i, lo);
      if (skip) {
        Value before = arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::ult,
                                             i, idx(rb, split));
        oh = arith::SelectOp::create(rb, loc, before, oh, add(rb, oh, skip));
      }
      rowTiles(rb, nIv, oh, rowCheck);
    };
    forLoop(ob, 0, s.n, 1, [&](OpBuilder &nb, Value nIv) {
      forLoop(nb, 0, count, 1,
              [&](OpBuilder &rb, Value i) { row(rb, nIv, i); });
    });
  };
  // Serial code: packed kernel rows at stride 1 carry their packed
  // columns down the interior rows, one band of them (tileAccumulators).
  // With threads, as bands of up to 8 rows beside the border rows, the
  // layers ran faster or slower than the rows one by one from run to run
  // (Zen 4, 2 threads: dw3 40 or 54 us against 45, the mode changing
  // between benchmark instances in one process); the parallel loop
  // stays over rows.
  int64_t interior = ohB - ohA;
  bool threaded = parallel && s.n * s.oh > 1 && work >= parallelMinWork;
  if (vnni && s.packsKernelRows() && s.sh == 1 && s.dh == 1 && interior > 1 &&
      !threaded) {
    rowsLoop(b, ohA + (s.oh - ohB), 0, ohA, ohB - ohA, /*rowCheck=*/true);
    forLoop(b, 0, s.n, 1, [&](OpBuilder &nb, Value nIv) {
      rowTiles(nb, nIv, idx(nb, ohA), /*rowCheck=*/false, idx(nb, interior));
    });
    return;
  }
  // With threads, one parallel loop over every output row, a row
  // checking its input rows when it is a border row (two loops were two
  // thread-team wake-ups, the border one with a row or two per thread).
  if (threaded) {
    parallelOverImages(b, s.oh, [&](OpBuilder &pb, Value nIv, Value oh) {
      if (ohA == 0 && ohB == s.oh) {
        rowTiles(pb, nIv, oh, /*rowCheck=*/false);
        return;
      }
      Value above = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::ult,
                                          oh, idx(pb, ohA));
      Value below = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::uge,
                                          oh, idx(pb, ohB));
      Value border = arith::OrIOp::create(pb, loc, above, below);
      scf::IfOp::create(
          pb, loc, border,
          [&](OpBuilder &tb, Location) {
            rowTiles(tb, nIv, oh, /*rowCheck=*/true);
            scf::YieldOp::create(tb, loc);
          },
          [&](OpBuilder &eb, Location) {
            rowTiles(eb, nIv, oh, /*rowCheck=*/false);
            scf::YieldOp::create(eb, loc);
          });
    });
    return;
  }
  // The border rows above and below the interior ones, as one loop.
  rowsLoop(b, ohA + (s.oh - ohB), 0, ohA, ohB - ohA, /*rowCheck=*/true);
  rowsLoop(b, ohB - ohA, ohA, 0, 0, /*rowCheck=*/false);
}

Value KernelBuilder::within(OpBuilder &ob, Value v, int64_t extent) {
  Value lo =
      arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::sge, v, idx(ob, 0));
  Value hi = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::slt, v,
                                   idx(ob, extent));
  return arith::AndIOp::create(ob, loc, lo, hi);
}

Value KernelBuilder::clampInto(OpBuilder &ob, Value v, int64_t extent) {
  Value lo = arith::MaxSIOp::create(ob, loc, v, idx(ob, 0));
  return arith::MinSIOp::create(ob, loc, lo, idx(ob, extent - 1));
}

Value KernelBuilder::loadLanes(OpBuilder &ob, Value nIv, Value ih, Value iw,
                               Value c0, Value inside, Value zpLanes,
                               bool flip) {
  Type i8 = ob.getI8Type(), i32 = ob.getI32Type();
  auto accType = VectorType::get({s.lanes()}, i32);
  Value xv = vector::LoadOp::create(ob, loc, VectorType::get({s.lanes()}, i8),
                                    x, ValueRange{nIv, ih, iw, c0});
  Value lanes;
  if (s.flavor != KernelFlavor::DepthwiseVNNI) {
    lanes = s.inputSigned
                ? arith::ExtSIOp::create(ob, loc, accType, xv).getResult()
                : arith::ExtUIOp::create(ob, loc, accType, xv).getResult();
  } else if (s.inputSigned && flip) {
    lanes = arith::AddIOp::create(
        ob, loc, arith::ExtSIOp::create(ob, loc, accType, xv),
        arith::ConstantOp::create(
            ob, loc,
            DenseElementsAttr::get(accType, ob.getI32IntegerAttr(128))));
  } else {
    lanes = arith::ExtUIOp::create(ob, loc, accType, xv);
  }
  if (inside)
    lanes = arith::SelectOp::create(ob, loc, inside, lanes, zpLanes);
  return lanes;
}
