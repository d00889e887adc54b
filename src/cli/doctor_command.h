// `rdmabench doctor`: a pre-flight check of this host before trusting a figure.
#pragma once

namespace rdmabench {

int run_doctor_command(int argc, char** argv);

}  // namespace rdmabench
