#pragma once
namespace rdmabench {
int run_run_command(int argc, char** argv);
}
