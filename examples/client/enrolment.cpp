// Course enrolment with one consistency boundary per decision (docs/dcb.md):
// a course has a capacity, a student takes five courses at most, and both
// rules hold in one decision, with no aggregate that owns both and no
// reservation stream. Eight students race for three seats; exactly three win.
#include <atomic>
#include <iostream>
#include <thread>
#include <vector>

#include "example_support.hpp"

struct CourseDefined {
  int capacity = 0;
};
struct StudentEnrolled {
  std::string course;
  std::string student;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CourseDefined, capacity)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StudentEnrolled, course, student)

struct Enrol {
  std::string course;
  std::string student;
};

// The decision's view, made from the command: the course's capacity and
// seats taken, the student's courses.
struct Enrolment {
  std::string course;
  std::string student;
  int capacity = 0;
  int seats_taken = 0;
  int courses_taken = 0;
};

int main(int argc, char** argv) try {
  auto app = act::app(example::connect(argc, argv, 8)).build();
  const std::string course = "algebra-" + example::run_suffix();
  app.store().commit("course-" + course, {act::Message{"CourseDefined", CourseDefined{3}, {}, {"course:" + course}}});

  // Enrol is decided per command: the boundary names the course and the student.
  const auto enrol =
      act::decision<Enrolment, Enrol>("enrol")
          .query([](const Enrol& command) {
            return act::EventQuery{{{{"CourseDefined", "StudentEnrolled"}, {"course:" + command.course}},
                                    {{"StudentEnrolled"}, {"student:" + command.student}}}};
          })
          .initial([](const Enrol& command) {
            return Enrolment{command.course, command.student};
          })
          .on<CourseDefined>("CourseDefined", [](Enrolment& view, const CourseDefined& defined,
                                                 const act::Committed&) { view.capacity = defined.capacity; })
          // An event matching both items is read once, and counts for both.
          .on<StudentEnrolled>("StudentEnrolled",
                               [](Enrolment& view, const StudentEnrolled& seat, const act::Committed&) {
                                 view.seats_taken += seat.course == view.course;
                                 view.courses_taken += seat.student == view.student;
                               })
          .decide([](const Enrolment& view, const Enrol& command) -> std::vector<act::StreamMessage> {
            if (view.seats_taken >= view.capacity)
              throw act::InvariantError("enrol", command.course, "the course is full");
            if (view.courses_taken >= 5) throw act::InvariantError("enrol", command.student, "five courses at most");
            return {
                {"course-" + command.course, act::Message{"StudentEnrolled",
                                                          StudentEnrolled{command.course, command.student},
                                                          {},
                                                          {"course:" + command.course, "student:" + command.student}}}};
          })
          .retries(10)
          .build();

  std::atomic<int> won{0};
  std::vector<std::jthread> students;
  for (int s = 1; s <= 8; ++s) {
    students.emplace_back([&, s] {
      const std::string student = "student-" + std::to_string(s) + "-" + course;
      try {
        const act::Decided done = app.decide(enrol, Enrol{course, student});
        ++won;
        std::cout << "student " << s << " enrolled (after " << done.attempts << " attempt"
                  << (done.attempts == 1 ? "" : "s") << ")\n";
      } catch (const act::InvariantError& refused) {
        std::cout << "student " << s << " refused: " << refused.rule() << "\n";
      }
    });
  }
  students.clear();  // joins them
  std::cout << won << " of 8 students enrolled in a course of 3 seats\n";
  return won == 3 ? 0 : 1;
} catch (const std::exception& error) {
  std::cerr << "enrolment: " << error.what() << "\n";
  return 1;
}
