#pragma once
// Runs the `solvent` command and reads what it wrote.
#include <sys/wait.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace itest {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code;
  std::string output;  // stdout and stderr together
};

inline Outcome solvent(const std::string& args) {
  const fs::path log = fs::path(WORK_DIR) / "last-command.log";
  fs::create_directories(WORK_DIR);
  const bool run = args.rfind("run ", 0) == 0;
  const std::string cmd = std::string(SOLVENT_EXE) + " " + args + (run ? " --no-progress" : "") +
                          " > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream f(log);
  std::stringstream ss;
  ss << f.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ss.str()};
}

inline fs::path run_dir(const std::string& name) { return fs::path(WORK_DIR) / name; }

inline std::string config(const std::string& name) { return std::string(CONFIG_DIR) + "/" + name; }

// A CSV file as a header and rows of numbers.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
};

inline Table read_csv(const fs::path& p) {
  Table t;
  std::ifstream f(p);
  std::string line;
  std::getline(f, line);
  std::stringstream hs(line);
  for (std::string c; std::getline(hs, c, ',');) t.header.push_back(c);
  while (std::getline(f, line)) {
    std::stringstream ls(line);
    std::vector<double> row;
    for (std::string c; std::getline(ls, c, ',');) row.push_back(std::stod(c));
    t.rows.push_back(row);
  }
  return t;
}

inline std::string file_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace itest
