//===- NPUOps.td - npu dialect: fused accelerator operators -*- tablegen -*-===//
//
// The npu dialect holds the fused operators a quantized-network accelerator
// executes: a convolution (or fully connected layer, add, pool) together with
// its zero points, bias, requantize and activation. Activations are NHWC,
// kernels OHWI (I = input channels per group), results 8-bit.
//
//===----------------------------------------------------------------------===//

#ifndef NPU_OPS_TD
#define NPU_OPS_TD

include "QNN/IR/QNNBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

include "NPU/IR/NPUBase.td"

defvar NPU_ActivationArgs = (ins
  DefaultValuedAttr<NPU_ActivationAttr, "::mlir::npu::Activation::none">:$activation,
  I32Attr:$act_min, I32Attr:$act_max,
  OptionalAttr<DenseI32ArrayAttr>:$leaky_params,
  OptionalAttr<DenseI32ArrayAttr>:$lut);

defvar NPU_RescaleArgs = (ins
  F32Attr:$input_scale, I32Attr:$input_zero_point,
  DenseF32ArrayAttr:$weight_scale, I32Attr:$weight_zero_point,
  F32Attr:$output_scale, I32Attr:$output_zero_point,
  DefaultValuedAttr<QNN_RoundingAttr, "::mlir::qnn::Rounding::tflite">:$rounding);

def NPU_Conv2DOp : NPU_Op<"conv2d", [Pure]> {
  let summary = "fused quantized 2-D convolution (dense, grouped, depthwise)";
  let description = [{
    Input `[N, H, W, C]`, weight `[O, KH, KW, C / groups]` (OHWI), optional
    bias `[O]` (i32), result `[N, OH, OW, O]` of 8-bit storage:

    ```
    acc[n, oh, ow, o] = bias[o] + sum_{kh, kw, i}
        (in[n, oh*sh + kh*dh - pad_top, ow*sw + kw*dw - pad_left, g*Cg + i]
           - input_zero_point)
      * (w[o, kh, kw, i] - weight_zero_point)
    m[o]  = quantizeMultiplier(double(input_scale) * double(weight_scale[o])
                               / double(output_scale))
    y     = clamp(rescale(acc, m[o], rounding) + output_zero_point,
                  act_min, act_max)
    ```

    then the activation epilogue (see the dialect). `g = o / (O / groups)`,
    `Cg = C / groups`; positions outside the input hold `pad_value`, which
    must be the input zero point (so they contribute 0). `weight_scale` has
    one entry or one per output channel. `padding` is
    `[top, left, bottom, right]`, `strides` and `dilations` `[h, w]`.
  }];
  let arguments = !con(
    (ins QNN_QTensor8:$input, QNN_QTensor8:$weight,
         Optional<QNN_AccTensor>:$bias),
    NPU_RescaleArgs,
    (ins DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding,
         DenseI64ArrayAttr:$dilations, I64Attr:$groups, I32Attr:$pad_value),
    NPU_ActivationArgs);
  let results = (outs QNN_QTensor8:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NPU_FullyConnectedOp : NPU_Op<"fully_connected",
                                  [Pure]> {
  let summary = "fused quantized fully connected layer";
  let description = [{
    Input `[N, K]`, weight `[O, K]`, optional bias `[O]` (i32):
    `acc[n, o] = bias[o] + sum_k (in[n, k] - input_zero_point) *
    (w[o, k] - weight_zero_point)`, then the requantize, clamp and
    activation epilogue exactly as `npu.conv2d`.
  }];
  let arguments = !con(
    (ins QNN_QTensor8:$input, QNN_QTensor8:$weight,
         Optional<QNN_AccTensor>:$bias),
    NPU_RescaleArgs, NPU_ActivationArgs);
  let results = (outs QNN_QTensor8:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NPU_AddOp : NPU_Op<"add", [Pure]> {
  let summary = "fused quantized elementwise addition";
  let description = [{
    TFLite's quantized ADD (`computeAddParams`, `addQuantized`, the
    arithmetic of `qnn.add`, with its `rounding`: `tflite` or
    `tflite_single`) whose final clamp is `[act_min, act_max]`,
    followed by the activation epilogue. Operands broadcast like `qnn.add`.
  }];
  let arguments = !con(
    (ins QNN_QTensor8:$lhs, QNN_QTensor8:$rhs,
         F32Attr:$lhs_scale, I32Attr:$lhs_zero_point,
         F32Attr:$rhs_scale, I32Attr:$rhs_zero_point,
         F32Attr:$output_scale, I32Attr:$output_zero_point,
         DefaultValuedAttr<QNN_RoundingAttr,
             "::mlir::qnn::Rounding::tflite">:$rounding),
    NPU_ActivationArgs);
  let results = (outs QNN_QTensor8:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class NPU_PoolOp<string mnemonic> : NPU_Op<mnemonic, [Pure]> {
  let arguments = !con(
    (ins QNN_QTensor8:$input, DenseI64ArrayAttr:$kernel,
         DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding),
    NPU_ActivationArgs);
  let results = (outs QNN_QTensor8:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def NPU_AvgPool2DOp : NPU_PoolOp<"avg_pool2d"> {
  let summary = "fused 2-D average pooling";
  let description = [{
    NHWC. Per window: the sum and count of the positions inside the input
    (padding excluded), `y = roundedAverage(sum, count)` (halves away from
    zero, TFLite's integer average pool), clamped to `[act_min, act_max]`,
    then the activation epilogue. Input and result share element type and
    quantization. `kernel`, `strides`: `[h, w]`; `padding`:
    `[top, left, bottom, right]`.
  }];
}

def NPU_MaxPool2DOp : NPU_PoolOp<"max_pool2d"> {
  let summary = "fused 2-D max pooling";
  let description = [{
    NHWC. The maximum over the window positions inside the input, clamped to
    `[act_min, act_max]`, then the activation epilogue.
  }];
}

#endif // NPU_OPS_TD
