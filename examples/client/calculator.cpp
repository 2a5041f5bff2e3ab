// A pocket calculator per stream: every key press is an event. Background
// workers feed a projection that keeps a paper tape per session in a SQL
// table, a batch of key presses per transaction.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "example_support.hpp"

struct Calculator {
  std::string left;
  std::string right;
  std::string op;
  double result = 0;
};
struct DigitPressed {
  std::string digit;
};
struct OperatorPressed {
  std::string op;
};
struct EqualsPressed {
  double result = 0;
};
struct Press {
  std::string key;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Calculator, left, right, op, result)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DigitPressed, digit)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OperatorPressed, op)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(EqualsPressed, result)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Press, key)

namespace {

double compute(const Calculator& calc) {
  const double left = std::stod(calc.left);
  const double right = std::stod(calc.right);
  double value = 0;
  if (calc.op == "+") value = left + right;
  if (calc.op == "-") value = left - right;
  if (calc.op == "*") value = left * right;
  if (calc.op == "/") value = left / right;
  return std::round(value * 100) / 100;  // two decimals, like the paper tape
}

std::string text_of(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

act::State<Calculator> calculator_state() {
  return act::state<Calculator>("Calculator")
      .patch<DigitPressed>("DigitPressed",
                           [](const DigitPressed& event, Calculator calc) {
                             (calc.op.empty() ? calc.left : calc.right) += event.digit;
                             return calc;
                           })
      .patch<OperatorPressed>("OperatorPressed",
                              [](const OperatorPressed& event, Calculator calc) {
                                if (!calc.right.empty()) {  // 12 + 7 * ...: the running result first
                                  calc.left = text_of(compute(calc));
                                  calc.right.clear();
                                }
                                calc.op = event.op;
                                return calc;
                              })
      .patch<EqualsPressed>("EqualsPressed",
                            [](const EqualsPressed& event, Calculator) {
                              return Calculator{text_of(event.result), "", "", event.result};
                            })
      .on<Press>("press")
      .validate("key", [](const Press& press) { return press.key.size() == 1 && std::string("0123456789.+-*/=").find(press.key) != std::string::npos; },
                "must be a digit, a point, an operator or =")
      .emit([](const Press& press, const Calculator& calc) {
        if (press.key == "=") {
          if (calc.op.empty() || calc.right.empty()) throw act::InvariantError("press", "", "= needs an operation");
          return act::events(EqualsPressed{compute(calc)});
        }
        if (press.key == ".") {
          const std::string& operand = calc.op.empty() ? calc.left : calc.right;
          if (operand.find('.') != std::string::npos) throw act::InvariantError("press", "", "a number has one point");
          return act::events(DigitPressed{press.key});
        }
        if (std::isdigit(static_cast<unsigned char>(press.key[0]))) return act::events(DigitPressed{press.key});
        if (calc.left.empty()) throw act::InvariantError("press", "", "an operator needs a number first");
        return act::events(OperatorPressed{press.key});
      })
      .build();
}

// The paper tape: the keys of each session and its last result. The batch
// handler writes a whole cycle's key presses in the transaction that
// acknowledges them.
act::Projection tape() {
  const auto press = [](act::Sql& sql, const act::Committed& event, const std::string& key) {
    sql.exec("INSERT INTO calculator_tape AS t (session, keys) VALUES ($1, $2) "
             "ON CONFLICT (session) DO UPDATE SET keys = t.keys || excluded.keys",
             {event.stream, key});
  };
  return act::projection("calculator-tape")
      .source("^calc-")
      .setup([](act::Sql& sql) {
        sql.exec("CREATE TABLE IF NOT EXISTS calculator_tape (session text PRIMARY KEY, keys text NOT NULL, result numeric)");
      })
      .truncate([](act::Sql& sql) { sql.exec("TRUNCATE calculator_tape"); })
      .on("DigitPressed")
      .on("OperatorPressed")
      .on("EqualsPressed")
      .batch([press](const std::vector<act::Committed>& events, act::Sql& sql) {
        for (const act::Committed& event : events) {
          if (event.name == "DigitPressed") press(sql, event, event.data.at("digit"));
          if (event.name == "OperatorPressed") press(sql, event, event.data.at("op"));
          if (event.name == "EqualsPressed") {
            press(sql, event, "=");
            sql.exec("UPDATE calculator_tape SET result = $2 WHERE session = $1", {event.stream, event.data.at("result").dump()});
          }
        }
      })
      .build();
}

}  // namespace

int main(int argc, char** argv) try {
  const auto calculator = calculator_state();
  auto app = act::app(example::connect(argc, argv)).with(calculator).with(tape()).build();
  app.start();  // workers: woken by each commit, they feed the tape in the background

  const std::string run = example::run_suffix();
  const act::Actor ann{"u-1", "Ann"};
  const std::vector<std::pair<std::string, std::string>> sessions = {{"calc-" + run + "-a", "12+7*3="},
                                                                     {"calc-" + run + "-b", "9/4="},
                                                                     {"calc-" + run + "-c", "1.5.5*4="}};
  for (const auto& [session, keys] : sessions) {
    std::cout << "== " << session << ": ";
    for (const char key : keys) {
      try {
        const auto result = app.do_action("press", {session, ann, {}}, Press{std::string(1, key)});
        if (key == '=') std::cout << keys.substr(0, keys.size() - 1) << " = " << result.state_as<Calculator>().result;
      } catch (const act::Error& refused) {
        std::cout << "[" << key << " refused: " << refused.what() << "] ";
      }
    }
    std::cout << "\n";
  }

  // The projection catches up on its own; wait until the tape shows every session.
  std::vector<act::SqlRow> rows;
  for (int waited = 0; rows.size() < sessions.size() && waited < 1000; ++waited) {
    app.transact([&](act::Sql& sql) {
      rows = sql.exec("SELECT session, keys, result::float8::text FROM calculator_tape WHERE session LIKE $1 AND result IS NOT NULL "
                      "ORDER BY session",
                      {"calc-" + run + "-%"});
    });
    if (rows.size() < sessions.size()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  app.shutdown();
  std::cout << "\n== the paper tape (table calculator_tape, kept by the projection)\n";
  for (const act::SqlRow& row : rows)
    std::cout << "  " << std::left << std::setw(24) << row.text(0) << std::setw(10) << row.text(1) << row.text(2) << "\n";
  return rows.size() == sessions.size() ? 0 : 1;
} catch (const std::exception& error) {
  std::cerr << "calculator: " << error.what() << "\n";
  return 1;
}
