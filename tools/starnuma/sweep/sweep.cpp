// `starnuma sweep SPEC.yaml --out DIR`: checks every run of the sweep file, then runs what is not
// done yet (new, changed, or failed under the retry limit) on the chosen executor, recording each
// run in DIR/sweep.db as it finishes (docs/sweeps.md).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "sweep/sweep.hpp"

#include <fnmatch.h>
#include "common/diagnostics.hpp"
#include "common/output_file.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/workload_registry.hpp"
#include "subprocess.hpp"
#include "sweep/report_script.hpp"
#include "sweep/results_db.hpp"
#include "sweep/sweep_executors.hpp"
#include "sweep/sweep_spec.hpp"
#include "sweep/sweep_task.hpp"
#include "source_digest.hpp"  // generated: cmake/StarnumaSourceDigest.cmake

namespace starnuma::cli {
namespace fs = std::filesystem;
namespace {

// FNV-1a over two lanes of different offsets: 128 bits, plenty to tell inputs apart (not a
// defence against forgery, which a results cache does not need).
class Digest {
 public:
  Digest& add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      a_ = (a_ ^ p[i]) * 0x100000001b3ull;
      b_ = (b_ ^ p[i]) * 0x100000001b3ull;
    }
    return *this;
  }
  Digest& add(const std::string& s) {
    add(s.data(), s.size());
    return add("\0", 1);  // "ab","c" differs from "a","bc"
  }
  Digest& add_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) report_error(msg::kInput, path + ": cannot read it to key the sweep's results");
    std::vector<char> buf(1 << 20);
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      add(buf.data(), static_cast<size_t>(in.gcount()));
    }
    return add(std::string("<eof>"));
  }
  std::string hex() const {
    char s[33];
    std::snprintf(s, sizeof s, "%016llx%016llx", static_cast<unsigned long long>(a_),
                  static_cast<unsigned long long>(b_));
    return s;
  }

 private:
  uint64_t a_ = 0xcbf29ce484222325ull, b_ = 0x84222325cbf29ce4ull;
};

// A platform file and every file it extends, in order.
void platform_files(const std::string& path, std::vector<std::string>& files) {
  if (files.size() > 64 || std::find(files.begin(), files.end(), path) != files.end())
    return;  // `check` reports cycles
  files.push_back(path);
  const ConfigNode doc = load_yaml_file(path);
  if (const ConfigNode* base = doc.is_map() ? doc.find("extends") : nullptr; base && base->is_scalar())
    platform_files((fs::path(path).parent_path() / base->value()).lexically_normal().string(), files);
}

struct PlatformConfig {
  std::string key;              // folder under DIR/platforms
  std::string error;            // `describe`'s complaint, if it refused the configuration
  std::vector<unsigned> cores;  // per socket
};

// What a program mix asks of its platform that the platform lacks: a socket beyond its last, or
// two programs on one core. "" when the mix fits (or the workload is no mix).
std::string mix_problem(const std::string& workload, const PlatformConfig& config) {
  if (!is_program_mix(workload)) return "";
  const std::vector<ProgramSpec> programs = parse_program_mix(workload);
  std::map<std::pair<unsigned, unsigned>, std::string> owner;  // (socket, core) -> program
  for (const ProgramSpec& p : programs)
    for (unsigned socket : p.sockets) {
      if (socket >= config.cores.size())
        return "program '" + p.name + "': socket " + std::to_string(socket) + ": the platform has " +
               std::to_string(config.cores.size()) + " sockets";
      const unsigned first = p.cores ? p.cores->first : 0;
      const unsigned last = p.cores ? std::min(p.cores->second, config.cores[socket] - 1) : config.cores[socket] - 1;
      for (unsigned core = first; core <= last; ++core)
        if (auto [it, fresh] = owner.emplace(std::make_pair(socket, core), p.name); !fresh)
          return "programs '" + it->second + "' and '" + p.name + "' both use core " + std::to_string(core) +
                 " of socket " + std::to_string(socket);
    }
  return "";
}

