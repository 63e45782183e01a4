#include "stimulus/graph/graph_cache.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/output_file.hpp"
#include "stimulus/trace/binary_io.hpp"

namespace starnuma {

namespace {

// The file: this header, then the offsets (vertices + 1 signed 64-bit) and the neighbours (entries
// signed 32-bit), all little-endian as the hosts starnuma runs on store them.
constexpr char kMagic[8] = {'S', 'N', 'G', 'R', 'A', 'P', 'H', '1'};
constexpr size_t kHeader = 56;

struct Header {
  uint32_t version = 0, scale = 0, degree = 0;
  uint64_t seed = 0, vertices = 0, entries = 0;
  uint32_t crc = 0;
};

void encode(const Header& h, uint8_t* p) {
  std::memset(p, 0, kHeader);
  std::memcpy(p, kMagic, sizeof kMagic);
  trace::put_u32(p + 8, h.version);
  trace::put_u32(p + 12, h.scale);
  trace::put_u32(p + 16, h.degree);
  trace::put_u64(p + 24, h.seed);
  trace::put_u64(p + 32, h.vertices);
  trace::put_u64(p + 40, h.entries);
  trace::put_u32(p + 48, h.crc);
}

uint32_t payload_crc(const CsrGraph& g) {
  const uint32_t c = trace::crc32(g.offsets.data(), g.offsets.size() * sizeof(int64_t));
  return trace::crc32(g.neighbors.data(), g.neighbors.size() * sizeof(int32_t), c);
}

CsrGraph read_graph(const std::string& path, const Header& want) {
  trace::InputFile f(path);
  uint8_t raw[kHeader];
  f.read_exact(0, raw, kHeader, "header");
  if (std::memcmp(raw, kMagic, sizeof kMagic) != 0) f.fail(0, "not a starnuma graph cache file");
  Header h;
  h.version = trace::get_u32(raw + 8);
  h.scale = trace::get_u32(raw + 12);
  h.degree = trace::get_u32(raw + 16);
  h.seed = trace::get_u64(raw + 24);
  h.vertices = trace::get_u64(raw + 32);
  h.entries = trace::get_u64(raw + 40);
  h.crc = trace::get_u32(raw + 48);
  if (h.version != want.version || h.scale != want.scale || h.degree != want.degree || h.seed != want.seed)
    f.fail(8, "holds the graph of generator version " + std::to_string(h.version) + ", scale " +
                  std::to_string(h.scale) + ", degree " + std::to_string(h.degree) + ", seed " +
                  std::to_string(h.seed) + ", not the one its name gives; delete it");
  if (h.vertices != want.vertices || h.entries > want.entries)
    f.fail(32, "its sizes (" + std::to_string(h.vertices) + " vertices, " + std::to_string(h.entries) +
                   " entries) are not those of its graph; delete it");
  const uint64_t size = kHeader + (h.vertices + 1) * sizeof(int64_t) + h.entries * sizeof(int32_t);
  if (f.size() != size)
    f.fail(std::min(f.size(), size),
           "is " + std::to_string(f.size()) + " bytes where its header gives " + std::to_string(size) + "; delete it");
  CsrGraph g;
  g.offsets.resize(h.vertices + 1);
  g.neighbors.resize(h.entries);
  f.read_exact(kHeader, g.offsets.data(), g.offsets.size() * sizeof(int64_t), "offsets");
  f.read_exact(kHeader + g.offsets.size() * sizeof(int64_t), g.neighbors.data(), g.neighbors.size() * sizeof(int32_t),
               "neighbours");
  if (payload_crc(g) != h.crc) f.fail(kHeader, "its CRC-32 does not match its contents; delete it");
  return g;
}

void write_graph(const std::string& path, const CsrGraph& g, Header h) {
  h.crc = payload_crc(g);
  uint8_t raw[kHeader];
  encode(h, raw);
  StagedFile out(path);
  out.write(raw, kHeader);
  out.write(g.offsets.data(), g.offsets.size() * sizeof(int64_t));
  out.write(g.neighbors.data(), g.neighbors.size() * sizeof(int32_t));
  out.commit();
}

}  // namespace

std::string graph_cache_folder() {
  const char* folder = std::getenv("STARNUMA_GRAPH_CACHE");
  return folder ? folder : "";
}

std::string graph_cache_path(const std::string& folder, unsigned scale, unsigned degree, uint64_t seed) {
  return folder + "/kronecker-v" + std::to_string(kKroneckerVersion) + "-scale" + std::to_string(scale) + "-degree" +
         std::to_string(degree) + "-seed" + std::to_string(seed) + ".graph";
}

CsrGraph kronecker_graph_cached(unsigned scale, unsigned degree, uint64_t seed) {
  const std::string folder = graph_cache_folder();
  if (folder.empty()) return kronecker_graph(scale, degree, seed);
  const std::string path = graph_cache_path(folder, scale, degree, seed);
  Header want;
  want.version = kKroneckerVersion;
  want.scale = scale;
  want.degree = degree;
  want.seed = seed;
  want.vertices = uint64_t{1} << scale;
  want.entries = 2 * want.vertices * degree;  // at most: symmetrised, before duplicates go
  if (std::filesystem::exists(path)) return read_graph(path, want);
  CsrGraph g = kronecker_graph(scale, degree, seed);
  want.entries = static_cast<uint64_t>(g.edges());
  write_graph(path, g, want);  // two processes writing at once each rename a whole, identical file
  return g;
}

}  // namespace starnuma
