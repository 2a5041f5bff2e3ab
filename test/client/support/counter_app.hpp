#pragma once
// A fixture with the counter state and an app over the suite's database.
#include <memory>

#include "support/counter.hpp"
#include "support/database.hpp"

namespace act::test {

inline const Actor kAnn{"u-1", "Ann"};

class CounterAppTest : public DatabaseTest {
 protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    app_ = std::make_unique<App>(app(pool_).with(counter_).build());
  }

  State<Counter> counter_ = counter_state();
  std::unique_ptr<App> app_;
};

}  // namespace act::test
