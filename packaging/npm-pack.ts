import { join } from 'node:path';
import { npmEnv, runCommand } from './run-command.js';
import { repoRoot, type Workspace } from './workspaces.js';

/** One package as `npm pack` made it (or, on a dry run, would make it). */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  /** Its folder relative to the repository root. */
  readonly dir: string;
  /** The tarball's absolute path; empty on a dry run. */
  readonly tarball: string;
  /** Every path in the tarball, relative to the package, sorted. */
  readonly files: readonly string[];
}

/**
 * `npm pack --json` over the given workspaces in one npm process: the tarballs land in
 * `destination`, or with `dryRun` nothing is written and only the file lists come back.
 * Lifecycle scripts never run (`--ignore-scripts`): the build is the caller's job.
 */
export async function npmPack(
  workspaces: readonly Workspace[],
  options: { readonly destination: string } | { readonly dryRun: true },
): Promise<PackedPackage[]> {
  const where = 'dryRun' in options ? ['--dry-run'] : ['--pack-destination', options.destination];
  const pack = await runCommand(
    'npm',
    ['pack', '--ignore-scripts', '--json', ...where, ...workspaces.flatMap((workspace) => ['--workspace', workspace.dir])],
    { cwd: repoRoot, env: npmEnv() },
  );
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const entries = JSON.parse(pack.stdout) as { name: string; version: string; filename: string; files: { path: string }[] }[];
  return workspaces.map((workspace) => {
    const entry = entries.find((candidate) => candidate.name === workspace.manifest.name);
    if (entry === undefined) throw new Error(`npm pack made no tarball for ${workspace.manifest.name}`);
    return {
      name: entry.name,
      version: entry.version,
      dir: workspace.dir,
      tarball: 'dryRun' in options ? '' : join(options.destination, entry.filename),
      files: entry.files.map((file) => file.path).sort(),
    };
  });
}
