//===- Passes.td - qnn conversion passes --------------------*- tablegen -*-===//

#ifndef QNN_CONVERSION_PASSES_TD
#define QNN_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertQNNToLinalg : Pass<"convert-qnn-to-linalg", "ModuleOp"> {
  let summary = "Lower qnn operators to exact integer linalg/arith code";
  let description = [{
    Rewrites every qnn operator into `linalg.generic`, `tensor` and `arith`
    operations that compute exactly the integers of `QNN/Utils/QuantMath.h`.
    Unsigned and signed (`ui8`, `si8`) storage types become signless
    integers of the same width; the lowering of each operator keeps the
    signedness it read from the original types (zero or sign extension,
    unsigned comparisons), and `tosa.cast`/`tosa.clamp` on unsigned tensors
    are lowered here for the same reason. Other operators are only retyped.

    Convolutions and dense layers become a plain 8-bit x 8-bit -> i32
    contraction of the input padded with its zero point; the zero-point
    terms are decomposed: `input_zp * sum(w)` and `K * input_zp * weight_zp`
    are folded into a per-channel constant when the weight is a constant,
    and the `weight_zp * window_sum(input)` term is emitted only when
    `weight_zp != 0`. Multipliers are computed at compile time with
    `math::quantizeMultiplier`.

    `target=avx512-vnni` lowers eligible pointwise (1x1, stride 1, NHWC)
    convolutions and dense layers with constant `i8` weights of zero point 0,
    `K % 4 == 0` and `O % 16 == 0` to a register-blocked `vpdpbusd` kernel
    with weights pre-packed at compile time; every other operator takes the
    generic path.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect", "::mlir::math::MathDialect",
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"generic\"",
           "Code generation target: generic, avx512-vnni or int16">
  ];
}

def NPUExpandToQNN : Pass<"npu-expand-to-qnn", "::mlir::func::FuncOp"> {
  let summary = "Rewrite npu operators into the equivalent qnn/tosa sequence";
  let description = [{
    Expands every fused npu operator back into the qnn operators that compute
    the same integers, so that programs produced by `--qnn-to-npu` can be
    compiled for the CPU with `convert-qnn-to-linalg`:
    - `npu.conv2d` becomes `qnn.conv2d` (NHWC, OHWI, the same window
      attributes), `tosa.add` of the bias reshaped to `[1, 1, 1, O]`,
      `qnn.requantize` to the 8-bit result with the per-channel input scales
      `double(input_scale) * double(weight_scale[o])` (axis 3), and the
      epilogue; `npu.fully_connected` likewise around `qnn.dense`.
    - `npu.add` becomes `qnn.add`, `npu.avg_pool2d`/`npu.max_pool2d` the qnn
      pooling ops (NHWC), each followed by the epilogue.
    - Epilogue: `none`/`relu`/`relu6`/`clip` become a `tosa.clamp` to
      `[act_min, act_max]` when that range is narrower than the storage
      range; `leaky_relu` and `lut` become one 256-entry lookup (clamp and
      activation folded into the table, computed at compile time with
      `QNN/Utils/QuantMath.h`) indexed by the low byte of the value.
  }];
  let dependentDialects = [
    "::mlir::qnn::QNNDialect", "::mlir::tosa::TosaDialect",
    "::mlir::tensor::TensorDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::arith::ArithDialect"
  ];
}

#endif // QNN_CONVERSION_PASSES_TD
