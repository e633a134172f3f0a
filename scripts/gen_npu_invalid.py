# Generates test/Dialect/NPU/invalid.mlir: one case per verifier rule.
cases = []
def conv(name, err, attrs=None, xt="tensor<1x4x4x3xi8>", wt="tensor<2x3x3x3xi8>", bt="tensor<2xi32>", rt="tensor<1x4x4x2xi8>", drop=()):
    a = dict(input_scale="0.5 : f32", input_zero_point="0 : i32", weight_scale="array<f32: 0.25>", weight_zero_point="0 : i32",
             output_scale="0.5 : f32", output_zero_point="0 : i32", strides="array<i64: 1, 1>", padding="array<i64: 1, 1, 1, 1>",
             dilations="array<i64: 1, 1>", groups="1 : i64", pad_value="0 : i32", act_min="-128 : i32", act_max="127 : i32")
    a.update(attrs or {})
    for d in drop: a.pop(d)
    ad = ", ".join(f"{k} = {v}" for k, v in a.items())
    ops = "%x, %w" + (", %b" if bt else "")
    args = f"%x: {xt}, %w: {wt}" + (f", %b: {bt}" if bt else "")
    ots = f"{xt}, {wt}" + (f", {bt}" if bt else "")
    cases.append(f"""func.func @{name}({args}) -> {rt} {{
  // expected-error @+{2 if "@+1" in err else 1} {{{{{err}}}}}
  %0 = npu.conv2d {ops} {{{ad}}} : ({ots}) -> {rt}
  return %0 : {rt}
}}""")
def fc(name, err, attrs=None, xt="tensor<1x8xi8>", wt="tensor<4x8xi8>", bt="tensor<4xi32>", rt="tensor<1x4xi8>"):
    a = dict(input_scale="0.5 : f32", input_zero_point="0 : i32", weight_scale="array<f32: 0.25>", weight_zero_point="0 : i32",
             output_scale="0.5 : f32", output_zero_point="0 : i32", act_min="-128 : i32", act_max="127 : i32")
    a.update(attrs or {})
    ad = ", ".join(f"{k} = {v}" for k, v in a.items())
    ops = "%x, %w" + (", %b" if bt else "")
    args = f"%x: {xt}, %w: {wt}" + (f", %b: {bt}" if bt else "")
    ots = f"{xt}, {wt}" + (f", {bt}" if bt else "")
    cases.append(f"""func.func @{name}({args}) -> {rt} {{
  // expected-error @+1 {{{{{err}}}}}
  %0 = npu.fully_connected {ops} {{{ad}}} : ({ots}) -> {rt}
  return %0 : {rt}
}}""")
def add(name, err, attrs=None, lt="tensor<1x4x4x8xi8>", rt2="tensor<1x4x4x8xi8>", rt="tensor<1x4x4x8xi8>"):
    a = dict(lhs_scale="0.5 : f32", lhs_zero_point="0 : i32", rhs_scale="0.25 : f32", rhs_zero_point="0 : i32",
             output_scale="0.5 : f32", output_zero_point="0 : i32", act_min="-128 : i32", act_max="127 : i32")
    a.update(attrs or {})
    ad = ", ".join(f"{k} = {v}" for k, v in a.items())
    cases.append(f"""func.func @{name}(%a: {lt}, %b: {rt2}) -> {rt} {{
  // expected-error @+1 {{{{{err}}}}}
  %0 = npu.add %a, %b {{{ad}}} : ({lt}, {rt2}) -> {rt}
  return %0 : {rt}
}}""")
def pool(name, err, attrs=None, op="avg_pool2d", it="tensor<1x4x4x3xui8>", rt="tensor<1x2x2x3xui8>"):
    a = dict(kernel="array<i64: 2, 2>", strides="array<i64: 2, 2>", padding="array<i64: 0, 0, 0, 0>", act_min="0 : i32", act_max="255 : i32")
    a.update(attrs or {})
    ad = ", ".join(f"{k} = {v}" for k, v in a.items())
    cases.append(f"""func.func @{name}(%x: {it}) -> {rt} {{
  // expected-error @+1 {{{{{err}}}}}
  %0 = npu.{op} %x {{{ad}}} : {it} -> {rt}
  return %0 : {rt}
}}""")
LUT = "array<i32: " + ", ".join(str(i - 128) for i in range(256)) + ">"
# scales and zero points
conv("conv_input_scale", "'npu.conv2d' op 'input_scale' must be finite and positive, got -5.000000e-01", {"input_scale": "-0.5 : f32"})
conv("conv_output_scale_nan", "'output_scale' must be finite and positive, got nan", {"output_scale": "0x7FC00000 : f32"})
conv("conv_input_zp", "'input_zero_point' 200 is outside the range [-128, 127] of element type 'i8'", {"input_zero_point": "200 : i32", "pad_value": "200 : i32"})
conv("conv_weight_zp", "'weight_zero_point' -1 is outside the range [0, 255] of element type 'ui8'", {"weight_zero_point": "-1 : i32"}, wt="tensor<2x3x3x3xui8>")
conv("conv_output_zp", "'output_zero_point' 128 is outside the range [-128, 127] of element type 'i8'", {"output_zero_point": "128 : i32"})
conv("conv_weight_scale_empty", "'weight_scale' must not be empty", {"weight_scale": "array<f32>"})
conv("conv_weight_scale_zero", "'weight_scale' must be finite and positive, got 0.000000e+00 at index 1", {"weight_scale": "array<f32: 0.5, 0.0>"})
conv("conv_weight_scale_count", "'weight_scale' has 3 entries; expected 1 or one per output channel (2)", {"weight_scale": "array<f32: 0.5, 0.5, 0.5>"})
conv("conv_bias_shape", "bias must be a 1-D tensor of 2 i32 values (one per output channel), got 'tensor<3xi32>'", bt="tensor<3xi32>")
conv("conv_bias_rank", "bias must be a 1-D tensor of 2 i32 values (one per output channel), got 'tensor<1x2xi32>'", bt="tensor<1x2xi32>")
conv("conv_bias_type", "operand #2 must be", bt="tensor<2xi8>")
conv("conv_input_type", "operand #0 must be", xt="tensor<1x4x4x3xi32>")
conv("conv_result_type", "result #0 must be", rt="tensor<1x4x4x2xi32>")
# geometry
conv("conv_weight_rank", "weight must be a rank-4 OHWI tensor", wt="tensor<2x3x3xi8>")
conv("conv_groups", "'groups' must be positive", {"groups": "0 : i64"})
conv("conv_strides", "'strides' must be two positive integers [h, w]", {"strides": "array<i64: 1, 0>"})
conv("conv_strides_count", "'strides' must be two positive integers [h, w]", {"strides": "array<i64: 1>"})
conv("conv_padding", "'padding' must be four non-negative integers [top, left, bottom, right]", {"padding": "array<i64: 1, 1, -1, 1>"})
conv("conv_dilations", "'dilations' must be two positive integers [h, w]", {"dilations": "array<i64: 0, 1>"})
conv("conv_input_rank", "input and result must be rank-4 NHWC tensors", xt="tensor<4x4x3xi8>")
conv("conv_window_fit", "window of 7x7 does not fit the padded input", {"padding": "array<i64: 0, 0, 0, 0>"}, wt="tensor<2x7x7x3xi8>")
conv("conv_result_size", "result spatial size 3x4 does not match the expected 4x4 computed from input size, kernel, strides, padding and dilations", rt="tensor<1x3x4x2xi8>")
conv("conv_batch", "input and result batch sizes differ", rt="tensor<2x4x4x2xi8>")
conv("conv_in_groups", "input channels 3 are not divisible by 'groups' 2", {"groups": "2 : i64"})
conv("conv_out_groups", "output channels 3 are not divisible by 'groups' 2", {"groups": "2 : i64"}, xt="tensor<1x4x4x4xi8>", wt="tensor<3x3x3x2xi8>", bt="tensor<3xi32>", rt="tensor<1x4x4x3xi8>")
conv("conv_weight_in", "weight (OHWI) has 2 input channels per group; expected 3 (input channels / groups)", wt="tensor<2x3x3x2xi8>")
conv("conv_result_channels", "result has 5 channels but the weight has 2 output channels", rt="tensor<1x4x4x5xi8>")
conv("conv_pad_value", "'pad_value' 3 must equal the input zero point 0", {"pad_value": "3 : i32"})
# activation
conv("act_min_max", "'act_min' 10 must not exceed 'act_max' 5", {"activation": "#npu.activation<clip>", "act_min": "10 : i32", "act_max": "5 : i32"})
conv("act_range", "activation range [-200, 127] must lie inside the result storage range [-128, 127]", {"activation": "#npu.activation<clip>", "act_min": "-200 : i32"})
conv("act_range_u8", "activation range [0, 256] must lie inside the result storage range [0, 255]", {"activation": "#npu.activation<clip>", "act_min": "0 : i32", "act_max": "256 : i32"}, rt="tensor<1x4x4x2xui8>")
conv("act_none_range", "activation 'none' needs the full storage range [-128, 127] as [act_min, act_max], got [0, 127] (use 'clip')", {"act_min": "0 : i32"})
conv("act_relu_range", "activation 'relu' needs [act_min, act_max] = [0, 127], got [-128, 127] (use 'clip')", {"activation": "#npu.activation<relu>"})
conv("act_relu6_range", "activation 'relu6' needs [act_min, act_max] = [0, 12], got [0, 127] (use 'clip')", {"activation": "#npu.activation<relu6>", "act_min": "0 : i32"})
conv("leaky_missing", "activation 'leaky_relu' needs 'leaky_params' [identity_multiplier, identity_shift, alpha_multiplier, alpha_shift, output_zero_point]", {"activation": "#npu.activation<leaky_relu>"})
conv("leaky_count", "'leaky_params' must have 5 entries, got 4", {"activation": "#npu.activation<leaky_relu>", "leaky_params": "array<i32: 1073741824, 1, 1073741824, 0>"})
conv("leaky_multiplier", "'leaky_params' multipliers must be non-negative", {"activation": "#npu.activation<leaky_relu>", "leaky_params": "array<i32: 1073741824, 1, -5, 0, 0>"})
conv("leaky_shift", "'leaky_params' shift 31 must lie in [-31, 30]", {"activation": "#npu.activation<leaky_relu>", "leaky_params": "array<i32: 1073741824, 31, 1073741824, 0, 0>"})
conv("leaky_zp", "'leaky_params[4] (output zero point)' 300 is outside the range [-128, 127] of element type 'i8'", {"activation": "#npu.activation<leaky_relu>", "leaky_params": "array<i32: 1073741824, 1, 1073741824, 0, 300>"})
conv("leaky_params_without_leaky", "'leaky_params' is only allowed with activation 'leaky_relu'", {"leaky_params": "array<i32: 1073741824, 1, 1073741824, 0, 0>"})
conv("lut_missing", "activation 'lut' needs a 256-entry 'lut'", {"activation": "#npu.activation<lut>"})
conv("lut_count", "'lut' must have 256 entries, got 3", {"activation": "#npu.activation<lut>", "lut": "array<i32: 0, 1, 2>"})
conv("lut_entry", "'lut' entry 255 = 128 is outside the result storage range [-128, 127]", {"activation": "#npu.activation<lut>", "lut": "array<i32: " + ", ".join(str(i - 127) for i in range(256)) + ">"})
conv("lut_without_lut", "'lut' is only allowed with activation 'lut'", {"lut": LUT})
conv("activation_kind", "expected ::mlir::npu::Activation to be one of: none, relu, relu6, clip, leaky_relu, lut}}\n  // expected-error @+1 {{failed to parse NPU_ActivationAttr parameter 'value'", {"activation": "#npu.activation<gelu>"})
conv("conv_missing_attr", "requires attribute 'pad_value'", drop=("pad_value",))
# fully connected
fc("fc_rank", "input [N, K], weight [O, K] and result [N, O] must be rank 2", xt="tensor<1x1x8xi8>")
fc("fc_features", "input has 8 features but the weight has 6", wt="tensor<4x6xi8>")
fc("fc_result", "result shape 'tensor<1x5xi8>' does not match [N, O] of input and weight", rt="tensor<1x5xi8>")
fc("fc_batch", "result shape 'tensor<2x4xi8>' does not match [N, O] of input and weight", rt="tensor<2x4xi8>")
fc("fc_weight_scale_count", "'weight_scale' has 2 entries; expected 1 or one per output channel (4)", {"weight_scale": "array<f32: 0.5, 0.5>"})
fc("fc_bias", "bias must be a 1-D tensor of 4 i32 values (one per output channel), got 'tensor<8xi32>'", bt="tensor<8xi32>")
fc("fc_input_zp", "'input_zero_point' -129 is outside the range [-128, 127] of element type 'i8'", {"input_zero_point": "-129 : i32"})
# add
add("add_element", "operands and result must have the same element type", rt2="tensor<1x4x4x8xui8>")
add("add_scale", "'rhs_scale' must be finite and positive, got 0.000000e+00", {"rhs_scale": "0.0 : f32"})
add("add_lhs_zp", "'lhs_zero_point' 128 is outside the range [-128, 127] of element type 'i8'", {"lhs_zero_point": "128 : i32"})
add("add_output_zp", "'output_zero_point' -129 is outside the range [-128, 127] of element type 'i8'", {"output_zero_point": "-129 : i32"})
add("add_rank", "operands must have the rank of the result", rt2="tensor<4x4x8xi8>")
add("add_broadcast", "operand 'tensor<1x4x4x3xi8>' does not broadcast to the result 'tensor<1x4x4x8xi8>'", rt2="tensor<1x4x4x3xi8>")
add("add_act", "'act_min' 3 must not exceed 'act_max' 2", {"activation": "#npu.activation<clip>", "act_min": "3 : i32", "act_max": "2 : i32"})
# pools
pool("pool_element", "input and result must have the same element type", rt="tensor<1x2x2x3xi8>")
pool("pool_kernel", "'kernel' must be two positive integers [h, w]", {"kernel": "array<i64: 2, 0>"})
pool("pool_kernel_count", "'kernel' must be two positive integers [h, w]", {"kernel": "array<i64: 2>"})
pool("pool_padding_kernel", "'padding' must be smaller than the kernel on every side, so that every window overlaps the input", {"padding": "array<i64: 2, 0, 0, 0>"}, rt="tensor<1x3x2x3xui8>")
pool("pool_channels", "input and result channel counts differ", rt="tensor<1x2x2x4xui8>")
pool("pool_size", "result spatial size 2x1 does not match the expected 2x2 computed from input size, kernel, strides, padding and dilations", rt="tensor<1x2x1x3xui8>")
pool("pool_strides", "'strides' must be two positive integers [h, w]", {"strides": "array<i64: 0, 2>"}, op="max_pool2d")
pool("pool_relu", "activation 'relu' needs an output scale and zero point (not available on pooling operators)", {"activation": "#npu.activation<relu>"}, op="max_pool2d")
pool("pool_leaky", "activation 'leaky_relu' needs an output scale and zero point (not available on pooling operators)", {"activation": "#npu.activation<leaky_relu>", "leaky_params": "array<i32: 1073741824, 1, 1073741824, 0, 0>"})
pool("pool_lut_entry", "'lut' entry 0 = -1 is outside the result storage range [0, 255]", {"activation": "#npu.activation<lut>", "lut": LUT.replace("array<i32: -128", "array<i32: -1")}, op="max_pool2d")
pool("pool_rank", "input and result must be rank-4 NHWC tensors", it="tensor<4x4x3xui8>")
hdr = """// Every npu verifier rule, with its exact message.
// RUN: qnn-opt %s --split-input-file --verify-diagnostics
// Generated by scripts/gen_npu_invalid.py.

"""
open("test/Dialect/NPU/invalid.mlir", "w").write(hdr + "\n\n// -----\n\n".join(cases) + "\n")