nlohmann::json without_sources(const nlohmann::json& j) {
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(without_sources(v));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : j.items())
    if (k != "source") out[k] = without_sources(v);
  return out;
}

// Checks one platform configuration by describing it in a child process (a platform elaborates
// once per process) and keeps its description and latency matrix for reports. Its key covers the
// description, the text of every file it comes from, and the overrides.
PlatformConfig check_platform(const SweepRun& run, const std::string& sweep_dir) {
  std::vector<std::string> args{"starnuma", "describe", run.platform, "--json"};
  for (const auto& [k, v] : run.sets) args.insert(args.end(), {"--set", k + "=" + v});
  const std::string scratch = sweep_dir + "/platforms/.check-" + std::to_string(getpid());
  fs::create_directories(scratch);
  const std::string described = scratch + "/describe.json", errors = scratch + "/stderr.txt";
  fs::remove(errors);
  PlatformConfig config;
  if (wait_for(spawn_self_to(args, described, errors)) != 0) {
    config.error = read_text(errors);
    fs::remove_all(scratch);
    return config;
  }
  Digest d;
  const nlohmann::json description = nlohmann::json::parse(read_text(described), nullptr, false);
  // The description without where each value came from: its "source" fields name the files by
  // the paths they were given with, so a checkout in another folder would key every run anew.
  // The files' texts are keyed below.
  d.add(description.is_discarded() ? read_text(described) : without_sources(description).dump());
  if (description.is_object() && description.contains("nodes") && description["nodes"].is_array())
    for (const auto& node : description["nodes"])
      if (node.is_object() && node.value("type", std::string()) == "socket") {
        const nlohmann::json cores =
            node.contains("params") ? node["params"].value("cores", nlohmann::json()) : nullptr;
        config.cores.push_back(cores.is_object() ? cores.value("value", 1u) : 1u);
      }
  std::vector<std::string> files;
  platform_files(run.platform, files);
  for (const std::string& f : files) d.add_file(f);
  for (const auto& [k, v] : run.sets) d.add(k).add(v);
  config.key = d.hex().substr(0, 16);
  const std::string dir = sweep_dir + "/platforms/" + config.key;
  if (!fs::exists(dir + "/latency.json")) {
    args[1] = "latency";
    const std::string latency = scratch + "/latency.json";
    if (wait_for(spawn_self_to(args, latency, errors)) != 0) {
      config.error = read_text(errors);
      fs::remove_all(scratch);
      return config;
    }
    write_file_atomically(dir + "/describe.json", read_text(described));
    write_file_atomically(dir + "/latency.json", read_text(latency));
  }
  fs::remove_all(scratch);
  return config;
}

// What a run's result depends on: the sources this starnuma was built from (not the executable's
// bytes, which change with the build folder), its platform configuration, its options and the
// files it reads.
std::string run_key(const SweepRun& run, const std::string& platform_key) {
  Digest d;
  d.add(STARNUMA_VERSION).add(STARNUMA_SOURCE_DIGEST).add(kind_name(run.kind)).add(platform_key);
  for (const auto& [k, v] : run.options) d.add(k).add(v);
  for (const auto& [k, v] : run.sets) d.add("set:" + k).add(v);
  const std::string workload = run.option("workload");
  const std::string workload_file = workload.substr(0, workload.find(':'));
  if (is_yaml_path(workload_file)) d.add_file(workload_file);
  if (run.options.count("trace")) d.add_file(run.option("trace"));
  return d.hex();
}

