#pragma once
// The faults part of a run's reports (docs/faults.md): faults.csv, the
// "faults" object of summary.json and the summary lines on stdout. Written
// only for a scenario with faults.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/result/run_result.hpp"

namespace hplsim::sim {

/// faults.csv's header: id,kind,target,start_s,duration_s,reached,steps,
/// messages_failed,retries,retry_wait_s,ended_run,delay_s,panel_exchange.
extern const char* const kFaultsCsvColumns;

/// One event's row of faults.csv (and of a study's trial-faults.csv).
void write_fault_row(std::ostream& out, const RunResult::FaultOutcome& event,
                     const std::string& panel_exchange);

/// faults.csv: the header, then one row per event.
void write_faults_csv(const RunResult& result, const std::string& path);

/// summary.json's "faults": events, reached, messages_failed, retries,
/// retry_wait_s, ended_by (the event id or null), lost_work_s, restart_setup_s.
nlohmann::ordered_json faults_summary_json(const RunResult& result);

/// One line per event that was reached, and the outcome.
void print_faults(const RunResult& result, std::ostream& out);

} // namespace hplsim::sim
