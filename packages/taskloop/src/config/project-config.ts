import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDataText } from '@conclave/core/data';
import { errorMessage, schemaIssueFix } from '@conclave/core/internal';
import { err, ok, type Result } from 'neverthrow';
import * as z from 'zod';
import { commandPolicySchema } from '../security/command-policy-config.js';
import type { SpecIssue, SpecPath } from '../spec/spec-issue.js';

/** The project's own settings for the task loop, at the workspace root. */
export const PROJECT_CONFIG_FILE = 'conclave.config.yaml';

/** What `conclave.config.yaml` may hold. */
export const projectConfigSchema = z.strictObject({
  /** The command policy for shell gates and command builders. */
  commands: commandPolicySchema.optional(),
});

export type ProjectConfig = z.infer<typeof projectConfigSchema>;

/** A project config and the file it came from (none when the workspace has no `conclave.config.yaml`). */
export interface LoadedProjectConfig {
  readonly config: ProjectConfig;
  readonly file?: string;
}

/** @deprecated The shape of the deprecated `loadProjectConfig`; `readProjectConfig` returns a neverthrow `Result`. */
export type ProjectConfigResult =
  | { readonly ok: true; readonly config: ProjectConfig; readonly file?: string }
  | { readonly ok: false; readonly issues: readonly SpecIssue[] };

/**
 * Reads the project's `conclave.config.yaml` (an absent file is an empty config, so shell gates
 * stay refused until a policy is written). The loop reads it once, at the start of a run, and
 * keeps that policy for the whole run, so a builder that edits the file cannot widen what the
 * next gate may run.
 *
 * @example
 * # conclave.config.yaml
 * commands:
 *   allow: ["npm test", "npx tsc --noEmit"]
 *   deny: ["npm publish"]
 */
export async function readProjectConfig(workspace: string): Promise<Result<LoadedProjectConfig, SpecIssue[]>> {
  const file = join(workspace, PROJECT_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ok({ config: {} });
    return err([
      {
        code: 'unreadable',
        file,
        line: 1,
        column: 1,
        message: `cannot read the project config: ${errorMessage(error)}`,
        fix: 'check that the file is readable',
      },
    ]);
  }
  const parsed = parseDataText(text, file, (data: unknown) => {
    const result = projectConfigSchema.safeParse(data ?? {}, { reportInput: true });
    if (result.success) return ok(result.data);
    return err(
      result.error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) => ({
              code: 'schema' as const,
              path: [...(issue.path as SpecPath), key],
              message: `unknown key "${key}"`,
              fix: `remove "${key}" or fix the spelling (known: commands.allow, commands.deny, commands.allowUnlisted)`,
            }))
          : [{ code: 'schema' as const, path: issue.path as SpecPath, message: issue.message, fix: schemaIssueFix(issue) }],
      ),
    );
  });
  if (parsed.isErr()) {
    return err(
      parsed.error.map((issue): SpecIssue => ({
        code: issue.code,
        file,
        line: issue.line ?? 1,
        column: issue.column ?? 1,
        path: issue.path,
        message: issue.message,
        fix: issue.fix,
      })),
    );
  }
  return ok({ config: parsed.value, file });
}

/** @deprecated Use `readProjectConfig`, which returns a neverthrow `Result` like every other loader; removed in the next release. */
export async function loadProjectConfig(workspace: string): Promise<ProjectConfigResult> {
  return (await readProjectConfig(workspace)).match<ProjectConfigResult>(
    (loaded) => ({ ok: true, ...loaded }),
    (issues) => ({ ok: false, issues }),
  );
}
