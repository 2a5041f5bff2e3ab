// Database errors become act errors with their fields filled in.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "db/error_mapping.hpp"
#include "support/database.hpp"

namespace act::test {
namespace {

template <class E>
E thrown_by(const auto& call) {
  try {
    call();
  } catch (const E& error) {
    return error;
  } catch (const std::exception& other) {
    ADD_FAILURE() << "expected " << typeid(E).name() << ", got " << typeid(other).name() << ": " << other.what();
    throw;
  }
  ADD_FAILURE() << "expected " << typeid(E).name() << ", nothing was thrown";
  throw std::logic_error("no error");
}

TEST(ErrorMessages, PrimaryMessageDropsSeverityAndContext) {
  EXPECT_EQ(db::primary_message("ERROR:  timeout_ms must be 0 or more, not -5\n"
                                "CONTEXT:  PL/pgSQL function act.wait(bigint,integer) line 10 at RAISE\n"),
            "timeout_ms must be 0 or more, not -5");
  EXPECT_EQ(db::primary_message("FATAL:  terminating connection\nHINT:  retry\n"), "terminating connection");
  EXPECT_EQ(db::primary_message("no prefix"), "no prefix");
}

TEST(ErrorMessages, ParsesConflicts) {
  const auto pinned = db::parse_conflict(R"(concurrency conflict on stream "order-1": expected version 1, actual version 2)");
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->stream, "order-1");
  EXPECT_EQ(pinned->expected_version, 1);
  EXPECT_EQ(pinned->actual_version, 2);

  const auto any = db::parse_conflict(R"(concurrency conflict on stream "a": expected version any, actual version 7)");
  ASSERT_TRUE(any);
  EXPECT_FALSE(any->expected_version.has_value());
  EXPECT_EQ(any->actual_version, 7);

  // A name holding quotes and the markers themselves still parses.
  const auto tricky = db::parse_conflict(
      R"(concurrency conflict on stream "x": expected version 1, actual version 2"": expected version -1, actual version 0)");
  ASSERT_TRUE(tricky);
  EXPECT_EQ(tricky->stream, R"(x": expected version 1, actual version 2")");
  EXPECT_EQ(tricky->expected_version, -1);

