// The store's consistency-boundary calls (act.read, act.append): tags on
// commits and appends, reads by type and tag, the append's condition and its
// errors, and a uniqueness guard raced by several writers.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "support/database.hpp"

namespace act::test {
namespace {

class StoreBoundaryTest : public DatabaseTest {
 protected:
  // Every event the query matches, in id order.
  std::vector<Committed> read_all(const EventQuery& query, std::int64_t after = -1) {
    std::vector<Committed> events;
    store_->read(query, after, [&](const Committed& event) { events.push_back(event); });
    return events;
  }
};

TEST_F(StoreBoundaryTest, ReadFindsTaggedEventsByTagAndTypeWithTheirTags) {
  const std::string course = "course:" + stream("c");
  const std::string student = "student:" + stream("st");
  store_->commit(stream("courses"), {Message{"CourseDefined", {{"capacity", 2}}, {}, {course}}});
  const auto enrolled = store_->commit(stream("enrolments"),
                                       {Message{"Enrolled", {}, {}, {course, student}}, Message{"Noted", {}, {}, {}}});

  const std::vector<Committed> by_course = read_all(EventQuery{{QueryItem{{}, {course}}}});
  ASSERT_EQ(by_course.size(), 2u);
  EXPECT_EQ(by_course[0].name, "CourseDefined");
  EXPECT_EQ(by_course[1].tags, (std::vector<std::string>{course, student})) << "tags come back in the order given";
  EXPECT_LT(by_course[0].id, by_course[1].id);

  EXPECT_EQ(read_all(EventQuery{{QueryItem{{"Enrolled"}, {course, student}}}}).size(), 1u) << "every tag of the item";
  EXPECT_EQ(read_all(EventQuery{{QueryItem{{"CourseDefined"}, {student}}}}).size(), 0u) << "type and tag together";
  EXPECT_EQ(read_all(EventQuery{{QueryItem{{}, {course}}}}, by_course[0].id).size(), 1u) << "only after the id";
  EXPECT_EQ(read_all(EventQuery{}).size(), 0u) << "no item matches nothing";
  EXPECT_EQ(enrolled[0].tags, std::vector<std::string>{})
      << "a commit's rows carry no tags (act.commit returns act.events)";
}

TEST_F(StoreBoundaryTest, AppendWritesSeveralStreamsAndFailsWhenAMatchingEventLandedAfterTheRead) {
  const std::string name = "username:" + stream("ann");
  const EventQuery taken{{QueryItem{{"UsernameClaimed"}, {name}}}};
  const std::string first = stream("user-1");
  const std::string second = stream("user-2");

  const auto appended = store_->append({StreamMessage{first, Message{"UsernameClaimed", {}, {}, {name}}},
                                        StreamMessage{stream("audit"), Message{"Audited", {}, {}, {}}}},
                                       AppendCondition{taken, std::nullopt, {}});
  ASSERT_EQ(appended.size(), 2u);
  EXPECT_EQ(appended[0].stream, first);
  EXPECT_EQ(appended[0].tags, std::vector<std::string>{name});
  EXPECT_LT(appended[0].id, appended[1].id) << "ids in array order";

  // A second claim of the same name, decided before the first landed (after = -1 read nothing).
  try {
    store_->append({StreamMessage{second, Message{"UsernameClaimed", {}, {}, {name}}}}, AppendCondition{taken, -1, {}});
    ADD_FAILURE() << "the append passed over a matching event";
  } catch (const AppendConditionError& error) {
    EXPECT_EQ(error.id(), appended[0].id);
    EXPECT_EQ(error.item(), 0);
    EXPECT_EQ(error.after(), std::optional<std::int64_t>(-1));
  }
  EXPECT_EQ(events_in(second), 0) << "nothing written";

  // Decided after reading it: another name is free.
  const std::string other = "username:" + stream("bob");
  const std::int64_t last = read_all(taken).back().id;
  EXPECT_EQ(store_
                ->append({StreamMessage{second, Message{"UsernameClaimed", {}, {}, {other}}}},
                         AppendCondition{EventQuery{{QueryItem{{"UsernameClaimed"}, {other}}}}, last, {}})
                .size(),
            1u);
}

TEST_F(StoreBoundaryTest, AnExpectedVersionOfAStreamOnlyReadIsAConcurrencyError) {
  const std::string read_only = stream("read");
  const std::string written = stream("written");
  store_->commit(read_only, {Message{"Opened", {}, {}}});
  AppendCondition stale;
  stale.expected_versions[read_only] = -1;  // "must not exist": it does
  EXPECT_THROW(store_->append({StreamMessage{written, Message{"Done", {}, {}}}}, stale), ConcurrencyError);
  EXPECT_EQ(events_in(written), 0);
  AppendCondition current;
  current.expected_versions[read_only] = 0;
  EXPECT_EQ(store_->append({StreamMessage{written, Message{"Done", {}, {}}}}, current).size(), 1u);
}

TEST_F(StoreBoundaryTest, BadInputIsAValidationError) {
  EXPECT_THROW(store_->append({StreamMessage{stream(), Message{"Tagged", {}, {}, {""}}}}), ValidationError)
      << "an empty tag";
  EXPECT_THROW(store_->append({StreamMessage{stream(), Message{"Tagged", {}, {}, {"t", "t"}}}}), ValidationError)
      << "a tag twice";
}

TEST_F(StoreBoundaryTest, OfEightWritersRacingForOneNameExactlyOneClaimsIt) {
  const std::string name = "username:" + stream("race");
  const EventQuery taken{{QueryItem{{"UsernameClaimed"}, {name}}}};
  std::atomic<int> claimed{0};
  std::atomic<int> refused{0};
  std::vector<std::string> users;
  for (int w = 0; w < 8; ++w) users.push_back(stream("user"));
  std::vector<std::thread> writers;
  for (int w = 0; w < 8; ++w) {
    writers.emplace_back([&, w] {
      Store store(database().pool());
      std::int64_t last = -1;
      bool free = true;
      store.read(taken, -1, [&](const Committed& event) {
        free = false;
        last = event.id;
      });
      if (!free) return;
      try {
        store.append({StreamMessage{users[static_cast<std::size_t>(w)], Message{"UsernameClaimed", {}, {}, {name}}}},
                     AppendCondition{taken, last, {}});
        ++claimed;
      } catch (const AppendConditionError&) {
        ++refused;
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(claimed.load(), 1);
  EXPECT_EQ(read_all(taken).size(), 1u) << "one claim in the log";
}

}  // namespace
}  // namespace act::test
