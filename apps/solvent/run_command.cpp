#include "commands.hpp"

#include "config_validation.hpp"
#include "run_driver.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <cstdio>

namespace solvent::cli {

namespace {
// Reads `--set k=v` / `--set=k=v` style options shared by run and validate.
bool take_set(const Args& args, std::size_t& i, std::vector<std::string>& overrides) {
  if (args[i] == "--set") {
    if (i + 1 >= args.size()) throw ConfigError({"--set needs section.key=value"});
    overrides.push_back(args[++i]);
    return true;
  }
  if (args[i].rfind("--set=", 0) == 0) {
    overrides.push_back(args[i].substr(6));
    return true;
  }
  return false;
}
}  // namespace

int run_command(const Args& args, const Args& argv) {
  RunOptions opt;
  opt.argv = argv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    if (take_set(args, i, opt.overrides)) continue;
    if ((a == "--output" || a == "--resume") && i + 1 < args.size()) {
      (a == "--output" ? opt.output_dir : opt.resume) = args[++i];
    } else if (a == "--overwrite") {
      opt.overwrite = true;
    } else if (a == "--progress") {
      opt.progress = ProgressMode::Always;
    } else if (a == "--no-progress") {
      opt.progress = ProgressMode::Never;
    } else if (!a.empty() && a[0] != '-' && opt.config.empty()) {
      opt.config = a;
    } else {
      throw ConfigError({fmt::format("solvent run: unexpected argument '{}'", a)});
    }
  }
  if (opt.config.empty() && !opt.resume)
    throw ConfigError({"solvent run: which configuration file? (solvent run FILE)"});
  const auto s = run_experiment(opt);
  std::printf("run completed: model %s, integrator %s%s%s\n", s.model.c_str(), s.integrator.c_str(),
              s.linear_solver.empty() ? "" : ", linear solver ", s.linear_solver.c_str());
  std::printf("  %lld steps to t = %.6g in %.3f s\n  results in %s\n",
              static_cast<long long>(s.steps), s.t, s.wall_seconds, s.output_dir.c_str());
  return 0;
}

int validate_command(const Args& args) {
  std::filesystem::path file;
  std::vector<std::string> overrides;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (take_set(args, i, overrides)) continue;
    if (file.empty() && !args[i].empty() && args[i][0] != '-')
      file = args[i];
    else
      throw ConfigError({fmt::format("solvent validate: unexpected argument '{}'", args[i])});
  }
  if (file.empty()) throw ConfigError({"solvent validate: which configuration file?"});
  auto cfg = resolve_config(load_config_document(file, overrides));
  std::printf("%s: valid (model %s, integrator %s%s%s)\n", file.c_str(),
              cfg.model->plugin->descriptor->name, cfg.integrator->plugin->descriptor->name,
              cfg.linear_solver ? ", linear solver " : "",
              cfg.linear_solver ? cfg.linear_solver->plugin->descriptor->name : "");
  return 0;
}

}  // namespace solvent::cli
