import { stat } from 'node:fs/promises';
import { redactSecrets } from '../security/redact.js';
import { resolveInWorkspace } from '../security/workspace-path.js';
import type { FileExistsGate } from './gate-definition.js';
import type { GateEvidence } from './gate-evidence.js';
import type { GateRunContext } from './gate-run-context.js';

/**
 * Passes when every listed path exists inside the workspace (a file or a folder). A path that
 * escapes the workspace (`..`, absolute, a symbolic link leading out) fails the gate with the
 * reason, instead of proving that something outside the repository exists.
 */
export async function runFileExistsGate(gate: FileExistsGate, context: GateRunContext): Promise<GateEvidence> {
  const started = performance.now();
  const missing: string[] = [];
  const refused: string[] = [];
  for (const path of gate.paths) {
    const resolved = await resolveInWorkspace(context.workspace, path);
    if (!resolved.ok) refused.push(resolved.reason);
    else if (!(await exists(resolved.path))) missing.push(path);
  }
  const problems = [...(refused.length > 0 ? [`refused: ${refused.join('; ')}`] : []), ...(missing.length > 0 ? [`missing: ${missing.join(', ')}`] : [])];
  const passed = problems.length === 0;
  const reason = passed ? (gate.paths.length === 1 ? `exists: ${gate.paths[0] as string}` : `all ${gate.paths.length} paths exist`) : problems.join('; ');
  return { name: gate.name, type: 'file_exists', passed, durationMs: Math.round(performance.now() - started), reason: redactSecrets(reason, context.secretValues) };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
