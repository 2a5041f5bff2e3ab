// act::LogTransaction: the Merkle log's tables and proofs read as of one
// snapshot, and checkpoints signed in a transaction that keeps nothing
// unless committed.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "support/database.hpp"

namespace act::test {
namespace {

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

class LogTransactionTest : public DatabaseTest {
 protected:
  LogStore log() { return LogStore(pool_); }
  std::vector<std::int64_t> commit_events(const std::string& name, int count) {
    std::vector<Message> events;
    for (int i = 0; i < count; ++i) events.push_back({"Ticked", {{"n", i}}, std::nullopt});
    std::vector<std::int64_t> ids;
    for (const Committed& event : store_->commit(name, events)) ids.push_back(event.id);
    return ids;
  }
  std::int64_t sealed_size() { return std::stoll(database().sql("SELECT size FROM act.log_size()")); }
  void seal() { database().sql("SELECT act.checkpoint()"); }
};

TEST_F(LogTransactionTest, ASnapshotReadsAsOfItsFirstRead) {
  commit_events(stream("before"), 2);
  seal();
  LogTransaction snapshot = log().snapshot();
  const std::int64_t size = snapshot.log_size();
  const std::vector<std::int64_t> later = commit_events(stream("after"), 3);
  seal();
  ASSERT_EQ(sealed_size(), size + 3) << "the log grew outside the snapshot";
  EXPECT_EQ(snapshot.log_size(), size) << "the snapshot still sees the tree of its first read";
  EXPECT_FALSE(snapshot.event(later.front()).has_value()) << "an event committed after the first read";
  EXPECT_EQ(log().snapshot().log_size(), size + 3) << "a new snapshot sees the new entries";
}

TEST_F(LogTransactionTest, EntriesEventsProofsAndTilesDescribeOneTree) {
  const std::string name = stream("tree");
  const std::vector<std::int64_t> ids = commit_events(name, 4);
  seal();
  LogTransaction snapshot = log().snapshot();
  const std::int64_t size = snapshot.log_size();
  const std::vector<LogEntry> tail = snapshot.entries(size - 4, size);
  ASSERT_EQ(tail.size(), 4u);
  for (std::size_t i = 0; i < tail.size(); ++i) {
    EXPECT_EQ(tail[i].position, size - 4 + static_cast<std::int64_t>(i));
    EXPECT_EQ(tail[i].id, ids[i]);
    const std::optional<ChainedEvent> event = snapshot.event(ids[i]);
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->event.stream, name);
    EXPECT_EQ(event->event.version, static_cast<std::int32_t>(i));
    EXPECT_FALSE(event->event.pii.has_value()) << "the hash does not cover pii";
    EXPECT_EQ(event->hash, tail[i].hash) << "an entry is its event's stored hash";
    ASSERT_TRUE(tail[i].hash.has_value());
    EXPECT_EQ(tail[i].hash->size(), 64u) << "hex of 32 bytes";
  }
  const std::vector<ChainedEvent> chain = snapshot.stream_events(name, 0, 3, 10);
  ASSERT_EQ(chain.size(), 3u) << "versions above 0 up to 3";
  EXPECT_EQ(chain.front().event.version, 1);
  EXPECT_EQ(snapshot.events_between(ids[0], ids[3], 2).size(), 2u) << "the limit holds";

  const InclusionProof proof = snapshot.inclusion_proof(ids[3], size);
  EXPECT_EQ(proof.leaf_index, size - 1);
  EXPECT_EQ(proof.tree_size, size);
  const std::vector<StoredCheckpoint> newest = snapshot.checkpoints_below(kNoLimit, 1);
  ASSERT_EQ(newest.size(), 1u);
  EXPECT_EQ(newest[0].size, size);
  EXPECT_EQ(proof.root, newest[0].root) << "the proof leads to the checkpoint's root";
  if (size > 1) {
    EXPECT_FALSE(proof.path.empty());
  }

  // The level-0 tile holding the last entries: 32 bytes a leaf hash, its bundle 32 bytes an entry.
  const std::int64_t tile = (size - 1) / 256;
  const std::int64_t width = size - tile * 256;
  const auto tiles = snapshot.hash_tiles(0, {tile, tile + 1000});
  ASSERT_EQ(tiles.size(), 1u) << "a missing index has no key";
  EXPECT_EQ(tiles.at(tile).size(), static_cast<std::size_t>(32 * width));
  const auto bundles = snapshot.entry_bundles({tile});
  ASSERT_EQ(bundles.size(), 1u);
  EXPECT_EQ(bundles.at(tile).size(), static_cast<std::size_t>(32 * width));
}

TEST_F(LogTransactionTest, EntriesTellWhetherTheirEventIsPresent) {
  const std::string name = stream("gone");
  const std::vector<std::int64_t> ids = commit_events(name, 2);
  seal();
  const std::int64_t size = sealed_size();
  TruncateTarget target;
  target.stream = name;
  store_->truncate({target});
  LogTransaction snapshot = log().snapshot();
  const std::vector<LogEntryPresence> entries = snapshot.entries_with_presence(size - 2, size);
  ASSERT_EQ(entries.size(), 2u);
  for (const LogEntryPresence& entry : entries) EXPECT_FALSE(entry.event_present) << *entry.entry.id;
  bool listed = false;
  for (const RemovalRun& run : snapshot.removal_runs())
    if (run.begin && run.end && *run.begin <= size - 2 && size <= *run.end) listed = true;
  EXPECT_TRUE(listed) << "a removal record lists the truncated entries";
}

TEST_F(LogTransactionTest, AWriteKeepsNothingUnlessCommitted) {
  commit_events(stream("unsigned"), 1);
  std::int64_t size = 0;
  {
    LogTransaction write = log().transaction();
    const std::string body = write.checkpoint(false);
    size = write.log_size();
    // A C2SP checkpoint: origin, size, root, each on its line.
    EXPECT_NE(body.find("\n" + std::to_string(size) + "\n"), std::string::npos) << body;
    EXPECT_TRUE(write.checkpoint_note(size).has_value()) << "stored inside the transaction";
  }
  EXPECT_EQ(database().sql("SELECT count(*) FROM act.checkpoints WHERE size = " + std::to_string(size)), "0")
      << "rolled back: not stored";
  LogTransaction write = log().transaction();
  write.checkpoint(false);
  const std::int64_t kept = write.log_size();
  write.commit();
  EXPECT_EQ(database().sql("SELECT count(*) FROM act.checkpoints WHERE size = " + std::to_string(kept)), "1");
}

TEST_F(LogTransactionTest, ASnapshotRefusesToWrite) {
  LogTransaction snapshot = log().snapshot();
  EXPECT_THROW(snapshot.checkpoint(false), std::logic_error);
  EXPECT_THROW(snapshot.add_checkpoint_signature("x"), std::logic_error);
}

}  // namespace
}  // namespace act::test
