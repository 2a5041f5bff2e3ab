// Correlate: a resolver (or upcaster) that throws stops the scan at its
// event; what came before it is routed, nothing after it is skipped.
#include <gtest/gtest.h>

#include <stdexcept>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

class CorrelateTest : public DatabaseTest {
 protected:
  State<Counter> counter_ = counter_state();
  Recorder recorder_;
};

TEST_F(CorrelateTest, AResolverThatThrowsStopsTheScanAtItsEvent) {
  bool broken = true;
  App app = act::app(pool_)
                .with(counter_)
                .on<Incremented>("Incremented")
                .to([&](const Committed& event) -> std::optional<Route> {
                  if (broken && event.data.at("by") == 13) throw std::runtime_error("cannot route 13");
                  return Route{"to-" + event.stream, event.stream};
                })
                .handle("record", [&](const Incremented&, ReactionContext& context) {
                  recorder_.record(context.target(), context.event());
                })
                .build();
  const std::string before = stream();
  const std::string poison = stream();
  const std::string after = stream();
  const ActionResult routed = app.do_action("increment", {before, kAnn, {}}, Increment{1});
  const ActionResult stuck = app.do_action("increment", {poison, kAnn, {}}, Increment{13});
  const ActionResult waiting = app.do_action("increment", {after, kAnn, {}}, Increment{2});

  EXPECT_THROW(app.correlate(), std::runtime_error);
  EXPECT_EQ(subscription("to-" + before).correlated_at, routed.id) << "routed before the failure";
  EXPECT_TRUE(store_->query_streams(StreamFilter::exactly("to-" + after)).empty()) << "nothing past it";
  EXPECT_THROW(app.correlate(), std::runtime_error) << "met again: the event is not skipped";

  broken = false;  // the code is fixed
  app.settle();
  EXPECT_EQ(recorder_.ids("to-" + before), std::vector<std::int64_t>{routed.id});
  EXPECT_EQ(recorder_.ids("to-" + poison), std::vector<std::int64_t>{stuck.id});
  EXPECT_EQ(recorder_.ids("to-" + after), std::vector<std::int64_t>{waiting.id});
}

}  // namespace
}  // namespace act::test
