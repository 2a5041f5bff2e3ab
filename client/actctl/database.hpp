#pragma once
// What the database commands share: the connection (--dsn or the PG*
// environment) and plain-text tables for their output.
#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

namespace actctl {

// The global connection option, filled in by main's parser before a command runs.
struct Database {
  std::string dsn;  // "" = libpq's defaults and the PG* environment
};

// Opens a connection; a connection string libpq cannot use, or a server it
// cannot reach, is a UsageError (exit 2) with one line saying why.
std::unique_ptr<pqxx::connection> Connect(const Database& db);

// libpq's messages end in a newline and may span lines: one line of them.
std::string OneLine(std::string text);

// A field's text, "-" for NULL.
std::string Text(const pqxx::field& field);

// Prints a table: a header row and the rows, columns padded to their widest
// cell, separated by two spaces (no colors: the output is for people and grep).
void PrintTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

}  // namespace actctl
