#include "stimulus/program_mix.hpp"

#include <algorithm>
#include <array>
#include <filesystem>

#include "common/diagnostics.hpp"
#include "common/text.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

[[noreturn]] void fail(const Location& where, const std::string& key, const std::string& message) {
  throw_config_error({where, key, message});
}

unsigned parse_index(const std::string& text, const Location& where, const std::string& key) {
  if (text.empty() || text.size() > 6 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    fail(where, key, "expected a number, got '" + text + "'");
  return static_cast<unsigned>(std::stoul(text));
}

// "A" or "A-B" (A <= B) as the indices A..B.
std::pair<unsigned, unsigned> parse_range(const std::string& text, const Location& where, const std::string& key) {
  const size_t dash = text.find('-');
  const unsigned first = parse_index(text.substr(0, dash), where, key);
  const unsigned last = dash == std::string::npos ? first : parse_index(text.substr(dash + 1), where, key);
  if (last < first) fail(where, key, "range '" + text + "' runs backwards");
  return {first, last};
}

void add_sockets(ProgramSpec& p, std::pair<unsigned, unsigned> range, const Location& where, const std::string& key) {
  for (unsigned s = range.first; s <= range.second; ++s) {
    if (std::find(p.sockets.begin(), p.sockets.end(), s) != p.sockets.end())
      fail(where, key, "socket " + std::to_string(s) + " is given twice");
    p.sockets.push_back(s);
  }
}

// "socketA[-B][.coreC[-D]]", the text form's placement.
void parse_place(ProgramSpec& p, const std::string& place, const Location& where) {
  p.place = place;
  const std::string key = "@" + place;
  if (place.rfind("socket", 0) != 0)
    fail(where, key, "a program's placement is socketA, socketA-B, or either with .coreC or .coreC-D");
  const size_t dot = place.find('.');
  add_sockets(p, parse_range(place.substr(6, dot == std::string::npos ? std::string::npos : dot - 6), where, key),
              where, key);
  if (dot != std::string::npos) {
    const std::string cores = place.substr(dot + 1);
    if (cores.rfind("core", 0) != 0) fail(where, key, "expected .coreC or .coreC-D after the sockets");
    p.cores = parse_range(cores.substr(4), where, key);
  }
}

// A trace's or a workload's name for a program not named: the workload's name or the trace's file.
std::string default_name(const ProgramSpec& p) {
  if (!p.trace.empty()) return std::filesystem::path(p.trace.front()).filename().string();
  const std::string name = p.workload.substr(0, p.workload.find(':'));
  return is_yaml_path(name) ? std::filesystem::path(name).stem().string() : name;
}

void name_programs(std::vector<ProgramSpec>& programs) {
  for (size_t i = 0; i < programs.size(); ++i) {
    ProgramSpec& p = programs[i];
    if (!p.name.empty()) {
      for (size_t j = 0; j < i; ++j)
        if (programs[j].name == p.name) fail(p.where, "name", "two programs are named '" + p.name + "'");
      continue;
    }
    const std::string base = default_name(p);
    p.name = base;
    for (unsigned n = 2; std::any_of(programs.begin(), programs.begin() + static_cast<std::ptrdiff_t>(i),
                                     [&](const ProgramSpec& q) { return q.name == p.name; });
         ++n)
      p.name = base + "#" + std::to_string(n);
  }
}

// "a@socket0-1,b:k=v,k2=v2@socket2": commas separate programs and a workload's parameters, so a
// program ends at the token that holds its '@'.
std::vector<ProgramSpec> parse_text(const std::string& text) {
  const Location where{std::make_shared<const std::string>("--workload " + text), 0, 0};
  std::vector<ProgramSpec> programs;
  std::string pending;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = text.find(',', start);
    const std::string token = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    pending += (pending.empty() ? "" : ",") + token;
    if (const size_t at = pending.rfind('@'); at != std::string::npos) {
      ProgramSpec p;
      p.where = where;
      const std::string what = pending.substr(0, at);
      if (what.empty()) fail(where, pending, "a program needs a workload before its '@'");
      if (what.rfind("trace:", 0) == 0) {
        for (size_t s = 6; s <= what.size();) {
          const size_t plus = what.find('+', s);
          p.trace.push_back(what.substr(s, plus == std::string::npos ? std::string::npos : plus - s));
          if (p.trace.back().empty()) fail(where, what, "an empty trace file name");
          if (plus == std::string::npos) break;
          s = plus + 1;
        }
      } else {
        p.workload = what;
      }
      parse_place(p, pending.substr(at + 1), where);
      programs.push_back(std::move(p));
      pending.clear();
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!pending.empty())
    fail(where, pending, "'" + pending + "' has no placement: every program of a mix says where it runs (@socketN)");
  return programs;
}

// Relative paths in a mix file are relative to the file.
std::string beside(const std::string& file, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(file).parent_path() / p).lexically_normal().string();
}

