#include "ack_log.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <vector>

#include "pq_session.hpp"

namespace stress {

AckLog::AckLog() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/pg_act_stress.XXXXXX";
  std::vector<char> path(pattern.begin(), pattern.end());
  path.push_back('\0');
  if (!mkdtemp(path.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp");
  dir_ = path.data();
}

AckLog::~AckLog() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

AckLog::Writer::Writer(const std::string& path) : out_(path, std::ios::app) {
  if (!out_) throw std::runtime_error("cannot write " + path);
}

void AckLog::Writer::Record(const PGresult* rows) {
  for (int row = 0; row < PQntuples(rows); ++row)
    out_ << PQgetvalue(rows, row, 0) << '\t' << PQgetvalue(rows, row, 1) << '\t' << PQgetvalue(rows, row, 2) << '\t'
         << PQgetvalue(rows, row, 3) << '\n';
  // Written through before the next commit: a killed process loses no record.
  out_.flush();
}

AckLog::Writer AckLog::Open(int process) const { return Writer(dir_ + "/" + std::to_string(process)); }

void AckLog::Load(PGconn* connection) const {
  pq::Run(connection, "CREATE TEMP TABLE stress_acked (id bigint, stream text, version int, token text)");
  std::string records;
  for (const auto& file : std::filesystem::directory_iterator(dir_)) {
    std::ifstream in(file.path());
    std::ostringstream content;
    content << in.rdbuf();
    records += content.str();
  }
  if (!records.empty()) pq::CopyIn(connection, "COPY stress_acked FROM STDIN", records);
}

}  // namespace stress
