#include "crew.hpp"

#include <utility>

namespace bench {

Crew::Crew(int size) : start_(size + 1), done_(size + 1) {
  threads_.reserve(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) threads_.emplace_back([this, i] { member(i); });
}

Crew::~Crew() {
  stopping_ = true;
  start_.arrive_and_wait();  // the barrier publishes stopping_ to the members
}

void Crew::run(std::function<void(int)> task) {
  task_ = std::move(task);
  error_ = nullptr;
  start_.arrive_and_wait();
  done_.arrive_and_wait();
  if (error_) std::rethrow_exception(error_);
}

void Crew::member(int index) {
  for (;;) {
    start_.arrive_and_wait();
    if (stopping_) return;
    try {
      task_(index);
    } catch (...) {
      const std::lock_guard lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
    }
    done_.arrive_and_wait();
  }
}

}  // namespace bench
