// Small text helpers shared by error messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starnuma {

size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` if it is close enough to be a likely typo, else empty.
std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c" (sorted as given).
std::string join(const std::vector<std::string>& words, std::string_view separator = ", ");

// "0x1f40"
std::string hex(uint64_t value);

// A name usable as a component (sc_module) name: [A-Za-z_][A-Za-z0-9_]* .
bool is_identifier(std::string_view name);

}  // namespace starnuma
