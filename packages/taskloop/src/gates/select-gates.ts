import type { GateDefinition, Level } from './gate-definition.js';

const RANK: Readonly<Record<Level, number>> = { speed: 0, balanced: 1, strict: 2 };

/** The level a gate runs from when it does not say. */
export const DEFAULT_GATE_LEVEL: Level = 'balanced';

/**
 * Picks the gates that apply to one plan item at one level, in configured order. A gate runs at
 * its own level and every stricter one (default `balanced`): `speed` runs only speed gates,
 * `balanced` speed and balanced ones, `strict` all. A gate with `tasks` runs only for those plan
 * items. Every gate left out is listed with the reason, so the evidence shows what was NOT
 * checked, not just what passed.
 */
export function selectGates(
  gates: readonly GateDefinition[],
  level: Level,
  taskId: string,
): { run: GateDefinition[]; skipped: { name: string; reason: string }[] } {
  const run: GateDefinition[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const gate of gates) {
    const gateLevel = gate.level ?? DEFAULT_GATE_LEVEL;
    if (RANK[gateLevel] > RANK[level]) {
      skipped.push({ name: gate.name, reason: `runs at ${gateLevel} and above; this run is ${level}` });
    } else if (gate.tasks !== undefined && !gate.tasks.includes(taskId)) {
      skipped.push({ name: gate.name, reason: `applies only to ${gate.tasks.join(', ')}; this task is ${taskId}` });
    } else {
      run.push(gate);
    }
  }
  return { run, skipped };
}
