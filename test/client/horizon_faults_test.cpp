// Writers that stop half way: a session terminated after act.commit but before
// COMMIT, and one left idle in its transaction. Neither may hold readers back
// once it has ended, and while it lasts act.horizon_holders() must name it.
#include <gtest/gtest.h>

#include <pqxx/connection>
#include <pqxx/nontransaction>
#include <pqxx/transaction>

#include "support/database.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

class HorizonFaultsTest : public DatabaseTest {
 protected:
  bool concurrent() const { return database().sql("SELECT act.mode()") == "concurrent"; }

  // act.commit of one event inside an open transaction; returns its id.
  static std::int64_t commit_one(pqxx::transaction_base& transaction, const std::string& stream) {
    return transaction
        .exec1("SELECT id FROM act.commit(" + transaction.quote(stream) + ", '[{\"name\": \"E\"}]')")[0]
        .as<std::int64_t>();
  }

  std::int64_t horizon() const { return std::stoll(database().sql("SELECT act.horizon()")); }
  bool holds(int pid) const {
    return database().sql("SELECT count(*) FROM act.horizon_holders() WHERE pid = " + std::to_string(pid)) == "1";
  }
  // The ids a reader following the horizon sees among the given ones.
  std::string visible(std::int64_t first, std::int64_t last) const {
    return database().sql("SELECT string_agg(id::text, ',' ORDER BY id) FROM act.query(after => " +
                          std::to_string(first - 1) + ") WHERE id <= " + std::to_string(last));
  }
};

TEST_F(HorizonFaultsTest, ATerminatedWriterDoesNotPinTheHorizon) {
  pqxx::connection writer_connection(database().conninfo());
  const int writer_pid = writer_connection.backendpid();
  pqxx::work writer(writer_connection);
  const std::int64_t stuck = commit_one(writer, stream());
  ASSERT_TRUE(holds(writer_pid));

  std::string later_id;
  if (concurrent()) {
    // A later commit lands; readers must not pass the open one.
    pqxx::connection other_connection(database().conninfo());
    pqxx::work other(other_connection);
    const std::int64_t later = commit_one(other, stream());
    other.commit();
    ASSERT_GT(later, stuck);
    EXPECT_LT(horizon(), stuck);
    EXPECT_EQ(visible(stuck, later), "");
    later_id = std::to_string(later);
  }

  database().sql("SELECT pg_terminate_backend(" + std::to_string(writer_pid) + ")");
  ASSERT_TRUE(eventually([&] { return !holds(writer_pid); }));
  // Everything committed is now readable; the terminated writer's event never is.
  const std::int64_t after = std::stoll(database().sql("SELECT id FROM act.commit('after-" + stream() +
                                                       "', '[{\"name\": \"E\"}]')"));
  EXPECT_GE(horizon(), after);
  EXPECT_EQ(visible(stuck, after), later_id.empty() ? std::to_string(after) : later_id + "," + std::to_string(after));
}

TEST_F(HorizonFaultsTest, AnIdleInTransactionWriterHoldsTheHorizonOnlyUntilItEnds) {
  pqxx::connection writer_connection(database().conninfo());
  const int writer_pid = writer_connection.backendpid();
  pqxx::work writer(writer_connection);
  const std::int64_t open = commit_one(writer, stream());
  // The writer is now idle in its transaction.
  ASSERT_TRUE(holds(writer_pid));
  // Its age is there for operators to see.
  EXPECT_EQ(database().sql("SELECT since <= now() FROM act.horizon_holders() WHERE pid = " +
                           std::to_string(writer_pid)),
            "t");

  std::int64_t later = open;
  if (concurrent()) {
    pqxx::connection other_connection(database().conninfo());
    pqxx::work other(other_connection);
    later = commit_one(other, stream());
    other.commit();
    // A waiter is held below the open id for as long as the writer idles...
    EXPECT_LT(std::stoll(database().sql("SELECT act.wait(" + std::to_string(open - 1) + ", 200)")), open);
    EXPECT_EQ(visible(open, later), "");
  }

  writer.commit();
  // ...and released as soon as it ends.
  EXPECT_FALSE(holds(writer_pid));
  EXPECT_GE(std::stoll(database().sql("SELECT act.wait(" + std::to_string(open - 1) + ", 5000)")), later);
  EXPECT_EQ(visible(open, later), concurrent() ? std::to_string(open) + "," + std::to_string(later)
                                               : std::to_string(open));
}

}  // namespace
}  // namespace act::test
