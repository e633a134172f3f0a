//===- MobileNetLayers.h - the MobileNet v1 1.0 224 convolutions ----------===//
//
// The 27 convolutions of MobileNet v1 1.0 at 224x224 (batch 1, NHWC), used by
// every benchmark so that all libraries run the same shapes on the same data.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_BENCH_MOBILENETLAYERS_H
#define QNN_BENCH_MOBILENETLAYERS_H

#include <cstdint>
#include <string>
#include <vector>

namespace qnn::bench {

struct ConvLayer {
  std::string name;
  int64_t inH, inW, inC, outC;
  int64_t kernel, stride;
  bool depthwise;
  // TensorFlow SAME padding.
  int64_t padTop() const { return padTotal(inH) / 2; }
  int64_t padLeft() const { return padTotal(inW) / 2; }
  int64_t padBottom() const { return padTotal(inH) - padTop(); }
  int64_t padRight() const { return padTotal(inW) - padLeft(); }
  int64_t outH() const { return (inH + stride - 1) / stride; }
  int64_t outW() const { return (inW + stride - 1) / stride; }
  int64_t macs() const {
    int64_t perOutput = kernel * kernel * (depthwise ? 1 : inC);
    return outH() * outW() * outC * perOutput;
  }

private:
  int64_t padTotal(int64_t in) const {
    int64_t out = (in + stride - 1) / stride;
    int64_t total = (out - 1) * stride + kernel - in;
    return total > 0 ? total : 0;
  }
};

/// All convolutions in network order.
inline std::vector<ConvLayer> mobileNetV1Layers() {
  std::vector<ConvLayer> layers;
  layers.push_back({"conv0", 224, 224, 3, 32, 3, 2, false});
  struct Block {
    int64_t size, channels, outChannels, stride;
  };
  const Block blocks[] = {{112, 32, 64, 1},   {112, 64, 128, 2},
                          {56, 128, 128, 1},  {56, 128, 256, 2},
                          {28, 256, 256, 1},  {28, 256, 512, 2},
                          {14, 512, 512, 1},  {14, 512, 512, 1},
                          {14, 512, 512, 1},  {14, 512, 512, 1},
                          {14, 512, 512, 1},  {14, 512, 1024, 2},
                          {7, 1024, 1024, 1}};
  int index = 1;
  for (const Block &b : blocks) {
    layers.push_back({"dw" + std::to_string(index), b.size, b.size, b.channels,
                      b.channels, 3, b.stride, true});
    int64_t out = (b.size + b.stride - 1) / b.stride;
    layers.push_back({"pw" + std::to_string(index), out, out, b.channels,
                      b.outChannels, 1, 1, false});
    ++index;
  }
  return layers;
}

/// The layers of the per-layer table in ../shared/anchors.md.
inline std::vector<ConvLayer> representativeLayers() {
  std::vector<ConvLayer> picked;
  for (const ConvLayer &l : mobileNetV1Layers())
    for (const char *name : {"conv0", "dw1", "pw1", "dw2", "pw3", "dw3", "pw5",
                             "dw7", "pw7", "pw13"})
      if (l.name == name)
        picked.push_back(l);
  return picked;
}

/// Deterministic pseudo-random bytes (the same for every library).
inline std::vector<uint8_t> deterministicBytes(size_t count, uint32_t seed) {
  std::vector<uint8_t> bytes(count);
  uint32_t state = seed * 2654435761u + 1;
  for (auto &b : bytes) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    b = static_cast<uint8_t>(state >> 24);
  }
  return bytes;
}

} // namespace qnn::bench

#endif // QNN_BENCH_MOBILENETLAYERS_H