nlohmann::json parameter_columns(const SweepRun& run, const std::string& platform_key) {
  nlohmann::json c;
  c["kind"] = kind_name(run.kind);
  if (!run.platform.empty()) {
    c["platform"] = run.platform_written;
    c["platform_name"] = run.platform_name;
    c["platform_key"] = platform_key;
  }
  c["workload"] = run.options.count("trace") ? "trace:" + run.option("trace") : run.option("workload");
  if (run.kind == RunKind::Sampled) c["placement"] = "sampled";
  else if (run.options.count("placement")) c["placement"] = run.option("placement");
  for (const char* k : {"seed", "instructions", "warmup"})
    if (run.options.count(k)) c[k] = std::stoll(run.option(k));
  if (run.options.count("pool_fraction")) c["pool_fraction"] = std::stod(run.option("pool_fraction"));
  nlohmann::ordered_json sets = nlohmann::ordered_json::object(), params = nlohmann::ordered_json::object();
  for (const auto& [k, v] : run.sets) sets[k] = v;
  for (const auto& [k, v] : run.params) params[k] = v;
  c["sets"] = sets.dump();
  c["params"] = params.dump();
  return c;
}

// Whether every entry of `dir` is one a sweep writes (a dry run writes the platforms' checks alone).
bool only_sweep_entries(const std::string& dir) {
  static const std::set<std::string> ours{"sweep.db", "sweep.db-journal", "runs", "platforms", "graphs", ".lock"};
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (!ours.count(e.path().filename().string())) return false;
  return true;
}

// A sweep folder is DIR/sweep.db and its runs; an existing folder of anything else is refused.
void prepare_folder(const std::string& dir) {
  std::error_code ec;
  (void)fs::status(dir, ec);  // a path the system refuses (too long, a file in the way of a parent)
  if (ec && ec != std::errc::no_such_file_or_directory) report_error(msg::kInput, "--out " + dir + ": " + ec.message());
  if (fs::exists(dir)) {
    if (!fs::is_directory(dir)) report_error(msg::kInput, "--out " + dir + ": exists and is not a folder");
    if (!fs::exists(dir + "/sweep.db") && !only_sweep_entries(dir))
      report_error(
          msg::kInput,
          "--out " + dir + ": a folder of other files (a sweep folder holds sweep.db); give a new or empty one");
  }
  for (const std::string sub : {"/runs", "/platforms"}) {
    std::error_code ec;
    fs::create_directories(dir + sub, ec);
    if (ec || !fs::is_directory(dir + sub))
      report_error(msg::kInput, "--out " + dir + ": cannot make its folder " + dir + sub + ": " +
                                    (ec ? ec.message() : "a file of that name is in the way"));
  }
  if (access(dir.c_str(), W_OK) != 0 || access((dir + "/runs").c_str(), W_OK) != 0)
    report_error(msg::kInput, "--out " + dir + ": cannot write there");
}

