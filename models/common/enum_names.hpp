// One name table per enum: its names in the enum's order, which its parameter's choices, its parsing,
// the command line, the sweep files and the results all read. An enum's table is a specialisation of
// names_of<E>() defined beside the enum's other code.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "common/diagnostics.hpp"

namespace starnuma {

template <class E>
const std::vector<std::string>& names_of();

template <class E>
const std::string& name_of(E value) {
  return names_of<E>().at(static_cast<size_t>(value));
}

// The value a name of names_of<E>() stands for (callers have checked the name against the table).
template <class E>
E enum_named(const std::string& name) {
  const std::vector<std::string>& names = names_of<E>();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) report_internal("no value named '" + name + "'");
  return static_cast<E>(it - names.begin());
}

}  // namespace starnuma
