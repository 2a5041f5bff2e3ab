#pragma once
// A fixed crew of threads that start a task together and finish together, so
// "N concurrent actions" means N calls in flight at once, without paying for
// N thread starts inside the timed region.
#include <barrier>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace bench {

class Crew {
 public:
  explicit Crew(int size);
  ~Crew();
  Crew(const Crew&) = delete;
  Crew& operator=(const Crew&) = delete;

  // Runs task(i) on every member i at once and waits for all; rethrows the
  // first exception a member raised.
  void run(std::function<void(int)> task);

 private:
  void member(int index);

  std::function<void(int)> task_;
  bool stopping_ = false;
  std::barrier<> start_;
  std::barrier<> done_;
  std::mutex error_mutex_;
  std::exception_ptr error_;
  std::vector<std::jthread> threads_;
};

}  // namespace bench