const ConfigNode& scalar(const MapEntry& e) {
  if (!e.value.is_scalar()) fail(e.value.location(), e.key, "expected a single value");
  return e.value;
}

ProgramSpec parse_program(const ConfigNode& node, const std::string& file) {
  if (!node.is_map()) fail(node.location(), "programs", "each program is a map (workload or trace, sockets, ...)");
  ProgramSpec p;
  p.where = node.location();
  for (const MapEntry& e : node.entries()) {
    const Location& at = e.value.location();
    if (e.key == "name") {
      p.name = scalar(e).value();
    } else if (e.key == "workload") {
      p.workload = scalar(e).value();
      const std::string name = p.workload.substr(0, p.workload.find(':'));
      if (is_yaml_path(name)) p.workload = beside(file, name) + p.workload.substr(name.size());
    } else if (e.key == "trace") {
      if (e.value.is_scalar()) p.trace.push_back(beside(file, e.value.value()));
      else if (e.value.kind() == ConfigNode::Kind::Sequence)
        for (const ConfigNode& t : e.value.items()) {
          if (!t.is_scalar()) fail(t.location(), "trace", "expected a file name");
          p.trace.push_back(beside(file, t.value()));
        }
      else fail(at, "trace", "a trace file or a list of them (one per thread)");
    } else if (e.key == "sockets") {
      p.place = "socket";
      if (e.value.kind() == ConfigNode::Kind::Sequence) {
        for (const ConfigNode& s : e.value.items()) {
          if (!s.is_scalar()) fail(s.location(), "sockets", "expected a socket number");
          add_sockets(p, parse_range(s.value(), s.location(), "sockets"), s.location(), "sockets");
          p.place += (&s == &e.value.items().front() ? "" : "+") + s.value();
        }
      } else {
        add_sockets(p, parse_range(scalar(e).value(), at, "sockets"), at, "sockets");
        p.place += e.value.value();
      }
    } else if (e.key == "cores") {
      p.cores = parse_range(scalar(e).value(), at, "cores");
    } else if (e.key == "threads") {
      p.threads = parse_index(scalar(e).value(), at, "threads");
      if (p.threads == 0) fail(at, "threads", "a program needs at least one thread");
    } else if (e.key == "instructions") {
      const std::string& v = scalar(e).value();
      if (v.empty() || v.size() > 15 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
          std::stoull(v) == 0)
        fail(at, "instructions", "expected a positive number of instructions per thread, got '" + v + "'");
      p.instructions = std::stoull(v);
    } else {
      const std::string near =
          nearest_word(e.key, {"name", "workload", "trace", "sockets", "cores", "threads", "instructions"});
      fail(e.key_location, e.key,
           "unknown key" + (near.empty() ? std::string() : " (did you mean '" + near + "'?)") +
               "; a program has name, workload or trace, sockets, cores, threads, instructions");
    }
  }
  if (p.workload.empty() == p.trace.empty()) fail(p.where, "workload", "a program has either a workload or a trace");
  if (p.sockets.empty())
    fail(p.where, "sockets", "a program says which sockets it runs on (sockets: 0, 0-3 or a list)");
  if (p.cores) p.place += ".core" + std::to_string(p.cores->first) + "-" + std::to_string(p.cores->second);
  return p;
}

