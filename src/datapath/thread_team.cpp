#include "datapath/thread_team.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <barrier>
#include <exception>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "core/error.h"

namespace rdmabench {

void pin_this_thread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (const int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); rc != 0)
    throw Error(ExitCode::kUsage, "--cpus: cannot run on CPU " + std::to_string(cpu) +
                                      " (pthread_setaffinity_np: " + std::to_string(rc) +
                                      "; is it in this process's cpuset?)");
}

void run_team(uint32_t threads, const std::vector<int>& cpus, const RunAbort& abort,
              const std::function<void(uint32_t)>& body) {
  if (threads == 1) {
    if (!cpus.empty()) pin_this_thread(cpus[0]);
    body(0);
    return;
  }
  std::mutex failure_lock;
  std::exception_ptr first_failure;
  std::barrier start(static_cast<std::ptrdiff_t>(threads));
  auto work = [&](uint32_t t) {
    bool started = false;
    try {
      if (!cpus.empty()) pin_this_thread(cpus[t % cpus.size()]);
      start.arrive_and_wait();
      started = true;
      body(t);
    } catch (...) {
      if (!started) start.arrive_and_drop();
      {
        // The thread that failed first records before it raises the flag; the others fail
        // after (run aborted), when a failure is already recorded.
        const std::lock_guard<std::mutex> hold(failure_lock);
        if (!first_failure) first_failure = std::current_exception();
      }
      abort.raise();
    }
  };
  std::vector<std::thread> team;
  team.reserve(threads);
  for (uint32_t t = 0; t < threads; ++t) team.emplace_back(work, t);
  for (auto& th : team) th.join();
  if (first_failure) std::rethrow_exception(first_failure);
}

}  // namespace rdmabench
