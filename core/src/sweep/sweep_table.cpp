#include "sweep/sweep_table.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cstring>
#include <iterator>
#include <fstream>
#include <set>
#include <sstream>
#include <algorithm>

namespace solvent {

namespace fs = std::filesystem;

namespace {

std::optional<toml::table> read_record(const fs::path& dir) {
  try {
    return toml::parse_file((dir / "record.toml").string());
  } catch (const std::exception&) {
    return std::nullopt;  // none yet, or cut short by a kill: the member did not finish
  }
}

// The last "error: ..." line a member printed: why it ended before it had a record to say so.
std::string last_error(const fs::path& log) {
  std::ifstream in(log);
  std::string line, found;
  while (std::getline(in, line))
    if (line.starts_with("error: ")) found = line.substr(7);
  return found;
}

// A CSV field: quoted where it holds a comma or a quote, on one line.
std::string cell(std::string_view text) {
  std::string out;
  const bool quote = text.find_first_of(",\"") != std::string_view::npos;
  if (quote) out.push_back('"');
  for (const char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c == '\n' || c == '\r' ? ' ' : c);
  }
  if (quote) out.push_back('"');
  return out;
}

// A value of a record as a cell holds it: a real in its shortest round-trip form.
std::string text(const toml::node& v) {
  if (const auto d = v.value_exact<double>()) return fmt::format("{}", *d);
  if (const auto s = v.value_exact<std::string>()) return *s;
  std::ostringstream os;
  v.visit([&](const auto& x) { os << x; });
  return os.str();
}

// Every name any row has, in `first`'s order where named there, then alphabetically.
std::vector<std::string> columns(const std::vector<std::optional<MemberRow>>& rows,
                                 std::map<std::string, std::string> MemberRow::*values,
                                 std::vector<std::string> first = {}) {
  std::set<std::string> names;
  for (const auto& r : rows)
    if (r)
      for (const auto& [name, v] : (*r).*values) names.insert(name);
  std::erase_if(first, [&](const std::string& f) { return !names.contains(f); });
  for (const auto& name : names)
    if (std::find(first.begin(), first.end(), name) == first.end()) first.push_back(name);
  return first;
}

}  // namespace

bool member_finished(const fs::path& dir) {
  const auto record = read_record(dir);
  const auto status = record ? (*record)["run"]["status"].value_or(std::string()) : "";
  return status == "completed" || status == "failed";
}

MemberRow member_row(const fs::path& members_dir, std::size_t member,
                     const std::optional<MemberEnd>& end) {
  MemberRow row;
  const auto dir = member_dir(members_dir, member);
  const auto record = read_record(dir);
  const auto status = record ? (*record)["run"]["status"].value_or(std::string()) : "";
  if (end) row.wall = end->wall;
  if (status == "completed" || status == "failed") {
    const auto& r = *record;
    row.ok = status == "completed";
    row.reason = row.ok ? "completed" : r["run"]["message"].value_or(std::string("failed"));
    row.wall = r["seconds"]["wall"].value_or(row.wall);
    if (const auto* result = r["result"].as_table()) {
      for (const auto& [name, v] : *result) {
        if (const auto* obs = v.as_table()) {
          for (const auto& [o, x] : *obs) row.observables[std::string(o.str())] = text(x);
        } else {
          row.result[std::string(name.str())] = text(v);
        }
      }
    }
    return row;
  }
  const int code = end ? end->exit_code : 0;
  const auto said = last_error(member_log(members_dir, member));
  row.reason =
      code > 128   ? fmt::format("ended by SIG{} before its record was finished",
                                 sigabbrev_np(code - 128) ? sigabbrev_np(code - 128) : "?")
      : !said.empty() ? said
                      : fmt::format("exited with code {} without a finished record", code);
  return row;
}

std::string sweep_csv(const SweepPlan& plan, const std::vector<std::optional<MemberRow>>& rows) {
  const auto result = columns(rows, &MemberRow::result, {"steps", "t"});
  const auto observables = columns(rows, &MemberRow::observables);
  std::string out = "member";
  for (const auto& k : plan.keys) fmt::format_to(std::back_inserter(out), ",{}", cell(k.name));
  out += ",status,exit_reason,wall_s";
  for (const auto* names : {&result, &observables})
    for (const auto& name : *names) fmt::format_to(std::back_inserter(out), ",{}", cell(name));
  out += '\n';
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i]) continue;
    const auto& r = *rows[i];
    fmt::format_to(std::back_inserter(out), "{}", i);
    for (const auto& v : plan.members[i]) fmt::format_to(std::back_inserter(out), ",{}", cell(v.plain));
    fmt::format_to(std::back_inserter(out), ",{},{},{}", r.ok ? "ok" : "failed", cell(r.reason),
                   r.wall);
    for (const auto& [names, values] : {std::pair(&result, &r.result), std::pair(&observables, &r.observables)})
      for (const auto& name : *names) {
        const auto it = values->find(name);
        fmt::format_to(std::back_inserter(out), ",{}", it == values->end() ? "" : cell(it->second));
      }
    out += '\n';
  }
  return out;
}

}  // namespace solvent
