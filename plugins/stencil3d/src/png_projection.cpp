#include "src/png_projection.hpp"

#include <solvent/errors.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace solvent::stencil3d {
namespace {

constexpr int image_target = 512;  // pixels along the longer side, at least one per node
constexpr int shades = 64;         // palette: shades of background, then of vessel

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

void chunk(std::vector<std::uint8_t>& png, const char* type,
           const std::vector<std::uint8_t>& data) {
  put32(png, static_cast<std::uint32_t>(data.size()));
  std::vector<std::uint8_t> body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  png.insert(png.end(), body.begin(), body.end());
  put32(png, static_cast<std::uint32_t>(
                 crc32(crc32(0L, Z_NULL, 0), body.data(), static_cast<uInt>(body.size()))));
}

// The image rows as a zlib stream (PNG's IDAT), compressed by zlib: mostly one background
// shade, so a fraction of the raw bytes.
std::vector<std::uint8_t> compressed_rows(const std::vector<std::uint8_t>& raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::uint8_t> z(size);
  if (compress2(z.data(), &size, raw.data(), static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION) !=
      Z_OK)
    throw solvent::Error("network.png: zlib could not compress the image");
  z.resize(size);
  return z;
}

}  // namespace

std::string network_png(const SimulationState& s) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  const int scale = std::max(1, image_target / std::max(g.nx, g.ny));
  const int w = g.nx * scale, h = g.ny * scale;
  std::vector<std::uint8_t> pixel(static_cast<std::size_t>(w) * h);
  std::vector<std::int32_t> depth(pixel.size(), -1);

  const std::int32_t kmid = g.nz / 2;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double c = s.c[static_cast<std::size_t>(g.index(x / scale, y / scale, kmid))];
      pixel[static_cast<std::size_t>(y) * w + x] =
          static_cast<std::uint8_t>(std::clamp(c, 0.0, 1.0) * (shades - 1));
    }
  // Each segment joins neighbouring nodes: paint the pixels between their centres, nearer
  // (smaller z) vessels over farther ones.
  const int thick = std::max(1, scale / 2);
  const auto segments = std::min(s.counters.segments, s.segment_capacity());
  for (std::int32_t e = 0; e < segments; ++e) {
    std::int32_t i0, j0, k0, i1, j1, k1;
    g.coordinates(s.segments[2 * e], i0, j0, k0);
    g.coordinates(s.segments[2 * e + 1], i1, j1, k1);
    const std::int32_t z = std::min(k0, k1);
    const auto shade =
        static_cast<std::uint8_t>(shades + (g.nz > 1 ? z * (shades - 1) / (g.nz - 1) : 0));
    const int x0 = std::min(i0, i1) * scale + scale / 2, x1 = std::max(i0, i1) * scale + scale / 2;
    const int y0 = std::min(j0, j1) * scale + scale / 2, y1 = std::max(j0, j1) * scale + scale / 2;
    for (int y = y0 - thick / 2; y <= y1 + (thick - 1) / 2; ++y)
      for (int x = x0 - thick / 2; x <= x1 + (thick - 1) / 2; ++x) {
        if (x < 0 || x >= w || y < 0 || y >= h) continue;
        const auto at = static_cast<std::size_t>(y) * w + x;
        if (depth[at] < 0 || z < depth[at]) {
          depth[at] = z;
          pixel[at] = shade;
        }
      }
  }

  std::vector<std::uint8_t> raw;
  raw.reserve(static_cast<std::size_t>(w + 1) * h);
  for (int y = h - 1; y >= 0; --y) {  // PNG rows run top down; y grows upwards here
    raw.push_back(0);                 // filter: none
    raw.insert(raw.end(), pixel.begin() + static_cast<std::ptrdiff_t>(y) * w,
               pixel.begin() + static_cast<std::ptrdiff_t>(y + 1) * w);
  }
  std::vector<std::uint8_t> palette;
  for (int q = 0; q < shades; ++q) {  // background: white to pale orange with the TAF
    palette.push_back(255);
    palette.push_back(static_cast<std::uint8_t>(255 - q * 70 / (shades - 1)));
    palette.push_back(static_cast<std::uint8_t>(255 - q * 150 / (shades - 1)));
  }
  for (int q = 0; q < shades; ++q) {  // vessels: dark red (near) to light red (far)
    palette.push_back(static_cast<std::uint8_t>(120 + q * 100 / (shades - 1)));
    palette.push_back(static_cast<std::uint8_t>(q * 120 / (shades - 1)));
    palette.push_back(static_cast<std::uint8_t>(q * 120 / (shades - 1)));
  }
  std::vector<std::uint8_t> ihdr;
  put32(ihdr, static_cast<std::uint32_t>(w));
  put32(ihdr, static_cast<std::uint32_t>(h));
  ihdr.insert(ihdr.end(), {8, 3, 0, 0, 0});  // 8-bit palette indices
  std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  chunk(png, "IHDR", ihdr);
  chunk(png, "PLTE", palette);
  chunk(png, "IDAT", compressed_rows(raw));
  chunk(png, "IEND", {});
  return {png.begin(), png.end()};
}

}  // namespace solvent::stencil3d
