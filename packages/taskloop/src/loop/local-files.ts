/**
 * The files of `.conclave/` that stay out of the run's commits, as `.gitignore` patterns relative
 * to it: the timeline keeps growing after the last commit (its own entry, the finish), the process
 * journal, the guardian's record and the CLI's settings are local to this machine, and a killed
 * atomic write can leave a temp file.
 */
export const CONCLAVE_LOCAL_FILES: readonly string[] = [
  'runs/*/timeline.jsonl',
  'runs/*/processes.json',
  'runs/*/guardian.json',
  'runs/*/cli.json',
  '*.tmp',
];
