#pragma once
// The units a study's table is printed in, chosen for its largest figure so
// that every row reads with a few digits (a workstation in GF/s, Aurora in EF/s).
namespace hplsim::sim {

struct Unit {
  double scale;
  const char* name;
};

inline Unit rate_unit(double largest_flops_per_s) {
  if (largest_flops_per_s >= 1e18) return {1e18, "EF/s"};
  if (largest_flops_per_s >= 1e15) return {1e15, "PF/s"};
  if (largest_flops_per_s >= 1e12) return {1e12, "TF/s"};
  return {1e9, "GF/s"};
}

inline Unit time_unit(double largest_s) {
  if (largest_s >= 3600.0) return {3600.0, "h"};
  if (largest_s >= 60.0) return {60.0, "min"};
  return {1.0, "s"};
}

} // namespace hplsim::sim
