// `hplsim trace SCENARIO --steps A:B --out FILE`: the panel schedule of some
// steps, as a Protobuf stream (traces/schedule_io.hpp) or text.
#include <iostream>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>

#include <google/protobuf/text_format.h>

#include "sim/cli/commands.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/output_files.hpp"
#include "sim/workload/schedule_source.hpp"
#include "traces/schedule_io.hpp"

namespace hplsim::sim {

namespace {

int trace(const std::string& scenario_path, const ScenarioOverrides& overrides, const std::string& steps,
          const std::string& out_path, bool text) {
  const ResolvedScenario sc = resolve(load_scenario(scenario_path, overrides));
  const auto colon = steps.find(':');
  long long a = 0, b = 0;
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    std::size_t used = 0;
    a = std::stoll(steps.substr(0, colon), &used);
    if (used != colon) throw std::invalid_argument("trailing characters");
    const std::string tail = steps.substr(colon + 1);
    b = std::stoll(tail, &used);
    if (used != tail.size()) throw std::invalid_argument("trailing characters");
  } catch (const std::exception&) {
    throw InputError("--steps " + steps + ": expected A:B with integers A <= B");
  }
  const long long last = sc.workload.steps();
  if (a < 0 || b < a || b > last)
    throw InputError("--steps " + steps + ": steps must satisfy 0 <= A <= B <= " + std::to_string(last) +
                     " (ceil(N/NB) = " + std::to_string(last) + " is the final solve)");
  check_output_file(out_path);
  const auto source = make_schedule_source(sc);
  write_file_atomically(out_path, [&](std::ostream& out) {
    traces::StepSchedule step;
    if (text) {
      std::string s;
      google::protobuf::TextFormat::PrintToString(source->header(), &s);
      out << "# header\n" << s;
      for (long long k = a; k <= b; ++k) {
        step.Clear();
        source->step(k, step);
        google::protobuf::TextFormat::PrintToString(step, &s);
        out << "# step " << k << "\n" << s;
      }
    } else {
      traces::ScheduleWriter writer(out);
      writer.write_header(source->header());
      for (long long k = a; k <= b; ++k) {
        step.Clear();
        source->step(k, step);
        writer.write_step(step);
      }
    }
  });
  std::cout << "wrote steps " << a << ".." << b << " of " << last << " to " << out_path << "\n";
  return 0;
}

} // namespace

Command add_trace_command(CLI::App& app) {
  struct Args {
    std::string path, steps, out;
    bool text = false;
    ScenarioOverrides overrides;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("trace", "Write the panel schedule of some steps (Protobuf stream)");
  cmd->add_option("scenario", a->path, "Scenario file (.textproto)")->required();
  cmd->add_option("--steps", a->steps, "A:B, the steps A to B inclusive (the final solve is step ceil(N/NB))")
      ->required();
  cmd->add_option("--out", a->out, "Output file")->required();
  cmd->add_flag("--text", a->text, "Protobuf text format instead of the length-delimited binary stream");
  add_scenario_flags(cmd, a->overrides);
  return {cmd, [a]() { return trace(a->path, a->overrides, a->steps, a->out, a->text); }};
}

} // namespace hplsim::sim
