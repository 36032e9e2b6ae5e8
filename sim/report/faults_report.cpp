#include "sim/report/faults_report.hpp"

#include <charconv>

#include "sim/support/output_files.hpp"
#include "traces/hpl_flops.hpp"

namespace hplsim::sim {

namespace {

std::string csv_number(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

} // namespace

const char* const kFaultsCsvColumns =
    "id,kind,target,start_s,duration_s,reached,steps,messages_failed,retries,"
    "retry_wait_s,ended_run,delay_s,panel_exchange\n";

void write_fault_row(std::ostream& out, const RunResult::FaultOutcome& f, const std::string& panel_exchange) {
  out << f.id << ',' << f.kind << ",\"" << f.target << "\"," << csv_number(f.start_s) << ','
      << csv_number(f.duration_s) << ',' << (f.reached ? "true" : "false") << ',' << f.steps() << ','
      << f.messages_failed << ',' << f.retries << ',' << csv_number(f.retry_wait_s) << ','
      << (f.ended_run ? "true" : "false") << ',' << (f.delay_s ? csv_number(*f.delay_s) : "") << ','
      << panel_exchange << '\n';
}

void write_faults_csv(const RunResult& r, const std::string& path) {
  write_file_atomically(path, [&r](std::ostream& out) {
    out << kFaultsCsvColumns;
    for (const auto& f : r.faults)
      write_fault_row(out, f, r.panel_exchange);
  });
}

nlohmann::ordered_json faults_summary_json(const RunResult& r) {
  nlohmann::ordered_json j;
  int reached = 0, failed = 0, retries = 0;
  double wait_s = 0.0;
  nlohmann::ordered_json ended = nullptr;
  nlohmann::ordered_json delay = nullptr; // known in fast mode (each flap's window against its baseline)
  for (const auto& f : r.faults) {
    if (f.delay_s) delay = (delay.is_null() ? 0.0 : delay.get<double>()) + *f.delay_s;
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
  j["delay_s"] = delay;
  if (r.fault_free_time_s) {
    j["fault_free_time_s"] = *r.fault_free_time_s;
    j["fault_free_rmax_flops_per_s"] = traces::hpl_flops(r.n) / *r.fault_free_time_s;
  }
  if (!r.panel_exchange.empty()) j["panel_exchange"] = r.panel_exchange;
  j["lost_work_s"] = r.lost_work_s;
  j["restart_setup_s"] = r.restart_setup_s;
  j["drawn_through_s"] =
      r.faults_drawn_through_s ? nlohmann::ordered_json(*r.faults_drawn_through_s) : nullptr;
  return j;
}

void print_faults(const RunResult& r, std::ostream& out) {
  // The totals first: one line for the run's strategy, so that runs of the three can be set side by side.
  int reached = 0, failed = 0;
  double wait_s = 0.0, delay_s = 0.0;
  bool delays = false;
  for (const auto& f : r.faults) {
    reached += f.reached;
    failed += f.messages_failed;
    wait_s += f.retry_wait_s;
    if (f.delay_s) {
      delays = true;
      delay_s += *f.delay_s;
    }
  }
  // Every reached event gets a line; those after the run's end too while they
  // are few (listed events), else one line counts them (faults.csv has each).
  constexpr std::size_t kNotReachedLines = 20;
  const std::size_t not_reached = r.faults.size() - static_cast<std::size_t>(reached);
  const bool each_not_reached = not_reached <= kNotReachedLines;
  for (const auto& f : r.faults) {
    if (!f.reached && !each_not_reached) continue;
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
    if (f.delay_s) out << ", +" << *f.delay_s << " s";
    if (f.ended_run) out << ": ENDED THE RUN (no checkpoint; " << r.lost_work_s << " s of work lost)";
    out << "\n";
  }
  if (!each_not_reached)
    out << not_reached << " more events fall after the run's end, not reached (each in faults.csv)\n";
  out << "Faults, panel exchange " << (r.panel_exchange.empty() ? "n/a" : r.panel_exchange) << ": " << reached
      << " of " << r.faults.size() << " events reached, " << failed << " messages failed, " << wait_s
      << " s of retry waits";
  if (delays) out << ", " << delay_s << " s added to the run";
  if (r.fault_free_time_s)
    out << " (without them: " << *r.fault_free_time_s << " s, Rmax "
        << traces::hpl_flops(r.n) / *r.fault_free_time_s / 1e15 << " PF/s)";
  out << (r.completed ? "" : "; the run did not complete");
  if (r.faults_drawn_through_s) {
    out << "; seeded events drawn through " << *r.faults_drawn_through_s << " s";
    // Only a run held back far beyond its fault-free time gets here (fault_horizon_s).
    if (r.time_s >= *r.faults_drawn_through_s) out << ", which the run outlasted: later ones were not drawn";
  }
  out << "\n";
}

} // namespace hplsim::sim
