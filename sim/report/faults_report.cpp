#include "sim/report/faults_report.hpp"

#include <charconv>

#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

std::string csv_number(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

} // namespace

void write_faults_csv(const RunResult& r, const std::string& path) {
  write_file_atomically(path, [&r](std::ostream& out) {
    out << "id,kind,target,start_s,duration_s,reached,steps,messages_failed,retries,retry_wait_s,ended_run\n";
    for (const auto& f : r.faults)
      out << f.id << ',' << f.kind << ",\"" << f.target << "\"," << csv_number(f.start_s) << ','
          << csv_number(f.duration_s) << ',' << (f.reached ? "true" : "false") << ',' << f.steps() << ','
          << f.messages_failed << ',' << f.retries << ',' << csv_number(f.retry_wait_s) << ','
          << (f.ended_run ? "true" : "false") << '\n';
  });
}

nlohmann::ordered_json faults_summary_json(const RunResult& r) {
  nlohmann::ordered_json j;
  int reached = 0, failed = 0, retries = 0;
  double wait_s = 0.0;
  nlohmann::ordered_json ended = nullptr;
  for (const auto& f : r.faults) {
    reached += f.reached;
    failed += f.messages_failed;
    retries += f.retries;
    wait_s += f.retry_wait_s;
    if (f.ended_run) ended = f.id;
  }
  j["events"] = r.faults.size();
  j["reached"] = reached;
  j["messages_failed"] = failed;
  j["retries"] = retries;
  j["retry_wait_s"] = wait_s;
  j["ended_by"] = ended;
  j["lost_work_s"] = r.lost_work_s;
  j["restart_setup_s"] = r.restart_setup_s;
  return j;
}

void print_faults(const RunResult& r, std::ostream& out) {
  for (const auto& f : r.faults) {
    out << "Fault " << f.id << ": " << f.kind << " " << f.target << " at " << f.start_s << " s";
    if (f.kind == "link_flap") out << " for " << f.duration_s << " s";
    if (!f.reached) {
      out << ": not reached (after the run's end)\n";
      continue;
    }
    if (f.touched()) out << ", steps " << f.steps();
    if (f.kind == "link_flap")
      out << ": " << f.messages_failed << " messages failed, " << f.retries << " retries, " << f.retry_wait_s
          << " s waited";
    if (f.ended_run) out << ": ENDED THE RUN (no checkpoint; " << r.lost_work_s << " s of work lost)";
    out << "\n";
  }
}

} // namespace hplsim::sim
