#pragma once
namespace rdmabench {
int run_study_command(int argc, char** argv);
}
