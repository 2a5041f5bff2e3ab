#pragma once
// The events each commit reported as committed, one file per process: what a
// scenario checks the log against. Files rather than shared memory because a
// time-bounded run has no fixed size, and a write survives a killed writer.
#include <libpq-fe.h>

#include <fstream>
#include <string>

namespace stress {

class AckLog {
 public:
  AckLog();  // a fresh temporary directory
  AckLog(const AckLog&) = delete;
  AckLog& operator=(const AckLog&) = delete;
  ~AckLog();

  // One process's appender (in the child).
  class Writer {
   public:
    explicit Writer(const std::string& path);
    // Appends the rows of act.commit's result, selected as (id, stream, version, token).
    void Record(const PGresult* rows);

   private:
    std::ofstream out_;
  };
  Writer Open(int process) const;

  // Loads every record into the temporary table stress_acked(id, stream, version, token).
  void Load(PGconn* connection) const;

 private:
  std::string dir_;
};

}  // namespace stress
