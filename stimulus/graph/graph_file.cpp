#include "stimulus/graph/graph_file.hpp"
#include "stimulus/graph/graph_kernels.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <numeric>
#include <tuple>

#include "common/config_node.hpp"
#include "stimulus/graph/graph_cache.hpp"
#include "common/diagnostics.hpp"

namespace starnuma {
namespace {

enum class Format { EdgeList, WeightedEdgeList, MatrixMarket };

struct Edge {
  int32_t u, v, w;
};

class Reader {
 public:
  explicit Reader(const std::string& path) : file_(std::make_shared<const std::string>(path)), in_(path) {
    if (!in_) throw_config_error({Location{file_, 0, 0}, "file", "cannot open the graph file"});
  }
  // The next line; false at the end.
  bool next() {
    if (!std::getline(in_, line_)) return false;
    ++number_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    at_ = 0;
    return true;
  }
  const std::string& line() const { return line_; }
  bool blank_or_comment() const {
    const size_t first = line_.find_first_not_of(" \t");
    return first == std::string::npos || line_[first] == '#' || line_[first] == '%';
  }
  // The next whitespace-separated field as an integer in [lo, hi]; `what` names it in errors.
  int64_t integer(const char* what, int64_t lo, int64_t hi) {
    while (at_ < line_.size() && (line_[at_] == ' ' || line_[at_] == '\t')) ++at_;
    const size_t start = at_;
    if (start == line_.size()) fail(start, std::string("expected ") + what + ", the line ends");
    size_t end = start;
    while (end < line_.size() && line_[end] != ' ' && line_[end] != '\t') ++end;
    const std::string token = line_.substr(start, end - start);
    at_ = end;
    size_t digits = token[0] == '-' || token[0] == '+' ? 1 : 0;
    if (digits == token.size() || token.size() - digits > 18 ||
        !std::all_of(token.begin() + static_cast<std::ptrdiff_t>(digits), token.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
      fail(start, std::string("expected ") + what + " (an integer), got '" + token + "'");
    const int64_t v = std::stoll(token);
    if (v < lo || v > hi)
      fail(start, std::string(what) + " " + token + " is outside " + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
  }
  void end_of_line(const char* expected) {
    while (at_ < line_.size() && (line_[at_] == ' ' || line_[at_] == '\t')) ++at_;
    if (at_ < line_.size()) fail(at_, std::string("unexpected '") + line_.substr(at_) + "' after " + expected);
  }
  [[noreturn]] void fail(size_t column, const std::string& message) const {
    throw_config_error({Location{file_, number_, static_cast<int>(column) + 1}, "file", message});
  }
  [[noreturn]] void fail_file(const std::string& message) const {
    throw_config_error({Location{file_, 0, 0}, "file", message});
  }

 private:
  std::shared_ptr<const std::string> file_;
  std::ifstream in_;
  std::string line_;
  int number_ = 0;
  size_t at_ = 0;
};

constexpr int64_t kMaxVertex = int64_t{1} << 31;  // ids fit CsrGraph's int32 neighbours
constexpr int64_t kMaxWeight = (int64_t{1} << 31) - 1;

Format format_of(const std::string& path, const Reader& r) {
  const auto ends = [&](const char* s) {
    const std::string x(s);
    return path.size() > x.size() && path.compare(path.size() - x.size(), x.size(), x) == 0;
  };
  if (ends(".wel")) return Format::WeightedEdgeList;
  if (ends(".el")) return Format::EdgeList;
  if (ends(".mtx")) return Format::MatrixMarket;
  r.fail_file("a graph file is .el (edge list), .wel (weighted edge list) or .mtx (Matrix Market), as GAP reads");
}

std::vector<Edge> read_edge_list(Reader& r, bool weighted, int64_t& vertices) {
  std::vector<Edge> edges;
  while (r.next()) {
    if (r.blank_or_comment()) continue;
    const int64_t u = r.integer("a vertex id", 0, kMaxVertex - 1), v = r.integer("a vertex id", 0, kMaxVertex - 1);
    const int64_t w = weighted ? r.integer("a weight", 1, kMaxWeight) : 1;
    r.end_of_line(weighted ? "the weight" : "the two vertex ids");
    vertices = std::max({vertices, u + 1, v + 1});
    edges.push_back({static_cast<int32_t>(u), static_cast<int32_t>(v), static_cast<int32_t>(w)});
  }
  return edges;
}

std::vector<Edge> read_matrix_market(Reader& r, bool& weighted, int64_t& vertices) {
  if (!r.next() || r.line().rfind("%%MatrixMarket", 0) != 0)
    r.fail(0, "a Matrix Market file starts with '%%MatrixMarket matrix coordinate ...'");
  std::string banner = r.line();
  std::transform(banner.begin(), banner.end(), banner.begin(),
                 [](char c) { return static_cast<char>(std::tolower(c)); });
  if (banner.find(" matrix ") == std::string::npos || banner.find(" coordinate") == std::string::npos)
    r.fail(0, "only coordinate matrices describe graphs ('%%MatrixMarket matrix coordinate ...')");
  if (banner.find(" real") != std::string::npos || banner.find(" complex") != std::string::npos)
    r.fail(0, "weights must be integers (field 'pattern' or 'integer'): sssp's weights are GAP's 32-bit integers");
  weighted = banner.find(" integer") != std::string::npos;
  if (!weighted && banner.find(" pattern") == std::string::npos) r.fail(0, "field must be 'pattern' or 'integer'");
  do {
    if (!r.next()) r.fail_file("no size line ('rows columns entries') after the header");
  } while (r.blank_or_comment());
  const int64_t rows = r.integer("the number of rows", 1, kMaxVertex),
                cols = r.integer("the number of columns", 1, kMaxVertex);
  const int64_t entries = r.integer("the number of entries", 0, int64_t{1} << 40);
  r.end_of_line("the size line");
  vertices = std::max(rows, cols);
  std::vector<Edge> edges;
  edges.reserve(static_cast<size_t>(std::min<int64_t>(entries, int64_t{1} << 26)));
  while (r.next()) {
    if (r.blank_or_comment()) continue;
    if (static_cast<int64_t>(edges.size()) == entries)
      r.fail(0, "more entries than the " + std::to_string(entries) + " the size line announced");
    const int64_t i = r.integer("a row index", 1, rows), j = r.integer("a column index", 1, cols);
    const int64_t w = weighted ? r.integer("a weight", 1, kMaxWeight) : 1;
    r.end_of_line(weighted ? "the weight" : "the two indices");
    edges.push_back({static_cast<int32_t>(i - 1), static_cast<int32_t>(j - 1), static_cast<int32_t>(w)});
  }
  if (static_cast<int64_t>(edges.size()) != entries)
    r.fail_file("the size line announced " + std::to_string(entries) + " entries; the file has " +
                std::to_string(edges.size()));
  return edges;
}

}  // namespace

CsrGraph read_graph_file(const std::string& path) {
  Reader r(path);
  const Format format = format_of(path, r);
  bool weighted = format == Format::WeightedEdgeList;
  int64_t vertices = 0;
  std::vector<Edge> read = format == Format::MatrixMarket ? read_matrix_market(r, weighted, vertices)
                                                          : read_edge_list(r, weighted, vertices);
  if (vertices == 0) r.fail_file("the file has no edges");
  // Undirected, no self-loops, duplicates once with their smallest weight.
  std::vector<Edge> edges;
  edges.reserve(read.size() * 2);
  for (const Edge& e : read) {
    if (e.u == e.v) continue;
    edges.push_back(e);
    edges.push_back({e.v, e.u, e.w});
  }
  read.clear();
  read.shrink_to_fit();
  std::sort(edges.begin(), edges.end(),
            [](const Edge& a, const Edge& b) { return std::tie(a.u, a.v, a.w) < std::tie(b.u, b.v, b.w); });
  edges.erase(
      std::unique(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.u == b.u && a.v == b.v; }),
      edges.end());
  CsrGraph g;
  g.offsets.assign(static_cast<size_t>(vertices) + 1, 0);
  for (const Edge& e : edges) ++g.offsets[static_cast<size_t>(e.u) + 1];
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.neighbors.reserve(edges.size());
  for (const Edge& e : edges) g.neighbors.push_back(e.v);
  if (weighted) {
    g.weights.reserve(edges.size());
    for (const Edge& e : edges) g.weights.push_back(e.w);
  }
  return g;
}

}  // namespace starnuma

namespace starnuma {

GraphSpec::GraphSpec(const ScopeContext& c) : WorkloadSpec(c) {
  if (!file_.get().empty() && config())
    for (const char* key : {"scale", "degree"})
      if (const ConfigNode* given = config()->find(key))
        error(given, key, "a graph file sets the graph: give file or scale and degree, not both");
}

CsrGraph GraphSpec::graph(uint64_t seed) const {
  return file_.get().empty() ? kronecker_graph_cached(scale_, degree_, seed) : read_graph_file(file_.get());
}

}  // namespace starnuma
