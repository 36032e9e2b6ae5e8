// Validation of a scenario's system noise (machine.variability.noise,
// models/calibration.proto): each source's scope and process, its ranges,
// and that a trace file exists and reads (models/noise.hpp).
#include <stdexcept>
#include <string>

#include "models/noise.hpp"
#include "sim/scenario/scenario_check.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/scenario/scenario_validate.hpp"

namespace hplsim::sim::detail {

void check_noise(const Checker& c, const models::NoiseParams& noise, const std::string& base_dir,
                 const std::string& prefix) {
  const MessageCheck n(c, noise, prefix);
  n.at_least("os_cores_per_node", 0);
  for (int i = 0; i < noise.sources_size(); ++i) {
    const models::NoiseSource& src = noise.sources(i);
    const MessageCheck s(c, src, prefix + (prefix.empty() ? "" : ".") + "sources[" + std::to_string(i) + "]");
    if (src.scope() == models::NoiseSource::SCOPE_UNSPECIFIED)
      s.fail("scope", s.path("scope") + " is required: CORE (every core its own detours) or NODE (one stream "
                                        "per node, run on a spare core when the node has one)");
    switch (src.process_case()) {
    case models::NoiseSource::kPeriodic: {
      const MessageCheck p(c, src.periodic(), s.path("periodic"));
      // Under a microsecond apart, detours are not noise but a slower core (and
      // would cost the simulation one step each): use a rate factor instead.
      p.in_range("period_s", 1e-6, true, 1e9, true, Need::Required);
      p.non_negative("length_s", Need::Required);
      if (src.periodic().length_s() >= src.periodic().period_s())
        p.fail("length_s",
               p.path("length_s") + " (" + format_number(src.periodic().length_s()) +
                   ") must be below period_s (" + format_number(src.periodic().period_s()) +
                   "): the core would never run the application",
               {p.path("length_s"), p.path("period_s")});
      break;
    }
    case models::NoiseSource::kPoisson: {
      const MessageCheck p(c, src.poisson(), s.path("poisson"));
      p.in_range("rate_per_s", 0.0, true, 1e6, true,
                 Need::Required); // as period_s: at most one a microsecond
      p.non_negative("length_s", Need::Required);
      if (src.poisson().rate_per_s() * src.poisson().length_s() >= 1.0)
        p.fail("rate_per_s",
               p.path("rate_per_s") +
                   " x length_s = " + format_number(src.poisson().rate_per_s() * src.poisson().length_s()) +
                   ": the detours would take the whole core (it must be below 1)",
               {p.path("rate_per_s"), p.path("length_s")});
      break;
    }
    case models::NoiseSource::kTraceFile: {
      const ScenarioFile file = find_scenario_file(base_dir, src.trace_file());
      if (!file.found)
        s.fail("trace_file", s.path("trace_file") + " \"" + src.trace_file() + "\": no such file; tried " +
                                 describe_tried(file));
      try {
        models::read_noise_trace(file.path);
      } catch (const std::runtime_error& e) {
        s.fail("trace_file", s.path("trace_file") + ": " + e.what());
      }
      break;
    }
    case models::NoiseSource::PROCESS_NOT_SET:
      s.fail("periodic", s.path() + " needs one of periodic, poisson or trace_file",
             {s.path("periodic"), s.path("poisson"), s.path("trace_file")});
    }
  }
}

} // namespace hplsim::sim::detail
