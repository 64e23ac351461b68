import Foundation

let usage = """
  OVERVIEW: Keep your settings, todos and workouts in plain JSON files.

  USAGE: diary [--data-dir DIR] [--json] <settings|todos|workouts> <command> [args]

  OPTIONS:
    -h, --help      Show help.
    --version       Show the version.
  """

switch CommandLine.arguments.dropFirst().first {
case "--version":
  print("diary 0.1.0")
case nil, "-h", "--help", "help":
  print(usage)
case let other?:
  FileHandle.standardError.write(Data("diary: error: unknown command '\(other)'\n".utf8))
  exit(64)
}
