// Graphs from files in GAP's formats: what the builder makes of them, and what a bad file says.
#include "stimulus/graph/graph_file.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "harness/scratch_files.hpp"
#include "stimulus/graph/bfs.hpp"
#include "stimulus/graph/graph_cache.hpp"
#include "stimulus/graph/graph_kernels.hpp"

namespace starnuma {
namespace {

std::string write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

std::vector<int32_t> neighbors_of(const CsrGraph& g, int64_t v) {
  return {g.neighbors.begin() + g.offsets[static_cast<size_t>(v)],
          g.neighbors.begin() + g.offsets[static_cast<size_t>(v) + 1]};
}

TEST(GraphFile, AnEdgeListBecomesUndirectedWithoutLoopsOrDuplicates) {
  const CsrGraph g =
      read_graph_file(write("square.el", "# a square with a diagonal\n0 1\n1 2\n2 3\n3 0\n\n0 2\n2 2\n1 0\r\n"));
  EXPECT_EQ(g.vertices(), 4);
  EXPECT_EQ(g.edges(), 10);  // five undirected edges, each both ways
  EXPECT_EQ(neighbors_of(g, 0), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(neighbors_of(g, 2), (std::vector<int32_t>{0, 1, 3}));
  EXPECT_TRUE(g.weights.empty());
}

TEST(GraphFile, AWeightedEdgeListKeepsTheSmallestWeightOfADuplicateAndSsspUsesTheWeights) {
  const CsrGraph g = read_graph_file(write("triangle.wel", "0 1 5\n1 2 7\n0 2 20\n1 0 3\n"));
  ASSERT_EQ(g.weights.size(), g.neighbors.size());
  EXPECT_EQ(g.weights[0], 3);  // 0 -> 1: min(5, 3)
  EXPECT_EQ(dijkstra(g, 0, 1), (std::vector<int32_t>{0, 3, 10}));
  // The parallel kernel agrees with the reference on the file's weights.
  EXPECT_EQ(delta_stepping(g, 0, 4, 2, 1), dijkstra(g, 0, 1));
}

TEST(GraphFile, MatrixMarketIndicesStartAtOne) {
  const CsrGraph g = read_graph_file(
      write("ring.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n% a ring\n4 4 4\n2 1\n3 2\n4 3\n1 4\n"));
  EXPECT_EQ(g.vertices(), 4);
  EXPECT_EQ(neighbors_of(g, 0), (std::vector<int32_t>{1, 3}));
  const CsrGraph w =
      read_graph_file(write("w.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 3 9\n"));
  EXPECT_EQ(w.vertices(), 3);
  EXPECT_EQ(w.weights, (std::vector<int32_t>{9, 9}));
}

TEST(GraphFile, AMalformedFileNamesLineAndColumn) {
  const auto message = [](const std::string& name, const std::string& text) {
    return testing::capture_report([&] { read_graph_file(write(name, text)); }).message;
  };
  EXPECT_NE(message("a.el", "0 1\n1 x2\n").find("a.el:2:3: error: file: expected a vertex id (an integer), got 'x2'"),
            std::string::npos);
  EXPECT_NE(message("b.el", "0 1 2\n").find("b.el:1:5: error: file: unexpected '2' after the two vertex ids"),
            std::string::npos);
  EXPECT_NE(message("c.el", "0\n").find("c.el:1:2: error: file: expected a vertex id, the line ends"),
            std::string::npos);
  EXPECT_NE(message("d.wel", "0 1 0\n").find("d.wel:1:5: error: file: a weight 0 is outside 1 to"), std::string::npos);
  EXPECT_NE(message("e.el", "-1 2\n").find("e.el:1:1: error: file: a vertex id -1 is outside"), std::string::npos);
  EXPECT_NE(
      message("f.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n").find("must be integers"),
      std::string::npos);
  EXPECT_NE(message("g.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n")
                .find("announced 2 entries; the file has 1"),
            std::string::npos);
  EXPECT_NE(message("h.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 4\n")
                .find("h.mtx:3:3: error: file: a column index 4 is outside 1 to 3"),
            std::string::npos);
  EXPECT_NE(message("i.txt", "0 1\n").find("a graph file is .el"), std::string::npos);
  EXPECT_NE(message("j.el", "# nothing\n").find("the file has no edges"), std::string::npos);
  EXPECT_NE(testing::capture_report([] { read_graph_file("/nonexistent/graph.el"); }).message.find("cannot open"),
            std::string::npos);
}

TEST(GraphFile, TheGraphKernelsRunOnAFileAndRefuseAScaleBeside) {
  const std::string path = write("kernels.el", "0 1\n1 2\n2 3\n3 4\n4 0\n0 2\n");
  for (const char* kernel : {"bfs", "cc", "sssp", "tc", "pr"}) {
    auto w = make_workload(std::string(kernel) + ":file=" + path, 2, 1, 1);
    StreamOp ops[64];
    EXPECT_GT(w->stream(0)->fill(ops, 64), 0u) << kernel;
  }
  const auto r = testing::capture_report([&] { make_workload("bfs:scale=10,file=" + path, 2, 1, 1); });
  EXPECT_NE(r.message.find("give file or scale and degree, not both"), std::string::npos) << r.message;
}

// The graph cache: STARNUMA_GRAPH_CACHE names a folder; the first process writes each graph there,
// the later ones read it back.
TEST(GraphCache, AGraphIsWrittenOnceAndReadBackTheSame) {
  const std::string folder = testing::scratch_dir("graph_cache").string();
  setenv("STARNUMA_GRAPH_CACHE", folder.c_str(), 1);
  const std::string path = graph_cache_path(folder, 12, 8, 3);
  EXPECT_FALSE(std::filesystem::exists(path));
  const CsrGraph made = kronecker_graph_cached(12, 8, 3);
  ASSERT_TRUE(std::filesystem::exists(path));
  const auto written = std::filesystem::last_write_time(path);
  const CsrGraph read = kronecker_graph_cached(12, 8, 3);
  EXPECT_EQ(std::filesystem::last_write_time(path), written);  // read, not written again
  const CsrGraph fresh = kronecker_graph(12, 8, 3);
  EXPECT_EQ(made.offsets, fresh.offsets);
  EXPECT_EQ(read.offsets, fresh.offsets);
  EXPECT_EQ(read.neighbors, fresh.neighbors);
  EXPECT_NE(kronecker_graph_cached(12, 8, 4).neighbors, fresh.neighbors);  // another seed, another file
  EXPECT_TRUE(std::filesystem::exists(graph_cache_path(folder, 12, 8, 4)));
  // A workload built with the folder set reads it too.
  auto w = make_workload("bfs:scale=12,degree=8", 2, 1, 3);
  EXPECT_EQ(dynamic_cast<const BfsWorkload&>(*w).graph().neighbors, fresh.neighbors);
}

TEST(GraphCache, AFileThatIsNotItsGraphIsAnErrorNamingIt) {
  const std::string folder = testing::scratch_dir("graph_cache").string();
  setenv("STARNUMA_GRAPH_CACHE", folder.c_str(), 1);
  const std::string path = graph_cache_path(folder, 10, 4, 1);
  kronecker_graph_cached(10, 4, 1);
  const auto size = std::filesystem::file_size(path);
  const auto damaged = [&](const std::function<void(std::fstream&)>& damage) {
    std::filesystem::copy_file(path, path + ".good", std::filesystem::copy_options::overwrite_existing);
    {
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      damage(f);
    }
    const auto r = testing::capture_report([] { kronecker_graph_cached(10, 4, 1); });
    std::filesystem::rename(path + ".good", path);
    EXPECT_EQ(r.type, "starnuma/input");
    EXPECT_NE(r.message.find(path), std::string::npos) << r.message;
    return r.message;
  };
  EXPECT_NE(damaged([&](std::fstream& f) {
              f.seekp(static_cast<std::streamoff>(size) - 3);
              f.put('\x5a');
            }).find("CRC-32"),
            std::string::npos);
  EXPECT_NE(damaged([](std::fstream& f) {
              f.seekp(12);
              f.put('\x0b');  // scale 11 in the file of scale 10
            }).find("not the one its name gives"),
            std::string::npos);
  EXPECT_NE(damaged([](std::fstream& f) { f.put('X'); }).find("not a starnuma graph"), std::string::npos);
  std::filesystem::resize_file(path, size - 4);
  const auto r = testing::capture_report([] { kronecker_graph_cached(10, 4, 1); });
  EXPECT_NE(r.message.find("bytes where its header gives"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace starnuma
