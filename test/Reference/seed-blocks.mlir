// Both seed forms of the MobileNet block compute the same integers: the
// PyTorch-like one (NCHW, float weights, pads, clip + cast) gets the same
// image transposed to NCHW and must produce byte-identical results.
// RUN: %mkbin %t.nhwc u8 --random 192 7
// RUN: %mkbin %t.nchw --nhwc-to-nchw %t.nhwc 1 8 8 3
// RUN: qnn-run --reference %qnn_src_root/examples/mobilenet_block_tflite.mlir --input %t.nhwc --output %t.tfl.out
// RUN: qnn-run --reference %qnn_src_root/examples/mobilenet_block_pytorch.mlir --input %t.nchw --output %t.pt.out
// RUN: cmp %t.tfl.out %t.pt.out
// Normalizing (folding the float weights) changes nothing either.
// RUN: qnn-opt %qnn_src_root/examples/mobilenet_block_pytorch.mlir --canonicalize -o %t.norm.mlir
// RUN: qnn-run --reference %t.norm.mlir --input %t.nchw --output %t.norm.out
// RUN: cmp %t.tfl.out %t.norm.out
// A recorded result for a fixed input (sum, arg-max, FNV-1a of the bytes;
// the values 9 22 5 19 21 21 4 20 13 9 16 50 6 11 25 6 agree with
// Inputs/seed_block_model.py, the hash with a Python FNV-1a of them).
// RUN: %mkbin %t.iota u8 --iota 192 0
// RUN: qnn-run --reference %qnn_src_root/examples/mobilenet_block_tflite.mlir --input %t.iota | FileCheck %s
// CHECK: result 0: tensor<1x16xui8> sum=257 argmax=11 max=50 fnv1a=0xadd6d531d1f6e360