// One sweep at a time per folder: a second would run the same runs and race on their files. The
// lock goes with the process, however it ends.
void lock_folder(const std::string& dir) {
  const int fd = open((dir + "/.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) report_error(msg::kInput, "--out " + dir + ": cannot create its lock file");
  if (flock(fd, LOCK_EX | LOCK_NB) != 0)
    report_error(msg::kInput, "--out " + dir + ": another starnuma sweep is running in this folder");
}

// A folder belongs to one sweep: another sweep file's runs would drop its rows and overwrite its
// results.
void check_same_sweep(ResultsDb& db, const SweepSpec& spec, const std::string& dir) {
  const std::string holder = db.meta("sweep");
  if (!holder.empty() && holder != spec.name)
    report_error(msg::kInput, "--out " + dir + ": holds the results of sweep '" + holder + "', and " + spec.path +
                                  " is sweep '" + spec.name + "': a folder belongs to one sweep (give another --out)");
}

}  // namespace

int sweep(const SweepArgs& args) {
  SweepSpec spec = load_sweep_spec(args.spec);
  if (!args.only.empty()) {
    const auto unnamed = [&](const SweepRun& r) { return fnmatch(args.only.c_str(), r.name.c_str(), 0) != 0; };
    spec.runs.erase(std::remove_if(spec.runs.begin(), spec.runs.end(), unnamed), spec.runs.end());
    if (spec.runs.empty())
      report_error(msg::kUsage, "--only " + args.only + ": no run of " + spec.path + " has a name it matches");
  }
  if (args.out.empty()) report_error(msg::kUsage, "sweep: --out DIR is required");
  const std::string dir = fs::absolute(args.out).lexically_normal().string();
  prepare_folder(dir);

  // Every platform configuration is checked (and described) before any run starts.
  std::map<std::string, PlatformConfig> configs;  // by platform path and overrides
  std::vector<std::string> platform_keys(spec.runs.size());
  std::string errors;
  for (size_t i = 0; i < spec.runs.size(); ++i) {
    const SweepRun& run = spec.runs[i];
    if (run.platform.empty()) continue;
    std::string id = run.platform;
    for (const auto& [k, v] : run.sets) id += "\n" + k + "=" + v;
    auto it = configs.find(id);
    if (it == configs.end()) {
      it = configs.emplace(id, check_platform(run, dir)).first;
      if (!it->second.error.empty())
        errors += run.where.str() + ": error: run " + run.name + ": its platform is refused:\n" + it->second.error;
    }
    platform_keys[i] = it->second.key;
    if (run.options.count("detailed_sockets") && it->second.error.empty() &&
        std::stoull(run.option("detailed_sockets")) > it->second.cores.size())
      errors += run.where.str() + ": error: run " + run.name + ": detailed_sockets " + run.option("detailed_sockets") +
                ": its platform has " + std::to_string(it->second.cores.size()) + " sockets\n";
    if (it->second.error.empty())
      if (const std::string bad = mix_problem(run.option("workload"), it->second); !bad.empty())
        errors +=
            run.where.str() + ": error: run " + run.name + ": workload " + run.option("workload") + ": " + bad + "\n";
  }
  if (!errors.empty()) report_error(msg::kConfig, "sweep " + spec.path + ": nothing was run.\n" + errors);

  std::vector<std::string> keys(spec.runs.size());
  for (size_t i = 0; i < spec.runs.size(); ++i) keys[i] = run_key(spec.runs[i], platform_keys[i]);

  const std::string db_path = dir + "/sweep.db";
  if (args.dry_run) {
    std::map<std::string, RunRow> rows;
    if (fs::exists(db_path)) {
      ResultsDb db(db_path);
      check_same_sweep(db, spec, dir);
      rows = db.runs();
    }
    int width = 3;
    for (const SweepRun& run : spec.runs) width = std::max(width, static_cast<int>(run.name.size()));
    std::printf("%-*s  %-24s %s\n", width, "run", "status", "command");
    for (size_t i = 0; i < spec.runs.size(); ++i) {
      const SweepRun& run = spec.runs[i];
      auto row = rows.find(run.name);
      std::string status = "to run";
      if (row != rows.end() && row->second.key == keys[i]) {
        if (row->second.status == "done") status = "done";
        else if (row->second.status == "failed")
          status =
              row->second.attempts >= static_cast<int>(args.attempts) ? "failed, no retries left" : "failed, to rerun";
      } else if (row != rows.end()) {
        status = "changed, to run";
      }
      std::string command;
      for (const auto& argv : run.commands(dir + "/runs/" + run.name)) {
        if (!command.empty()) command += " && ";
        for (size_t a = 0; a < argv.size(); ++a) command += (a ? " " : "") + argv[a];
      }
      std::printf("%-*s  %-24s %s\n", width, run.name.c_str(), status.c_str(), command.c_str());
    }
    return 0;
  }

  lock_folder(dir);
  ResultsDb db(db_path);
  check_same_sweep(db, spec, dir);
  db.set_meta("sweep", spec.name);
  db.set_meta("spec", spec.path);
  db.set_meta("description", spec.description);
  db.set_meta("starnuma_version", STARNUMA_VERSION);
  db.set_meta("starnuma_sources", STARNUMA_SOURCE_DIGEST);
  db.set_meta("baseline", spec.baseline);
  db.set_meta("axes", nlohmann::json(spec.axes).dump());
  std::vector<std::string> names;
  for (size_t i = 0; i < spec.runs.size(); ++i) {
    db.upsert_run(spec.runs[i].name, keys[i], parameter_columns(spec.runs[i], platform_keys[i]));
    names.push_back(spec.runs[i].name);
  }
  db.remove_except(names);

  std::vector<PendingRun> todo;
  unsigned already = 0, exhausted = 0;
  std::map<std::string, RunRow> rows = db.runs();
  for (size_t i = 0; i < spec.runs.size(); ++i) {
    const SweepRun& run = spec.runs[i];
    PendingRun p{run.name, keys[i], dir + "/runs/" + run.name, "runs/" + run.name + "/stats.json"};
    RunRow& row = rows[run.name];
    if (row.status != "done") {
      // A result that finished after an earlier sweep stopped following it (interrupted, or a Slurm
      // job still running then) is collected rather than run again.
      const Ingested in = ingest_run(db, p.dir, p.name, p.key, p.stats_path, "");
      if (in.finished) row.status = in.done ? "done" : "failed";
    } else if (!fs::exists(p.dir + "/result.json") || !fs::exists(dir + "/" + p.stats_path)) {
      row.status = "pending";  // done, but its files were deleted since
    }
    if (row.status == "running" || row.status == "pending") db.set_pending(run.name);  // nobody follows it now
    if (row.status == "done") {
      ++already;
    } else if (row.status == "failed" && row.attempts >= static_cast<int>(args.attempts)) {
      ++exhausted;
    } else {
      write_task(p.dir, run, p.key);
      todo.push_back(std::move(p));
    }
  }
  if (args.progress)
    std::fprintf(stderr, "sweep %s: %zu runs, %u done already, %u failed %u times (not retried), %zu to run (%s)\n",
                 spec.name.c_str(), spec.runs.size(), already, exhausted, args.attempts, todo.size(),
                 args.executor == "slurm" ? "Slurm" : ("local, " + std::to_string(args.jobs) + " at once").c_str());
  // The runs build each Kronecker graph once, in DIR/graphs, unless the user names another folder
  // (the tasks inherit the environment, on Slurm too).
  setenv("STARNUMA_GRAPH_CACHE", (dir + "/graphs").c_str(), 0);
  if (args.executor == "slurm") run_slurm(db, todo, dir, spec.name, args.slurm, args.progress);
  else run_local(db, todo, args.jobs, args.progress);

  // The verdict from the database: every run of the sweep, whoever ran it.
  unsigned done = 0;
  std::vector<RunRow> failed;
  for (const auto& [name, row] : db.runs()) {
    if (row.status == "done") ++done;
    else failed.push_back(row);
  }
  std::printf("sweep %s: %u of %zu runs done, %zu failed; results in %s\n", spec.name.c_str(), done, spec.runs.size(),
              failed.size(), db_path.c_str());
  for (const RunRow& row : failed) {
    std::string error = row.error;
    for (size_t at = 0; (at = error.find('\n', at)) != std::string::npos; at += 5) error.replace(at, 1, "\n    ");
    std::printf("  FAILED %s (attempt %d of %u): %s\n", row.name.c_str(), row.attempts, args.attempts, error.c_str());
  }
  return failed.empty() ? 0 : 1;
}

int report(const ReportArgs& args) {
  const std::string script = report_script("report.py");
  std::vector<std::string> argv{"python3", script, args.dir, "--format", args.format};
  if (!args.out.empty()) argv.insert(argv.end(), {"--out", args.out});
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  std::fflush(stdout);
  execvp("python3", raw.data());
  report_error(msg::kInput, "report: cannot start python3 (install Debian's python3-matplotlib and python3-pandas)");
}

}  // namespace starnuma::cli
