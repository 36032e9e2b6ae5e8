#include "topologies/param_check.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace hplsim::topo {

void require_at_least(const std::string& field, std::int64_t value, std::int64_t minimum) {
  if (value < minimum)
    throw std::invalid_argument(field + " must be >= " + std::to_string(minimum) + ", got " +
                                std::to_string(value));
}

void require_at_most(const std::string& field, std::int64_t value, std::int64_t maximum,
                     const std::string& why) {
  if (value > maximum)
    throw std::invalid_argument(field + " must be <= " + std::to_string(maximum) + " (" + why + "), got " +
                                std::to_string(value));
}

namespace {

std::string number(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

} // namespace

void require_positive(const std::string& field, double value) {
  if (!std::isfinite(value) || value <= 0.0)
    throw std::invalid_argument(field + " must be > 0 and finite, got " + number(value));
}

void require_non_negative(const std::string& field, double value) {
  if (!std::isfinite(value) || value < 0.0)
    throw std::invalid_argument(field + " must be >= 0 and finite, got " + number(value));
}

} // namespace hplsim::topo
