#pragma once
namespace rdmabench {
int run_serve_command(int argc, char** argv);
}
