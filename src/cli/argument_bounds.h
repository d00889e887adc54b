// The length of one command-line argument, bounded before any parser sees it. cxxopts matches
// every argument (an option, and a number's digits) with std::regex, which recurses once a
// character: an option of 35,000 characters crashed every command with SIGSEGV under the usual
// 8 MiB stack, one of 4,096 under a 1 MiB stack.
#pragma once

#include <cstddef>
#include <string>

namespace rdmabench {

// The longest argument taken: a path's limit (4096 bytes), less under a stack limit too small
// to match that many characters (stack bytes / 512).
std::size_t longest_argument(std::size_t stack_limit_bytes);
std::size_t longest_argument();  // under this process's RLIMIT_STACK

// Throws Error(kUsage) naming the first of `argv[1..argc)` longer than `longest`.
void check_argument_lengths(int argc, const char* const* argv, std::size_t longest);

}  // namespace rdmabench
