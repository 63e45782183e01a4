#include "sweep/results_db.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <set>

#include "common/diagnostics.hpp"

namespace starnuma::cli {
namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  name TEXT PRIMARY KEY, key TEXT NOT NULL, kind TEXT NOT NULL,
  platform TEXT, platform_name TEXT, platform_key TEXT, workload TEXT NOT NULL, placement TEXT,
  seed INTEGER, instructions INTEGER, warmup INTEGER, pool_fraction REAL,
  sets TEXT NOT NULL, params TEXT NOT NULL,
  status TEXT NOT NULL, attempts INTEGER NOT NULL,
  exit_code INTEGER, error TEXT,
  executor TEXT, host TEXT, started REAL, finished REAL, host_seconds REAL,
  ipc REAL, amat_ns REAL, amat_unloaded_ns REAL, amat_contention_ns REAL,
  access_local REAL, access_1hop REAL, access_2hop REAL, access_pool REAL,
  util_upi REAL, util_numalink REAL, util_cxl REAL,
  llc_misses INTEGER, sim_time_ns REAL,
  pages_moved INTEGER, to_pool INTEGER,
  stats_path TEXT
);
)";

// The parameter columns upsert_run fills, and the result columns a new key clears.
const char* const kParamColumns[] = {"kind", "platform",     "platform_name", "platform_key",  "workload", "placement",
                                     "seed", "instructions", "warmup",        "pool_fraction", "sets",     "params"};
const char* const kResultColumns[] = {
    "exit_code",          "error",         "executor",    "host",        "started",
    "finished",           "host_seconds",  "ipc",         "amat_ns",     "amat_unloaded_ns",
    "amat_contention_ns", "access_local",  "access_1hop", "access_2hop", "access_pool",
    "util_upi",           "util_numalink", "util_cxl",    "llc_misses",  "sim_time_ns",
    "pages_moved",        "to_pool",       "stats_path"};

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement& bind(int i, const nlohmann::json& v) {
    int rc = SQLITE_OK;
    if (v.is_null()) rc = sqlite3_bind_null(stmt_, i);
    else if (v.is_number_integer()) rc = sqlite3_bind_int64(stmt_, i, v.get<int64_t>());
    else if (v.is_number()) rc = sqlite3_bind_double(stmt_, i, v.get<double>());
    else if (v.is_string())
      rc = sqlite3_bind_text(stmt_, i, v.get_ref<const std::string&>().c_str(), -1, SQLITE_TRANSIENT);
    else rc = sqlite3_bind_text(stmt_, i, v.dump().c_str(), -1, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) fail("bind");
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }
  std::string text(int col) const {
    const unsigned char* t = sqlite3_column_text(stmt_, col);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  int integer(int col) const { return sqlite3_column_int(stmt_, col); }

 private:
  [[noreturn]] void fail(const char* what) {
    report_error(msg::kInput, path_ + ": SQLite " + what + " failed: " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string path_;
};

nlohmann::json at(const nlohmann::json& j, const char* a, const char* b = nullptr) {
  if (!j.is_object() || !j.contains(a)) return nullptr;
  const nlohmann::json& v = j[a];
  if (!b) return v;
  return v.is_object() && v.contains(b) ? v[b] : nlohmann::json(nullptr);
}

}  // namespace

ResultsDb::ResultsDb(const std::string& path) : path_(path) {
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK)
    report_error(msg::kInput,
                 path + ": cannot open the results database: " + (db_ ? sqlite3_errmsg(db_) : "out of memory"));
  sqlite3_busy_timeout(db_, 10000);  // a report reading at the same moment
  exec(kSchema);
  std::string version;
  {
    Statement s(db_, "SELECT value FROM meta WHERE key = 'schema_version'", path_);
    if (s.step()) version = s.text(0);
  }
  if (!version.empty() && version != std::to_string(kResultsSchemaVersion))
    report_error(msg::kInput, path + ": a results database of schema version " + version +
                                  "; this starnuma writes version " + std::to_string(kResultsSchemaVersion) +
                                  " (use a new --out folder)");
  set_meta("schema_version", std::to_string(kResultsSchemaVersion));
}

ResultsDb::~ResultsDb() { sqlite3_close(db_); }

void ResultsDb::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    report_error(msg::kInput, path_ + ": SQLite: " + message);
  }
}

void ResultsDb::set_meta(const std::string& key, const std::string& value) {
  Statement(db_, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            path_)
      .bind(1, key)
      .bind(2, value)
      .step();
}

std::string ResultsDb::meta(const std::string& key) {
  Statement s(db_, "SELECT value FROM meta WHERE key = ?", path_);
  s.bind(1, key);
  return s.step() ? s.text(0) : "";
}

