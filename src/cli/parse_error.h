// cxxopts' parse errors name the value, not the option ("Argument ‘-5’ failed to parse"), in
// curly quotes: this names the option the value went with, in plain quotes.
#pragma once

#include <string>

namespace rdmabench {

// `message` from a cxxopts exception, given the command's own argv (argv[0] is the command).
std::string explain_parse_error(std::string message, int argc, char** argv);

}  // namespace rdmabench
