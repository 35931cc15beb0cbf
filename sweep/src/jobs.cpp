// A sweep handed to GNU parallel or Slurm: the commands that run its jobs, and the rows
// they leave in the job directory, collected.
#include <unistd.h>

#include <array>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/common/shell.hpp"
#include "tessera/sweep/sweep.hpp"

namespace tessera::sweep {
namespace {

// Run i's row as its job wrote it to DIR/run-N.json; a missing, unreadable or broken
// file is a row that says why.
nlohmann::ordered_json read_row(const spec& s, const std::string& dir, std::size_t i) {
  const std::string file = job_file(dir, i);
  std::string problem = "no result: the job did not run or did not finish";
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) {
    try {
      // Parsed in order (the row's columns keep their order), as deep as a row may be.
      const std::string text = read_input_file("--collect", file, max_row_bytes);
      nlohmann::ordered_json row = nlohmann::ordered_json::parse(
          text, [&](int depth, nlohmann::ordered_json::parse_event_t, nlohmann::ordered_json&) {
            if (depth >= static_cast<int>(max_json_depth))
              throw input_error("'" + shown(file, 160) + "' nests deeper than a row");
            return true;
          });
      if (row.is_object() && row.value("run", s.runs) == i) return row;
      problem = "no result: '" + shown(file, 160) + "' is not the row of run " + std::to_string(i);
    } catch (const input_error& e) {
      problem = std::string("no result: ") + e.what();
    } catch (const nlohmann::json::exception&) {
      problem = "no result: '" + shown(file, 160) + "' is not JSON";
    }
  }
  nlohmann::ordered_json row = nlohmann::ordered_json::object();
  row["run"] = i;
  const std::vector<std::size_t> at = coords(s, i);
  for (std::size_t k = 0; k < s.axes.size(); ++k)
    row[column(s.axes[k])] = s.axes[k].values[at[k]];
  for (const auto& [k, v] : s.shared.items())
    row[k] = v;
  row["exit_status"] = nullptr;
  row["error"] = problem;
  return row;
}

}  // namespace

std::string job_file(const std::string& dir, std::size_t i) {
  std::ostringstream os;
  os << dir << "/run-" << std::setw(6) << std::setfill('0') << i << ".json";
  return os.str();
}

std::string job_dir(const std::string& spec_file) {
  const std::size_t slash = spec_file.find_last_of('/');
  const std::string dir = spec_file.substr(0, slash == std::string::npos ? 0 : slash);
  return dir.empty() ? "." : dir;
}

std::string self_path() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  return n > 0 ? std::string(buf.data(), static_cast<std::size_t>(n)) : std::string("tessera");
}

std::string job_list(const std::string& self, const std::string& spec_file, std::size_t runs) {
  std::ostringstream o;
  for (std::size_t i = 0; i < runs; ++i)
    o << sh_word(self) << " sweep --job " << sh_word(spec_file) << " --index " << i << '\n';
  return o.str();
}

std::string slurm_script(const std::string& self, const std::string& spec_file,
                         const std::string& dir, std::size_t runs) {
  std::ostringstream o;
  o << "#!/bin/sh\n"
    << "#SBATCH --job-name=tessera-sweep\n"
    << "#SBATCH --array=0-" << runs - 1 << "\n"
    << "#SBATCH --ntasks=1\n"
    << "# One run of the sweep a task; then: tessera sweep --collect " << sh_word(dir) << "\n"
    << "exec " << sh_word(self) << " sweep --job " << sh_word(spec_file)
    << " --index \"${SLURM_ARRAY_TASK_ID:?run this as a Slurm array job}\"\n";
  return o.str();
}

std::vector<nlohmann::ordered_json> collect(const spec& s, const std::string& dir) {
  std::vector<nlohmann::ordered_json> rows;
  for (std::size_t i = 0; i < s.runs; ++i)
    rows.push_back(read_row(s, dir, i));
  return rows;
}

}  // namespace tessera::sweep
