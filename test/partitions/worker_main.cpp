// build/partition_worker TABLE PREFIX PARTITIONS: the workers of
// tallied_apps (support/tallies.hpp) on the partition databases of
// ACT_PARTITIONS (connect strings separated by ';') and the read model of
// ACT_READ_MODEL, started, until the process is killed: the killed-worker
// test SIGKILLs it in the middle of its pages and batches. Exits by itself
// after a minute so that none outlives a failed test.
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/tallies.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: partition_worker TABLE PREFIX PARTITIONS\n";
    return 2;
  }
  const char* partitions = std::getenv("ACT_PARTITIONS");
  const char* read_model = std::getenv("ACT_READ_MODEL");
  if (partitions == nullptr || read_model == nullptr) {
    std::cerr << "partition_worker: ACT_PARTITIONS and ACT_READ_MODEL must be set\n";
    return 2;
  }
  try {
    std::vector<std::string> conninfos;
    std::stringstream in(partitions);
    for (std::string conninfo; std::getline(in, conninfo, ';');) {
      if (!conninfo.empty()) conninfos.push_back(conninfo);
    }
    act::test::TallyOptions options{argv[1], argv[2], std::stoi(argv[3])};
    options.per_event = std::chrono::microseconds(300);
    options.lane = argv[1];
    act::App apps = act::test::tallied_app(act::PartitionMap(conninfos), options,
                                           std::make_shared<act::ConnectionPool>(read_model));
    apps.start();
    std::this_thread::sleep_for(std::chrono::minutes(1));
    apps.shutdown();
  } catch (const std::exception& error) {
    std::cerr << "partition_worker: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