void ResultsDb::set_pending(const std::string& name) {
  Statement(db_, "UPDATE runs SET status = 'pending' WHERE name = ?", path_).bind(1, name).step();
}

std::map<std::string, RunRow> ResultsDb::runs() {
  std::map<std::string, RunRow> rows;
  Statement s(db_, "SELECT name, key, status, attempts, error FROM runs", path_);
  while (s.step()) rows[s.text(0)] = RunRow{s.text(0), s.text(1), s.text(2), s.integer(3), s.text(4)};
  return rows;
}

void ResultsDb::upsert_run(const std::string& name, const std::string& key, const nlohmann::json& columns) {
  std::string names = "name, key, status, attempts", marks = "?, ?, 'pending', 0", updates;
  for (const char* c : kParamColumns) {
    names += std::string(", ") + c;
    marks += ", ?";
    updates += std::string(", ") + c + " = excluded." + c;
  }
  // A changed key (another binary, input or parameter) makes the old result invalid.
  std::string reset =
      "status = CASE WHEN runs.key = excluded.key THEN runs.status ELSE 'pending' END, "
      "attempts = CASE WHEN runs.key = excluded.key THEN runs.attempts ELSE 0 END";
  for (const char* c : kResultColumns)
    reset += std::string(", ") + c + " = CASE WHEN runs.key = excluded.key THEN runs." + c + " END";
  Statement s(db_,
              "INSERT INTO runs(" + names + ") VALUES(" + marks + ") ON CONFLICT(name) DO UPDATE SET " + reset +
                  updates + ", key = excluded.key",
              path_);
  s.bind(1, name).bind(2, key);
  int i = 3;
  for (const char* c : kParamColumns) s.bind(i++, columns.contains(c) ? columns[c] : nlohmann::json(nullptr));
  s.step();
}

void ResultsDb::remove_except(const std::vector<std::string>& names) {
  const std::set<std::string> keep(names.begin(), names.end());
  for (const auto& [name, row] : runs())
    if (!keep.count(name)) Statement(db_, "DELETE FROM runs WHERE name = ?", path_).bind(1, name).step();
}

void ResultsDb::mark_running(const std::string& name, const std::string& executor) {
  Statement(db_, "UPDATE runs SET status = 'running', attempts = attempts + 1, executor = ? WHERE name = ?", path_)
      .bind(1, executor)
      .bind(2, name)
      .step();
}

void ResultsDb::record(const std::string& name, const nlohmann::json& result, const nlohmann::json& summary,
                       const std::string& error, const std::string& stats_path) {
  const bool done = !summary.is_null();
  const nlohmann::json migration = at(summary, "migration");
  Statement s(
      db_,
      "UPDATE runs SET status = ?, exit_code = ?, error = ?, host = ?, started = ?, finished = ?, host_seconds = ?, "
      "ipc = ?, amat_ns = ?, amat_unloaded_ns = ?, amat_contention_ns = ?, access_local = ?, access_1hop = ?, "
      "access_2hop = ?, access_pool = ?, util_upi = ?, util_numalink = ?, util_cxl = ?, llc_misses = ?, "
      "sim_time_ns = ?, pages_moved = ?, to_pool = ?, stats_path = ? WHERE name = ?",
      path_);
  s.bind(1, done ? "done" : "failed")
      .bind(2, at(result, "exit_code"))
      .bind(3, done ? nlohmann::json(nullptr) : nlohmann::json(error))
      .bind(4, at(result, "host"))
      .bind(5, at(result, "started"))
      .bind(6, at(result, "finished"))
      .bind(7, at(result, "host_seconds"))
      .bind(8, at(summary, "ipc"))
      .bind(9, at(summary, "amat_ns"))
      .bind(10, at(summary, "amat_unloaded_ns"))
      .bind(11, at(summary, "amat_contention_ns"))
      .bind(12, at(summary, "access_breakdown", "local"))
      .bind(13, at(summary, "access_breakdown", "1-hop"))
      .bind(14, at(summary, "access_breakdown", "2-hop"))
      .bind(15, at(summary, "access_breakdown", "pool"))
      .bind(16, at(summary, "link_utilization", "upi"))
      .bind(17, at(summary, "link_utilization", "numalink"))
      .bind(18, at(summary, "link_utilization", "cxl"))
      .bind(19, at(summary, "llc_misses"))
      .bind(20, at(summary, "sim_time_ns"))
      .bind(21, at(migration, "pages_moved"))
      .bind(22, at(migration, "to_pool"))
      .bind(23, done ? nlohmann::json(stats_path) : nlohmann::json(nullptr))
      .bind(24, name)
      .step();
}

}  // namespace starnuma::cli
