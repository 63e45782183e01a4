// Graphs from files, in the formats the GAP benchmark suite reads (docs/workloads.md):
//   .el   edge list: "u v" per line, vertex ids from 0;
//   .wel  weighted edge list: "u v w", w a positive integer;
//   .mtx  Matrix Market coordinate: "%%MatrixMarket matrix coordinate pattern|integer general|symmetric",
//         comment lines starting with '%', a size line "rows columns entries", then "i j [w]" with
//         ids from 1.
// Blank lines and lines starting with '#' or '%' are skipped in edge lists. The graph is built as
// the synthetic ones are (GAP's builder with symmetrisation): undirected, self-loops and duplicate
// edges removed (a duplicate keeps its smallest weight), neighbours sorted. A malformed file is a
// starnuma/config error naming the file, line and column.
#pragma once

#include <string>

#include "stimulus/graph/kronecker.hpp"

namespace starnuma {

CsrGraph read_graph_file(const std::string& path);

}  // namespace starnuma