std::vector<ProgramSpec> parse_file(const std::string& file) {
  const ConfigNode root = load_yaml_file(file);
  if (!root.is_map()) fail(root.location(), "", "a mix file is a map with a 'programs' list");
  const ConfigNode* list = nullptr;
  for (const MapEntry& e : root.entries()) {
    if (e.key != "programs") fail(e.key_location, e.key, "unknown key; a mix file has only 'programs'");
    list = &e.value;
  }
  if (!list || list->kind() != ConfigNode::Kind::Sequence || list->items().empty())
    fail(list ? list->location() : root.location(), "programs", "expected a non-empty list of programs");
  std::vector<ProgramSpec> programs;
  for (const ConfigNode& item : list->items()) programs.push_back(parse_program(item, file));
  return programs;
}

}  // namespace

bool is_program_mix(const std::string& text) {
  if (text.find('@') != std::string::npos) return true;
  const std::string name = text.substr(0, text.find(':'));
  if (!is_yaml_path(name) || name.size() != text.size() || !std::filesystem::exists(name)) return false;
  const ConfigNode root = load_yaml_file(name);
  return root.is_map() && root.find("programs") != nullptr;
}

std::vector<ProgramSpec> parse_program_mix(const std::string& text) {
  std::vector<ProgramSpec> programs = text.find('@') != std::string::npos ? parse_text(text) : parse_file(text);
  name_programs(programs);
  for (const ProgramSpec& p : programs) {
    if (!p.workload.empty()) check_workload(p.workload);
    if (p.cores && p.threads && p.threads > (p.cores->second - p.cores->first + 1) * p.sockets.size())
      fail(p.where, "threads",
           "program '" + p.name + "' asks for " + std::to_string(p.threads) + " threads on fewer cores");
  }
  return programs;
}

// ---- the mix as one workload ----

struct ProgramMix::Space {
  static constexpr unsigned kTerabytes = 128;  // x86-64's 2^47 bytes of user space
  static constexpr uint8_t kUnmapped = 0xff;
  unsigned terabytes = 1;                             // M: the platform's
  unsigned stride = 1;                                // M / N
  std::vector<std::array<uint8_t, kTerabytes>> slot;  // per program: its terabyte r's place, or kUnmapped
  std::array<uint16_t, kTerabytes> owner{};           // per place: program × 128 + r + 1, or 0
  std::vector<std::string> names;

  Space(size_t programs, uint64_t address_space)
      : terabytes(static_cast<unsigned>(std::clamp<uint64_t>(address_space / kTerabyte, 1, kTerabytes))) {
    unsigned n = 1;
    while (n < programs) n *= 2;
    stride = std::max(1u, terabytes / n);
  }
  unsigned position(size_t p, unsigned r) const { return static_cast<unsigned>((r + p * stride) % terabytes); }

  // The place of program p's terabyte r, taken on first use; raises starnuma/input when another
  // program's terabyte has it.
  uint8_t place(size_t p, unsigned r, unsigned thread, uint64_t op, uint64_t address) {
    const unsigned at = position(p, r);
    uint16_t& o = owner[at];
    const uint16_t me = static_cast<uint16_t>(p * kTerabytes + r + 1);
    if (o != 0 && o != me) {
      const size_t other = (o - 1u) / kTerabytes;
      report_error(msg::kInput, "program " + names[p] + ": thread " + std::to_string(thread) + ", op " +
                                    std::to_string(op) + ": address " + hex(address) + " is in its terabyte " +
                                    std::to_string(r) + ", whose place in the shared address space program " +
                                    names[other] + "'s terabyte " + std::to_string((o - 1u) % kTerabytes) +
                                    " already holds (" + std::to_string(terabytes) +
                                    " terabytes for the mix; docs/workloads.md)");
    }
    o = me;
    return slot[p][r] = static_cast<uint8_t>(at);
  }
};

