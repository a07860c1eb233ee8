import { openInWorkspace, type OpenedInWorkspace } from '../security/open-in-workspace.js';
import { redactSecrets } from '../security/redact.js';
import { GateDeadline } from './gate-deadline.js';
import type { FileExistsGate } from './gate-definition.js';
import type { GateEvidence } from './gate-evidence.js';
import type { GateRunContext } from './gate-run-context.js';

/**
 * Passes when every listed path exists inside the workspace as a regular file or a folder. A path
 * that escapes the workspace (`..`, absolute, a symbolic link leading out) fails the gate with the
 * reason, instead of proving that something outside the repository exists. Each path is opened
 * (`openInWorkspace`) and the open handle is checked, not the path: a folder on the way swapped for
 * a link between a check and the open cannot make something outside count. A FIFO, socket or
 * device is not a file for this gate. The gate runs under `context.defaultTimeoutMs` and the abort
 * signal; past either it fails as timed out (or aborted) with the paths checked so far.
 */
export async function runFileExistsGate(gate: FileExistsGate, context: GateRunContext): Promise<GateEvidence> {
  const started = performance.now();
  const deadline = new GateDeadline(context.defaultTimeoutMs, context.signal);
  const missing: string[] = [];
  const refused: string[] = [];
  const problems = (): string[] => [
    ...(refused.length > 0 ? [`refused: ${refused.join('; ')}`] : []),
    ...(missing.length > 0 ? [`missing: ${missing.join(', ')}`] : []),
  ];
  const done = (passed: boolean, reason: string): GateEvidence => ({
    name: gate.name,
    type: 'file_exists',
    passed,
    durationMs: Math.round(performance.now() - started),
    reason: redactSecrets(reason, context.secretValues),
  });
  try {
    for (const [index, path] of gate.paths.entries()) {
      // A late handle is closed: the gate has moved on, but the descriptor must not leak.
      const checked = await deadline.race(check(context.workspace, path));
      if (!checked.done) {
        const stopped =
          checked.why === 'aborted' ? `aborted while checking ${path}` : `timed out after ${deadline.timeoutMs} ms while checking ${path}`;
        return done(false, [`${stopped}, ${index} of ${gate.paths.length} path(s) checked`, ...problems()].join('; '));
      }
      if (checked.value.kind === 'missing') missing.push(path);
      else if (checked.value.kind === 'refused') refused.push(checked.value.reason);
    }
  } finally {
    deadline.dispose();
  }
  const passed = problems().length === 0;
  return done(
    passed,
    passed
      ? gate.paths.length === 1
        ? `exists: ${gate.paths[0] as string}`
        : `all ${gate.paths.length} paths exist`
      : problems().join('; '),
  );
}

type Checked = { kind: 'exists' | 'missing' } | { kind: 'refused'; reason: string };

/** Whether one path names a regular file or a folder inside the workspace; the handle is closed here. */
async function check(workspace: string, path: string): Promise<Checked> {
  const opened: OpenedInWorkspace = await openInWorkspace(workspace, path, { followFinalLink: true });
  if (!opened.ok) {
    if (opened.kind === 'folder') return { kind: 'exists' };
    return opened.kind === 'missing' ? { kind: 'missing' } : { kind: 'refused', reason: opened.reason };
  }
  try {
    return opened.stats.isFile() || opened.stats.isDirectory()
      ? { kind: 'exists' }
      : { kind: 'refused', reason: `${path} is not a regular file or folder` };
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
