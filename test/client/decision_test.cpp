// App::decide over a consistency boundary: a course's capacity and a
// student's course limit in one decision, raced by several threads; a
// decision with nothing to append; the builder's checks.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/counter.hpp"
#include "support/database.hpp"

namespace act::test {
namespace {

struct Enrol {
  std::string course;
  std::string student;
};

// What one enrolment depends on: the course's capacity, and every enrolment
// the boundary holds (the course's, the student's), as (course, student).
struct Seats {
  int capacity = 0;
  std::set<std::pair<std::string, std::string>> enrolments;

  int count(const std::string& course, const std::string& student) const {
    int matching = 0;
    for (const auto& [c, s] : enrolments)
      matching += (course.empty() || c == course) && (student.empty() || s == student);
    return matching;
  }
};

constexpr int kStudentLimit = 5;

Decision<Seats, Enrol> enrolment(std::int32_t retries = 20) {
  return decision<Seats, Enrol>("enrol")
      .query([](const Enrol& c) {
        return EventQuery{{QueryItem{{"CourseDefined", "Enrolled"}, {"course:" + c.course}},
                           QueryItem{{"Enrolled"}, {"student:" + c.student}}}};
      })
      .on<nlohmann::json>("CourseDefined", [](Seats& seats, const nlohmann::json& data,
                                              const Committed&) { seats.capacity = data.at("capacity"); })
      .on<nlohmann::json>("Enrolled",
                          [](Seats& seats, const nlohmann::json& data, const Committed&) {
                            seats.enrolments.emplace(data.at("course"), data.at("student"));
                          })
      .decide([](const Seats& seats, const Enrol& c) -> std::vector<StreamMessage> {
        if (seats.count(c.course, c.student) > 0) return {};  // enrolled already: nothing to do
        if (seats.count(c.course, "") >= seats.capacity) throw InvariantError("enrol", c.course, "course is full");
        if (seats.count("", c.student) >= kStudentLimit)
          throw InvariantError("enrol", c.student, "five courses at most");
        return {StreamMessage{"course-" + c.course, Message{"Enrolled",
                                                            {{"course", c.course}, {"student", c.student}},
                                                            {},
                                                            {"course:" + c.course, "student:" + c.student}}}};
      })
      .retries(retries)
      .build();
}

class DecisionTest : public DatabaseTest {
 protected:
  void define(const std::string& course, int capacity) {
    store_->commit("course-" + course, {Message{"CourseDefined", {{"capacity", capacity}}, {}, {"course:" + course}}});
  }
  App app() { return act::app(pool_).with(counter_state()).build(); }
};

TEST_F(DecisionTest, EightStudentsRacingForThreeSeatsLeaveExactlyThreeEnrolled) {
  const std::string course = stream("course");
  define(course, 3);
  App shared = app();
  const Decision<Seats, Enrol> enrol = enrolment();
  std::atomic<int> enrolled{0};
  std::atomic<int> full{0};
  std::atomic<int> retried{0};
  std::vector<std::thread> students;
  for (int s = 0; s < 8; ++s) {
    students.emplace_back([&, s] {
      try {
        const Decided done = shared.decide(enrol, Enrol{course, course + "-student-" + std::to_string(s)});
        if (done.events.size() == 1) ++enrolled;
        if (done.attempts > 1) ++retried;
      } catch (const InvariantError&) {
        ++full;
      }
    });
  }
  for (std::thread& student : students) student.join();
  EXPECT_EQ(enrolled.load(), 3);
  EXPECT_EQ(full.load(), 5);
  std::int64_t in_log = 0;
  store_->read(EventQuery{{QueryItem{{"Enrolled"}, {"course:" + course}}}}, -1, [&](const Committed&) { ++in_log; });
  EXPECT_EQ(in_log, 3) << "no seat sold twice";
  RecordProperty("decisions_retried", retried.load());
}

TEST_F(DecisionTest, AStudentTakesFiveCoursesAtMostAndEnrollingTwiceAppendsNothing) {
  App shared = app();
  const Decision<Seats, Enrol> enrol = enrolment();
  const std::string student = stream("student");
  std::vector<std::string> courses;
  for (int c = 0; c < 6; ++c) {
    courses.push_back(stream("course"));
    define(courses.back(), 10);
  }
  for (int c = 0; c < kStudentLimit; ++c) {
    const Decided done = shared.decide(enrol, Enrol{courses[static_cast<std::size_t>(c)], student});
    ASSERT_EQ(done.events.size(), 1u) << "course " << c;
    EXPECT_EQ(done.events[0].meta.at("causation").at("decision"), "enrol");
    EXPECT_TRUE(done.events[0].meta.contains("correlation"));
  }
  EXPECT_THROW(shared.decide(enrol, Enrol{courses[5], student}), InvariantError) << "a sixth course";
  EXPECT_EQ(events_in("course-" + courses[5]), 1) << "only its definition";

  const Decided again = shared.decide(enrol, Enrol{courses[0], student});
  EXPECT_TRUE(again.events.empty()) << "enrolled already";
  EXPECT_EQ(again.read, 1 + 1 + kStudentLimit - 1)
      << "the course's definition and takers, the student's other enrolments";
  EXPECT_EQ(events_in("course-" + courses[0]), 2);
}

TEST_F(DecisionTest, TheBuilderRefusesADecisionItCannotRun) {
  EXPECT_THROW((decision<Seats, Enrol>("")), std::invalid_argument);
  EXPECT_THROW((decision<Seats, Enrol>("enrol")
                    .decide([](const Seats&, const Enrol&) { return std::vector<StreamMessage>{}; })
                    .build()),
               std::invalid_argument)
      << "no query";
  EXPECT_THROW((decision<Seats, Enrol>("enrol").query([](const Enrol&) { return EventQuery{}; }).build()),
               std::invalid_argument)
      << "no decide";
  const auto nothing = [](Seats&, const nlohmann::json&, const Committed&) {};
  EXPECT_THROW(
      (decision<Seats, Enrol>("enrol").on<nlohmann::json>("Enrolled", nothing).on<nlohmann::json>("Enrolled", nothing)),
      std::invalid_argument)
      << "one event folded twice";
  EXPECT_THROW((decision<Seats, Enrol>("enrol").retries(-1)), std::invalid_argument);
}

}  // namespace
}  // namespace act::test
