// `rdmabench search HOST`: a hunt for performance anomalies over the registered space against
// a running `rdmabench serve` (src/search/ is the engine; docs/guide.md says how to read it).
#pragma once

namespace rdmabench {

int run_search_command(int argc, char** argv);

}  // namespace rdmabench