namespace {

class ProgramStream : public ThreadStream {
 public:
  ProgramStream(std::unique_ptr<ThreadStream> inner, ProgramMix::Space& space, size_t program, unsigned thread)
      : inner_(std::move(inner)), space_(space), slot_(space.slot[program]), program_(program), thread_(thread) {}
  size_t fill(StreamOp* out, size_t max) override {
    const size_t n = inner_->fill(out, max);
    for (size_t i = 0; i < n; ++i) {
      StreamOp& op = out[i];
      if (op.kind == StreamOp::Kind::Barrier) continue;
      const uint64_t r = op.address / kTerabyte;
      if (r >= ProgramMix::Space::kTerabytes) continue;  // beyond 2^47: the address limit reports it
      uint8_t at = slot_[r];
      if (at == ProgramMix::Space::kUnmapped)
        at = space_.place(program_, static_cast<unsigned>(r), thread_, delivered_ + i, op.address);
      op.address = uint64_t{at} * kTerabyte + op.address % kTerabyte;
    }
    delivered_ += n;
    return n;
  }

 private:
  std::unique_ptr<ThreadStream> inner_;
  ProgramMix::Space& space_;
  const std::array<uint8_t, ProgramMix::Space::kTerabytes>& slot_;
  size_t program_;
  unsigned thread_;
  uint64_t delivered_ = 0;
};

}  // namespace

uint64_t mix_address(uint64_t address, size_t program, size_t programs, uint64_t address_space) {
  const uint64_t r = address / kTerabyte;
  if (r >= ProgramMix::Space::kTerabytes) return address;
  const ProgramMix::Space s(programs, address_space);
  return uint64_t{s.position(program, static_cast<unsigned>(r))} * kTerabyte + address % kTerabyte;
}

std::unique_ptr<Workload> one_process(std::unique_ptr<Workload> workload, std::string name, uint64_t address_space) {
  std::vector<ProgramMix::Program> one;
  one.push_back({std::move(workload), std::move(name)});
  return std::make_unique<ProgramMix>(std::move(one), address_space);
}

ProgramMix::ProgramMix(std::vector<Program> programs, uint64_t address_space)
    : programs_(std::move(programs)), space_(std::make_shared<Space>(programs_.size(), address_space)) {
  Space& s = *space_;
  for (const Program& p : programs_) {
    first_.push_back(threads_);
    threads_ += p.workload->threads();
    s.names.push_back(p.name);
    s.slot.emplace_back().fill(Space::kUnmapped);
  }
}

uint64_t ProgramMix::footprint() const {
  uint64_t sum = 0;
  for (const Program& p : programs_) sum += p.workload->footprint();
  return sum;
}

bool ProgramMix::initialises() const {
  return std::all_of(programs_.begin(), programs_.end(), [](const Program& p) { return p.workload->initialises(); });
}

size_t ProgramMix::program_of(unsigned thread) const {
  if (thread >= threads_)
    report_internal("thread " + std::to_string(thread) + " of a mix of " + std::to_string(threads_));
  return static_cast<size_t>(std::upper_bound(first_.begin(), first_.end(), thread) - first_.begin()) - 1;
}

bool ProgramMix::thread_initialises(unsigned thread) const {
  const size_t p = program_of(thread);
  return programs_[p].workload->thread_initialises(thread - first_[p]);
}

std::unique_ptr<ThreadStream> ProgramMix::stream(unsigned thread) const {
  const size_t p = program_of(thread);
  return std::make_unique<ProgramStream>(programs_[p].workload->stream(thread - first_[p]), *space_, p,
                                         thread - first_[p]);
}

}  // namespace starnuma
