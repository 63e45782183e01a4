// Suffix-array construction for the FM-index of `fmi`: SA-IS (Nong, Zhang and Chan, 2009), linear
// time, with the work space inside the output array, so a text of N symbols needs N x 4 bytes of
// suffix array, the text and N bits of suffix types.
#pragma once

#include <cstdint>
#include <vector>

namespace starnuma::genomics {

// The suffix array of `text`, whose symbols are < `alphabet` and whose last symbol is 0, the
// smallest and found nowhere else (the sentinel '$'). The text must be shorter than 2^32 - 1.
std::vector<uint32_t> suffix_array(const std::vector<uint8_t>& text, unsigned alphabet);

}  // namespace starnuma::genomics
