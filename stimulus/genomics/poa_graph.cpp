// poa's functional part: the partial-order graph, the affine graph aligner and the batches. Written
// after SPOA's algorithm (graph.cpp, sisd_alignment_engine.cpp), not its code.
#include <algorithm>
#include <stdexcept>

#include "stimulus/genomics/poa.hpp"

namespace starnuma::genomics {

// ---- the graph -------------------------------------------------------------------------------

void PoaGraph::clear() {
  nodes_ = 0;
  edges_.clear();
  order_.clear();
  rank_.clear();
}

uint32_t PoaGraph::add_node(char base) {
  if (nodes_ == node_.size()) node_.emplace_back();
  Node& n = node_[nodes_];
  n.base = base;
  n.in.clear();
  n.out.clear();
  n.aligned.clear();
  return nodes_++;
}

int64_t PoaGraph::find_edge(uint32_t tail, uint32_t head) const {
  for (uint32_t e : node_[tail].out)
    if (edges_[e].head == head) return e;
  return -1;
}

void PoaGraph::add_edge(uint32_t tail, uint32_t head, int64_t weight) {
  const int64_t found = find_edge(tail, head);
  if (found >= 0) {
    edges_[static_cast<size_t>(found)].weight += weight;
    return;
  }
  const auto e = static_cast<uint32_t>(edges_.size());
  edges_.push_back(Edge{tail, head, weight});
  node_[tail].out.push_back(e);
  node_[head].in.push_back(e);
}

const std::vector<uint32_t>& PoaGraph::add(const PoaAlignment& alignment, const std::string& read) {
  constexpr int64_t kWeight = 2;  // SPOA: an edge gains the weights of its two bases, 1 each
  path_.assign(read.size(), 0);
  int64_t prev = -1;
  auto place = [&](size_t pos, uint32_t node) {
    path_[pos] = node;
    if (prev >= 0) add_edge(static_cast<uint32_t>(prev), node, kWeight);
    prev = node;
  };
  if (alignment.empty()) {
    for (size_t i = 0; i < read.size(); ++i) place(i, add_node(read[i]));
    return path_;
  }
  for (const auto& [graph_node, pos] : alignment) {
    if (pos < 0) continue;
    const char base = read[static_cast<size_t>(pos)];
    if (graph_node < 0) {
      place(static_cast<size_t>(pos), add_node(base));
      continue;
    }
    const auto at = static_cast<uint32_t>(graph_node);
    if (node_[at].base == base) {
      place(static_cast<size_t>(pos), at);
      continue;
    }
    int64_t same = -1;
    for (uint32_t a : node_[at].aligned)
      if (node_[a].base == base) same = a;
    if (same >= 0) {
      place(static_cast<size_t>(pos), static_cast<uint32_t>(same));
      continue;
    }
    // A new base in this column: aligned to the node and to everything aligned to it.
    const uint32_t fresh = add_node(base);
    for (size_t k = 0; k < node_[at].aligned.size(); ++k) {
      const uint32_t a = node_[at].aligned[k];
      node_[fresh].aligned.push_back(a);
      node_[a].aligned.push_back(fresh);
    }
    node_[fresh].aligned.push_back(at);
    node_[at].aligned.push_back(fresh);
    place(static_cast<size_t>(pos), fresh);
  }
  return path_;
}

bool PoaGraph::sort() {
  // Kahn's algorithm with a min-heap of ready ids: deterministic, and the first read's chain keeps
  // rank == id. (SPOA also keeps aligned nodes at consecutive ranks, for its MSA output; the
  // alignment only needs predecessors first.)
  order_.clear();
  rank_.assign(nodes_, 0);
  pending_.assign(nodes_, 0);
  ready_.clear();
  for (uint32_t n = 0; n < nodes_; ++n) {
    pending_[n] = static_cast<uint32_t>(node_[n].in.size());
    if (pending_[n] == 0) ready_.push_back(n);
  }
  std::make_heap(ready_.begin(), ready_.end(), std::greater<>());
  while (!ready_.empty()) {
    std::pop_heap(ready_.begin(), ready_.end(), std::greater<>());
    const uint32_t n = ready_.back();
    ready_.pop_back();
    rank_[n] = static_cast<uint32_t>(order_.size());
    order_.push_back(n);
    for (uint32_t e : node_[n].out)
      if (--pending_[edges_[e].head] == 0) {
        ready_.push_back(edges_[e].head);
        std::push_heap(ready_.begin(), ready_.end(), std::greater<>());
      }
  }
  return order_.size() == nodes_;
}

const std::vector<uint32_t>& PoaGraph::consensus_path() {
  score_.assign(nodes_, -1);
  best_.assign(nodes_, -1);
  uint32_t top = 0;
  int64_t top_score = -1;
  for (uint32_t r = 0; r < nodes_; ++r) {
    const uint32_t n = order_[r];
    int64_t weight = -1;
    for (uint32_t e : node_[n].in) {
      const Edge& x = edges_[e];
      if (weight < x.weight || (weight == x.weight && score_[static_cast<size_t>(best_[n])] <= score_[x.tail])) {
        weight = x.weight;
        best_[n] = static_cast<int32_t>(x.tail);
      }
    }
    score_[n] = best_[n] < 0 ? 0 : weight + score_[static_cast<size_t>(best_[n])];
    if (score_[n] > top_score) {
      top_score = score_[n];
      top = r;
    }
  }
  // The best node may not be a sink: complete its branch until it ends at one.
  while (!node_[order_[top]].out.empty()) top = complete_branch(top);
  path_.clear();
  for (int64_t n = order_[top]; n >= 0; n = best_[static_cast<size_t>(n)]) path_.push_back(static_cast<uint32_t>(n));
  std::reverse(path_.begin(), path_.end());
  return path_;
}

uint32_t PoaGraph::complete_branch(uint32_t rank) {
  // SPOA's branch completion: rescore the nodes after `rank` counting only paths through the best
  // node (its successors' other tails are cut), and return the best-scored node's rank.
  const uint32_t from = order_[rank];
  for (uint32_t e : node_[from].out)
    for (uint32_t k : node_[edges_[e].head].in)
      if (edges_[k].tail != from) score_[edges_[k].tail] = -1;
  int64_t top_score = -1;
  uint32_t top = rank;
  for (uint32_t r = rank + 1; r < nodes_; ++r) {
    const uint32_t n = order_[r];
    score_[n] = -1;
    best_[n] = -1;
    int64_t weight = -1;
    for (uint32_t e : node_[n].in) {
      const Edge& x = edges_[e];
      if (score_[x.tail] < 0) continue;
      if (weight < x.weight || (weight == x.weight && score_[static_cast<size_t>(best_[n])] <= score_[x.tail])) {
        weight = x.weight;
        best_[n] = static_cast<int32_t>(x.tail);
      }
    }
    if (best_[n] >= 0) score_[n] = weight + score_[static_cast<size_t>(best_[n])];
    if (score_[n] > top_score) {
      top_score = score_[n];
      top = r;
    }
  }
  if (top == rank) throw std::logic_error("poa: branch completion found no successor");
  return top;
}

std::string PoaGraph::consensus() {
  std::string s;
  for (uint32_t n : consensus_path()) s.push_back(node_[n].base);
  return s;
}

// ---- the aligner -----------------------------------------------------------------------------

namespace {
constexpr char kBases[4] = {'A', 'C', 'G', 'T'};
int code(char base) { return base == 'A' ? 0 : base == 'C' ? 1 : base == 'G' ? 2 : 3; }
}  // namespace

void PoaAligner::start(const std::string& read, const PoaGraph& graph) {
  graph_ = &graph;
  read_ = &read;
  width_ = static_cast<uint32_t>(read.size()) + 1;
  height_ = graph.nodes() + 1;
  const size_t cells = size_t{width_} * height_;
  if (h_.size() < cells) {  // grows only, as SPOA's matrices do
    h_.resize(cells);
    f_.resize(cells);
    e_.resize(cells);
  }
  profile_.resize(size_t{4} * width_);
  for (int c = 0; c < 4; ++c) {
    profile_[size_t(c) * width_] = 0;
    for (uint32_t j = 1; j < width_; ++j)
      profile_[size_t(c) * width_ + j] = read[j - 1] == kBases[c] ? s_.match : s_.mismatch;
  }
  // Row 0: a gap in the graph before the read's first j bases. Column 0: a gap in the read along
  // the best path to the node (SPOA's initialisation).
  h_[0] = 0;
  f_[0] = e_[0] = kPoaMinusInfinity;
  for (uint32_t j = 1; j < width_; ++j) {
    f_[j] = kPoaMinusInfinity;
    h_[j] = e_[j] = s_.gap_open + static_cast<int32_t>(j - 1) * s_.gap_extend;
  }
  for (uint32_t r = 0; r < graph.nodes(); ++r) {
    const PoaGraph::Node& n = graph.node(graph.rank_to_node()[r]);
    int32_t best = n.in.empty() ? s_.gap_open - s_.gap_extend : kPoaMinusInfinity;
    for (uint32_t e : n.in) best = std::max(best, f_[size_t{graph.node_to_rank()[graph.edge(e).tail] + 1} * width_]);
    const size_t at = size_t{r + 1} * width_;
    h_[at] = f_[at] = best + s_.gap_extend;
    e_[at] = kPoaMinusInfinity;
  }
}

const std::vector<uint32_t>& PoaAligner::predecessor_rows(uint32_t rank) {
  preds_.clear();
  const PoaGraph::Node& n = graph_->node(graph_->rank_to_node()[rank]);
  for (uint32_t e : n.in) preds_.push_back(graph_->node_to_rank()[graph_->edge(e).tail] + 1);
  if (preds_.empty()) preds_.push_back(0);
  return preds_;
}

void PoaAligner::row(uint32_t rank) {
  const uint32_t w = width_;
  const int32_t* prof = &profile_[size_t(code(graph_->node(graph_->rank_to_node()[rank]).base)) * w];
  int32_t* hr = &h_[size_t{rank + 1} * w];
  int32_t* fr = &f_[size_t{rank + 1} * w];
  int32_t* er = &e_[size_t{rank + 1} * w];
  const std::vector<uint32_t>& preds = predecessor_rows(rank);
  for (size_t p = 0; p < preds.size(); ++p) {
    const int32_t* hp = &h_[size_t{preds[p]} * w];
    const int32_t* fp = &f_[size_t{preds[p]} * w];
    for (uint32_t j = 1; j < w; ++j) {
      const int32_t f = std::max(hp[j] + s_.gap_open, fp[j] + s_.gap_extend);
      const int32_t h = hp[j - 1] + prof[j];
      fr[j] = p == 0 ? f : std::max(fr[j], f);
      hr[j] = p == 0 ? h : std::max(hr[j], h);
    }
  }
  for (uint32_t j = 1; j < w; ++j) {
    er[j] = std::max(hr[j - 1] + s_.gap_open, er[j - 1] + s_.gap_extend);
    hr[j] = std::max(hr[j], std::max(fr[j], er[j]));
  }
}

int32_t PoaAligner::finish(PoaAlignment* out, std::vector<uint64_t>* visited) {
  const uint32_t w = width_, last = w - 1;
  int32_t best = kPoaMinusInfinity;
  uint32_t i = 0;
  for (uint32_t r = 0; r + 1 < height_; ++r)
    if (graph_->node(graph_->rank_to_node()[r]).out.empty() && h_[size_t{r + 1} * w + last] > best) {
      best = h_[size_t{r + 1} * w + last];
      i = r + 1;
    }
  if (!out) return best;
  out->clear();
  if (visited) visited->clear();
  auto at = [w](uint32_t row, uint32_t col) { return size_t{row} * w + col; };
  uint32_t j = last;
  int matrix = 0;  // the state: 0 H, 1 F, 2 E
  while (i != 0 || j != 0) {
    if (visited) visited->push_back(uint64_t{i} << 34 | uint64_t{j} << 2 | static_cast<uint64_t>(matrix));
    const int32_t here = matrix == 0 ? h_[at(i, j)] : matrix == 1 ? f_[at(i, j)] : e_[at(i, j)];
    const int32_t node = i ? static_cast<int32_t>(graph_->rank_to_node()[i - 1]) : -1;
    bool moved = false;
    if (matrix == 0) {
      if (i && j) {
        const int32_t prof = profile_[size_t(code(graph_->node(static_cast<uint32_t>(node)).base)) * w + j];
        for (uint32_t p : predecessor_rows(i - 1))
          if (here == h_[at(p, j - 1)] + prof) {
            out->emplace_back(node, static_cast<int32_t>(j) - 1);
            i = p;
            --j;
            moved = true;
            break;
          }
      }
      if (!moved) {
        matrix = i && here == f_[at(i, j)] ? 1 : 2;
        continue;
      }
    } else if (matrix == 1) {  // a graph node against a gap in the read
      for (uint32_t p : predecessor_rows(i - 1)) {
        const int next = here == h_[at(p, j)] + s_.gap_open ? 0 : here == f_[at(p, j)] + s_.gap_extend ? 1 : -1;
        if (next < 0) continue;
        out->emplace_back(node, -1);
        i = p;
        matrix = next;
        moved = true;
        break;
      }
    } else {  // a read base against a gap in the graph
      const int next = here == h_[at(i, j - 1)] + s_.gap_open ? 0 : 2;
      out->emplace_back(-1, static_cast<int32_t>(j) - 1);
      --j;
      matrix = next;
      moved = true;
    }
    if (!moved) throw std::logic_error("poa: traceback lost its path");
  }
  std::reverse(out->begin(), out->end());
  return best;
}

int32_t PoaAligner::align(const std::string& read, const PoaGraph& graph, PoaAlignment* out) {
  start(read, graph);
  for (uint32_t r = 0; r < graph.nodes(); ++r) row(r);
  return finish(out);
}

// ---- batches ---------------------------------------------------------------------------------

namespace {
uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

void make_poa_batch(uint64_t seed, uint32_t window, uint32_t reads, double error_rate, PoaBatch& out) {
  uint64_t state = seed;
  out.templ.resize(window);
  for (char& c : out.templ) c = kBases[splitmix(state) & 3];
  const auto threshold = static_cast<uint64_t>(error_rate * 0x1.0p53);
  out.reads.resize(reads);
  for (std::string& read : out.reads) {
    read.clear();
    for (char c : out.templ) {
      const uint64_t u = splitmix(state);
      if ((u >> 11) >= threshold) {
        read.push_back(c);
        continue;
      }
      const uint64_t kind = (u & 0xff) % 3, other = (u >> 8) & 3;  // bits below the threshold's
      if (kind == 0) {                                             // substitution: one of the three other bases
        read.push_back(kBases[(code(c) + 1 + other % 3) & 3]);
      } else if (kind == 1) {  // insertion before the base
        read.push_back(kBases[other]);
        read.push_back(c);
      }  // else deletion
    }
    if (read.empty()) read.push_back(out.templ[0]);  // a read has at least one base
  }
}

std::string poa_consensus(const PoaBatch& batch, PoaGraph& graph, PoaAligner& aligner) {
  graph.clear();
  PoaAlignment alignment;
  for (const std::string& read : batch.reads) {
    alignment.clear();
    if (graph.nodes() > 0) aligner.align(read, graph, &alignment);
    graph.add(alignment, read);
    if (!graph.sort()) throw std::logic_error("poa: the graph has a cycle");
  }
  return graph.consensus();
}

}  // namespace starnuma::genomics
