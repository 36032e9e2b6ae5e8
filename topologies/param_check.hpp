#pragma once
// Checks for topology parameter structs: each throws std::invalid_argument
// with a message naming the field and the expected vs actual value, e.g.
// "dragonfly.groups must be >= 1, got 0".
#include <cstdint>
#include <string>

namespace hplsim::topo {

void require_at_least(const std::string& field, std::int64_t value, std::int64_t minimum);
void require_at_most(const std::string& field, std::int64_t value, std::int64_t maximum,
                     const std::string& why);
/// value must be finite and > 0 (bandwidths).
void require_positive(const std::string& field, double value);
/// value must be finite and >= 0 (latencies).
void require_non_negative(const std::string& field, double value);

} // namespace hplsim::topo
