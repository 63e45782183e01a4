// A sweep's results database: SQLite in DIR/sweep.db, one row per run (its parameters, status and
// headline metrics), the schema of docs/reports.md. Only the sweep command writes it; readers
// (reports, notebooks) open it read-only while a sweep runs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

struct sqlite3;

namespace starnuma::cli {

inline constexpr int kResultsSchemaVersion = 1;

struct RunRow {
  std::string name, key, status;
  int attempts = 0;
  std::string error;  // the last failure's
};

class ResultsDb {
 public:
  explicit ResultsDb(const std::string& path);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  void set_meta(const std::string& key, const std::string& value);
  std::string meta(const std::string& key);  // "" when absent
  // A run no process follows any more (its sweep was killed), or whose files are gone: to run again.
  void set_pending(const std::string& name);
  std::map<std::string, RunRow> runs();
  // Inserts the run or, when its key changed, resets it to pending; a run whose key is unchanged
  // keeps its status and results. `columns`: the parameter columns (platform, workload, ...).
  void upsert_run(const std::string& name, const std::string& key, const nlohmann::json& columns);
  // Drops the rows of runs the sweep file no longer has.
  void remove_except(const std::vector<std::string>& names);
  void mark_running(const std::string& name, const std::string& executor);
  // A finished attempt: `result` is the task's result.json; `summary` the command's JSON output
  // (null when it failed); `error`: the stderr tail of a failure.
  void record(const std::string& name, const nlohmann::json& result, const nlohmann::json& summary,
              const std::string& error, const std::string& stats_path);

 private:
  void exec(const std::string& sql);
  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace starnuma::cli
