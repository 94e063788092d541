"""learning's writes: exercises and performance rows stored when an analysis is, answers, and
the results counted when a match ends (docs/features.md, "Exercises")."""