  EXPECT_FALSE(db::parse_conflict("could not serialize access due to concurrent update"));
  EXPECT_FALSE(db::parse_conflict(R"(concurrency conflict on stream "a": expected version x, actual version 1)"));
}

TEST(ErrorMessages, ConflictsAreReadFromTheStructuredDetail) {
  // The detail wins: the message's English is not parsed (here it disagrees).
  const auto conflict = db::conflict_from_detail(
      "ERROR:  concurrency conflict on stream \"x\": expected version 9, actual version 9\n"
      "DETAIL:  {\"stream\":\"a\\\": expected version 1\",\"expected\":3,\"actual\":5}\n");
  ASSERT_TRUE(conflict);
  EXPECT_EQ(conflict->stream, "a\": expected version 1");
  EXPECT_EQ(conflict->expected_version, 3);
  EXPECT_EQ(conflict->actual_version, 5);
  const auto any = db::conflict_from_detail("ERROR:  x\nDETAIL:  {\"stream\":\"s\",\"expected\":null,\"actual\":0}");
  ASSERT_TRUE(any);
  EXPECT_FALSE(any->expected_version);
  EXPECT_FALSE(db::conflict_from_detail("ERROR:  x\nDETAIL:  not json\n"));
  EXPECT_FALSE(db::conflict_from_detail("ERROR:  x\n"));
}

TEST(ErrorMessages, CutNamesAreTakenFromTheCall) {
  const std::string cut = R"(concurrency conflict on stream "aaaa..." (300 bytes): expected version 0, actual version 1)";
  const auto conflict = db::parse_conflict(cut, std::string(300, 'a'));
  ASSERT_TRUE(conflict);
  EXPECT_EQ(conflict->stream, std::string(300, 'a'));
  EXPECT_EQ(db::parse_closed_stream(R"(stream "bb..." (500 bytes) is closed)", "full"), "full");
  EXPECT_EQ(db::parse_closed_stream(R"(stream "b c" is closed)"), "b c");
}

TEST(ErrorMessages, MapsEachClass) {
  const auto conflict = thrown_by<ConcurrencyError>([] {
    db::throw_mapped({"act.commit", "40001",
                      "ERROR:  concurrency conflict on stream \"s\": expected version 3, actual version 5\n", "s"});
  });
  EXPECT_EQ(conflict.stream(), "s");
  EXPECT_EQ(conflict.expected_version(), 3);
  EXPECT_EQ(conflict.actual_version(), 5);

  const auto invalid = thrown_by<ValidationError>([] { db::throw_mapped({"act.query", "2201B", "ERROR:  bad regex\n", ""}); });
  EXPECT_STREQ(invalid.what(), "bad regex");
  EXPECT_EQ(invalid.sqlstate(), "2201B");
  EXPECT_EQ(invalid.target(), "act.query");

  const auto closed = thrown_by<StreamClosedError>(
      [] { db::throw_mapped({"act.commit", "55000", "ERROR:  stream \"t\" is closed\n", "t"}); });
  EXPECT_EQ(closed.stream(), "t");

  // 40001 without the commit message is a plain serialization failure.
  const auto other = thrown_by<StoreError>(
      [] { db::throw_mapped({"act.commit", "40001", "ERROR:  could not serialize access\n", ""}); });
  EXPECT_EQ(other.sqlstate(), "40001");
  EXPECT_EQ(other.operation(), "act.commit");
  EXPECT_STREQ(other.what(), "act.commit: could not serialize access");
}

TEST(ErrorMessages, SaysWhatToDoWithoutTheExtension) {
  const auto missing = thrown_by<StoreError>(
      [] { db::throw_mapped({"act.version", "3F000", "ERROR:  schema \"act\" does not exist\n", ""}); });
  EXPECT_STREQ(missing.what(),
               "act.version: schema \"act\" does not exist (pg_act is not installed in this database: "
               "run CREATE EXTENSION pg_act)");
  const auto older = thrown_by<StoreError>([] {
    db::throw_mapped({"act.claim", "42883", "ERROR:  function act.claim(integer) does not exist\n", ""});
  });
  EXPECT_NE(std::string(older.what()).find("ALTER EXTENSION pg_act UPDATE"), std::string::npos);
  EXPECT_EQ(db::setup_hint("3F000", R"(schema "shop" does not exist)"), "") << "only our schema";
  EXPECT_EQ(db::setup_hint("42883", "function shop.f() does not exist"), "") << "only our functions";
}

class ErrorMappingTest : public DatabaseTest {};

// Against a real database without the extension: the client's hint, and the
// server's own HINT when pg_act is preloaded (its error hook adds it).
TEST_F(ErrorMappingTest, ACallBeforeCreateExtensionSaysWhatToDo) {
  const std::string bare = database().name() + "_bare";
  database().sql("DROP DATABASE IF EXISTS " + bare);
  database().sql("CREATE DATABASE " + bare);
  const std::string conninfo = database().conninfo() + " dbname=" + bare;
  {
    auto app_store = Store(std::make_shared<ConnectionPool>(conninfo));
    const auto error = thrown_by<StoreError>([&] { app_store.version("s"); });
    EXPECT_NE(std::string(error.what()).find("run CREATE EXTENSION pg_act)"), std::string::npos) << error.what();
    EXPECT_EQ(error.sqlstate(), "3F000");
  }
  {
    pqxx::connection connection(conninfo);
    pqxx::nontransaction work(connection);
    const bool preloaded = work.exec1("SHOW shared_preload_libraries")[0].as<std::string>().find("pg_act") !=
                           std::string::npos;
    std::string server_text;
    try {
      work.exec("SELECT act.version('s')");
    } catch (const pqxx::sql_error& error) {
      server_text = error.what();
    }
    EXPECT_NE(server_text.find("does not exist"), std::string::npos);
    EXPECT_EQ(server_text.find("HINT:  pg_act is not installed in this database") != std::string::npos, preloaded)
        << server_text;
  }
  database().sql("DROP DATABASE " + bare);
}

TEST_F(ErrorMappingTest, StaleExpectedVersionIsAConcurrencyError) {
  const std::string s = stream();
  store_->commit(s, {{"Opened", {{"n", 1}}, {}}, {"Noted", {}, {}}});
  const auto error = thrown_by<ConcurrencyError>([&] { store_->commit(s, {{"Late", {}, {}}}, {}, 0); });
  EXPECT_EQ(error.stream(), s);
  EXPECT_EQ(error.expected_version(), 0);
  EXPECT_EQ(error.actual_version(), 1);
  EXPECT_EQ(store_->version(s), 1) << "nothing was written";
}

TEST_F(ErrorMappingTest, LongStreamNamesSurviveTheCutInTheMessage) {
  const std::string s = stream(std::string(400, 'n'));
  store_->commit(s, {{"Opened", {}, {}}});
  const auto error = thrown_by<ConcurrencyError>([&] { store_->commit(s, {{"Late", {}, {}}}, {}, -1); });
  EXPECT_EQ(error.stream(), s);
  EXPECT_EQ(error.expected_version(), -1);
  EXPECT_EQ(error.actual_version(), 0);
}

TEST_F(ErrorMappingTest, BadInputIsAValidationErrorWithTheServersMessage) {
  const std::string s = stream();
  const auto error = thrown_by<ValidationError>([&] { store_->commit(s, {{"", {}, {}}}); });
  EXPECT_EQ(std::string(error.what()), "event 0 of stream \"" + s + "\": \"name\" must not be empty");
  EXPECT_EQ(error.sqlstate(), "22023");
  EXPECT_EQ(error.target(), "act.commit");
  EXPECT_EQ(store_->version(s), -1);

  const auto regex = thrown_by<ValidationError>([&] {
    Query query;
    query.stream = "([unclosed";
    query.stream_exact = false;
    store_->query(query, [](const Committed&) {});
  });
  EXPECT_EQ(regex.sqlstate(), "2201B");
  EXPECT_EQ(regex.target(), "act.query");
}

TEST_F(ErrorMappingTest, CommitToAClosedStreamIsAStreamClosedError) {
  const std::string s = stream();
  store_->commit(s, {{"Opened", {}, {}}});
  store_->truncate({TruncateTarget{s, {}, {}, {}, {}}});
  const auto error = thrown_by<StreamClosedError>([&] { store_->commit(s, {{"Reopened", {}, {}}}); });
  EXPECT_EQ(error.stream(), s);
  EXPECT_STREQ(error.what(), ("stream \"" + s + "\" is closed").c_str());
}

TEST_F(ErrorMappingTest, AMissingGrantIsAStoreError) {
  const std::string role = database().name() + "_nobody";
  database().sql("DROP ROLE IF EXISTS " + role);
  database().sql("CREATE ROLE " + role + " LOGIN");
  {
    Store stranger(std::make_shared<ConnectionPool>(database().conninfo() + " user=" + role));
    const auto error = thrown_by<StoreError>([&] { stranger.commit(stream(), {{"Opened", {}, {}}}); });
    EXPECT_EQ(error.sqlstate(), "42501");
    EXPECT_EQ(error.operation(), "act.commit");
    EXPECT_NE(std::string(error.what()).find("permission denied"), std::string::npos) << error.what();
  }
  database().sql("DROP ROLE " + role);
}

TEST_F(ErrorMappingTest, AnUnreachableDatabaseIsAStoreError) {
  Store nowhere(std::make_shared<ConnectionPool>("dbname=" + database().name() + "_does_not_exist"));
  const auto error = thrown_by<StoreError>([&] { nowhere.version("s"); });
  EXPECT_EQ(error.operation(), "connect");
  EXPECT_NE(std::string(error.what()).find("does not exist"), std::string::npos) << error.what();
  EXPECT_EQ(nowhere.pool().stats().leased, 0u) << "a failed connect gives its slot back";
}

}  // namespace
}  // namespace act::test
