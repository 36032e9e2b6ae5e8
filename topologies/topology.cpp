#include "topologies/topology.hpp"

namespace hplsim::topo {

const char* to_string(LinkKind kind) {
  switch (kind) {
  case LinkKind::Nic:
    return "nic";
  case LinkKind::Local:
    return "local";
  case LinkKind::Global:
    return "global";
  case LinkKind::Leaf:
    return "leaf";
  case LinkKind::Spine:
    return "spine";
  }
  return "?";
}

} // namespace hplsim::topo
