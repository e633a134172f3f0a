//===- NPUBase.td - npu dialect and enums --------------------*- tablegen -*-===//

#ifndef NPU_BASE_TD
#define NPU_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def NPU_Dialect : Dialect {
  let name = "npu";
  let cppNamespace = "::mlir::npu";
  let summary = "Fused quantized operators of a neural-network accelerator";
  let description = [{
    Every npu operator is one accelerator command: the integer arithmetic of
    the main operator, the i32 bias, the fixed-point requantize to the 8-bit
    output and a fused activation epilogue. Activations are NHWC; convolution
    kernels are OHWI, where I is the number of input channels per group (1
    for a depthwise convolution). The arithmetic is that of
    `QNN/Utils/QuantMath.h`.

    Fused activation (attributes shared by all operators):
    - `activation`: `none`, `relu`, `relu6`, `clip`, `leaky_relu` or `lut`
      (the kind is informative for `none`..`clip`: all four are the clamp).
    - `act_min`, `act_max`: the requantized value is clamped to
      `[act_min, act_max]` (a subrange of the result storage range; `none`
      is the whole storage range, `relu` starts at the output zero point,
      `relu6` ends at `output_zero_point + round(6 / output_scale)`, as
      TFLite fuses them).
    - `leaky_relu`: `leaky_params = [identity_multiplier, identity_shift,
      alpha_multiplier, alpha_shift, leaky_output_zero_point]` from
      `computeLeakyReluParams`; after the clamp,
      `x' = y - output_zero_point`, `r = rescale_tflite(x', x' >= 0 ?
      identity : alpha) + leaky_output_zero_point`, clamped to the storage
      range (TFLite's LEAKY_RELU). The result's real scale is then that of
      the leaky ReLU, not `output_scale`.
    - `lut`: `lut` holds 256 entries; after the clamp, the result is
      `lut[uint8(y)]` (indexed by the low byte of the stored value, as
      TFLite's `LUTPopulate`). Entries lie in the storage range.
  }];
  let dependentDialects = ["::mlir::qnn::QNNDialect"];
  let useDefaultAttributePrinterParser = 1;
}

class NPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<NPU_Dialect, mnemonic, traits>;

def NPU_ActNone : I32EnumAttrCase<"none", 0>;
def NPU_ActRelu : I32EnumAttrCase<"relu", 1>;
def NPU_ActRelu6 : I32EnumAttrCase<"relu6", 2>;
def NPU_ActClip : I32EnumAttrCase<"clip", 3>;
def NPU_ActLeakyRelu : I32EnumAttrCase<"leaky_relu", 4>;
def NPU_ActLut : I32EnumAttrCase<"lut", 5>;
def NPU_ActivationEnum : I32EnumAttr<"Activation",
    "fused activation of an npu operator",
    [NPU_ActNone, NPU_ActRelu, NPU_ActRelu6, NPU_ActClip, NPU_ActLeakyRelu,
     NPU_ActLut]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::npu";
}
def NPU_ActivationAttr : EnumAttr<NPU_Dialect, NPU_ActivationEnum, "activation"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // NPU_BASE_TD
