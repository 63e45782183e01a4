// Result files are written whole or not at all: to a temporary file beside the target, then
// renamed over it, so an interrupted or failed run never leaves half a file behind.
#pragma once

#include <string>

namespace starnuma {

// Creates the directory if needed; raises a starnuma/input error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace starnuma
