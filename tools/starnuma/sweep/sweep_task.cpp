#include "sweep/sweep_task.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/diagnostics.hpp"
#include "common/output_file.hpp"
#include "subprocess.hpp"

namespace starnuma::cli {
namespace fs = std::filesystem;
namespace {

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

// A failure's message followed by the last lines the run wrote on stderr.
std::string with_stderr_tail(const std::string& what, const std::string& run_dir) {
  const std::string tail = file_tail(run_dir + "/stderr.txt", 15);
  return tail.empty() ? what : what + "\n" + tail;
}

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "unknown";
}

}  // namespace

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string file_tail(const std::string& path, size_t lines) {
  const std::string text = read_text(path);
  size_t start = text.size();
  for (size_t seen = 0; start > 0;) {
    if (text[start - 1] == '\n' && start != text.size() && ++seen == lines) break;
    --start;
  }
  std::string tail = text.substr(start, 4000);
  while (!tail.empty() && tail.back() == '\n') tail.pop_back();
  return tail;
}

void write_task(const std::string& run_dir, const SweepRun& run, const std::string& key) {
  nlohmann::json task;
  task["name"] = run.name;
  task["key"] = key;
  task["commands"] = run.commands(run_dir);
  task["stats"] = run.stats_file();
  write_file_atomically(run_dir + "/task.json", task.dump(2) + "\n");
}

namespace {

// What is wrong with a task file, "" if nothing: the commands are lists of words, the key a string,
// and the statistics file a plain name inside the run's folder (a task must not move files in).
std::string task_problem(const nlohmann::json& task) {
  if (!task.is_object()) return "not a JSON object";
  if (!task.contains("key") || !task["key"].is_string()) return "'key' is not a string";
  if (!task.contains("commands") || !task["commands"].is_array() || task["commands"].empty())
    return "'commands' is not a list of commands";
  for (const auto& command : task["commands"]) {
    if (!command.is_array() || command.empty()) return "a command is not a list of words";
    for (const auto& word : command)
      if (!word.is_string()) return "a command's word is not a string";
  }
  if (task.contains("stats")) {
    if (!task["stats"].is_string()) return "'stats' is not a file name";
    const fs::path stats(task["stats"].get<std::string>());
    if (stats.empty() || stats.is_absolute() ||
        std::any_of(stats.begin(), stats.end(), [](const fs::path& part) { return part == ".."; }))
      return "'stats' leaves the run's folder";
  }
  return "";
}

}  // namespace

int sweep_task(const std::string& run_dir) {
  const nlohmann::json task = nlohmann::json::parse(read_text(run_dir + "/task.json"), nullptr, false);
  if (const std::string bad = task_problem(task); !bad.empty())
    report_error(msg::kInput, run_dir + "/task.json: not a sweep task (written by starnuma sweep): " + bad);
  // Nothing of an earlier attempt may be mistaken for this one's.
  for (const char* stale : {"result.json", "summary.json", "stats.json", "stdout.txt", "stderr.txt"})
    fs::remove(run_dir + "/" + stale);
  for (const char* stale : {"out", "checkpoints", "sampled"}) fs::remove_all(run_dir + "/" + stale);

  const double started = unix_now();
  const auto clock_start = std::chrono::steady_clock::now();
  int code = 0;
  size_t failed_command = 0;
  for (const auto& command : task["commands"]) {
    const pid_t pid =
        spawn_self_to(command.get<std::vector<std::string>>(), run_dir + "/stdout.txt", run_dir + "/stderr.txt");
    code = wait_for(pid);
    if (code != 0) break;
    ++failed_command;
  }
  if (code == 0) {
    // The last command's --json output is the run's summary; its statistics file becomes stats.json.
    const std::string summary = read_text(run_dir + "/stdout.txt");
    if (nlohmann::json::parse(summary, nullptr, false).is_discarded()) {
      std::ofstream(run_dir + "/stderr.txt", std::ios::app) << "starnuma sweep-task: the run's output is not JSON\n";
      code = 2;
    } else {
      write_file_atomically(run_dir + "/summary.json", summary);
      const std::string stats = task.value("stats", std::string("summary.json"));
      if (stats == "summary.json") write_file_atomically(run_dir + "/stats.json", summary);
      else fs::rename(run_dir + "/" + stats, run_dir + "/stats.json");
      fs::remove_all(run_dir + "/out");
      fs::remove_all(run_dir + "/checkpoints");  // page maps: large, and the windows' results are kept
      fs::remove(run_dir + "/stdout.txt");
    }
  }
  nlohmann::json result;
  result["key"] = task["key"];
  result["exit_code"] = code;
  if (code != 0) result["failed_command"] = failed_command;
  result["host"] = host_name();
  result["started"] = started;
  result["finished"] = unix_now();
  result["host_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
  if (const char* job = std::getenv("SLURM_JOB_ID")) result["slurm_job"] = job;
  write_file_atomically(run_dir + "/result.json", result.dump(2) + "\n");
  return 0;
}

Ingested ingest_run(ResultsDb& db, const std::string& run_dir, const std::string& name, const std::string& key,
                    const std::string& stats_path, const std::string& missing) {
  Ingested in;
  const nlohmann::json result = nlohmann::json::parse(read_text(run_dir + "/result.json"), nullptr, false);
  if (result.is_discarded() || !result.is_object() || result.value("key", std::string()) != key) {
    if (missing.empty()) return in;  // not finished (yet)
    in.finished = true;
    in.error = with_stderr_tail(missing, run_dir);
    db.record(name, nlohmann::json::object(), nullptr, in.error, "");
    return in;
  }
  in.finished = true;
  in.host_seconds = result.value("host_seconds", 0.0);
  nlohmann::json summary = nullptr;
  if (result.value("exit_code", -1) == 0) {
    summary = nlohmann::json::parse(read_text(run_dir + "/summary.json"), nullptr, false);
    if (summary.is_discarded()) summary = nullptr;
  }
  in.done = !summary.is_null();
  if (!in.done)
    in.error = with_stderr_tail("exit code " + std::to_string(result.value("exit_code", -1)) + ":", run_dir);
  db.record(name, result, summary, in.error, stats_path);
  return in;
}

}  // namespace starnuma::cli
