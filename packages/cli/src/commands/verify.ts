import type { IssuePlace } from '@conclave/core';
import { runRecord, type VerificationRunRecord } from '@conclave/report';
import { createPanel, emissionGate, TIERS, verifyDecision, type DecisionRecord } from '@conclave/verifier';
import type { CommandContext, CommandOutcome } from '../command.js';
import { CliError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { loadJsonFile } from '../inputs.js';
import { actAnswer, renderEmission, renderReport } from '../render.js';
import { recordText, refuseOverwritingInput, writeOutput } from '../run-files.js';
import { parseTier } from '../tier-option.js';

export interface VerifyFlags {
  readonly tier?: string;
  readonly out?: string;
}

/** A decision record, and where its fields are in the file it came from. */
export interface LoadedDecision {
  readonly decision: DecisionRecord;
  /** The position and path of a field of the decision (without one, of the decision itself), for errors found after parsing. */
  readonly at: (field?: string) => IssuePlace;
  /** The whole document the decision came from (a run record carries the debate's result beside it). */
  readonly document: Readonly<Record<string, unknown>>;
}

/**
 * A decision record from a JSON file: a `DecisionRecord`, or a run record that carries one
 * (`conclave debate --out run.json` writes such a file).
 */
export async function loadDecision(cwd: string, file: string): Promise<LoadedDecision> {
  const { data, locate } = await loadJsonFile(cwd, file, 'decision record');
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new CliError(`${file}: a decision record must be a JSON object`, [
      {
        code: 'not_an_object',
        ...locate([]),
        message: `found ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}`,
        fix: 'pass a DecisionRecord ({ id, tier, rubric, minValidVotes, votes, consensus, evidence }) or a run record from `conclave debate --out`',
      },
    ]);
  }
  const object = data as Record<string, unknown>;
  // In a run record the decision is the `decision` field; otherwise the whole file.
  const inRunRecord = object.format === 'conclave.run-record';
  const prefix = inRunRecord ? ['decision'] : [];
  const at = (field?: string) => {
    const path = field === undefined ? prefix : [...prefix, field];
    return { ...locate(path), ...(path.length === 0 ? {} : { path }) };
  };
  if (inRunRecord) {
    const decision = object.decision;
    if (decision === undefined || decision === null || typeof decision !== 'object') {
      throw new CliError(`${file}: this ${String(object.kind)} run record holds no decision record`, [
        {
          code: 'no_decision',
          ...at(),
          message: `"decision" is ${decision === undefined ? 'missing' : decision === null ? 'null' : `a ${typeof decision}`}`,
          fix: 'pass a run record written by `conclave debate --out` or `conclave verify --out`, or a DecisionRecord',
        },
      ]);
    }
    return { decision: decision as DecisionRecord, at, document: object };
  }
  return { decision: object as unknown as DecisionRecord, at, document: object };
}

/** Problems the verifier found in the record's shape, each at the decision in the file. */
function malformed(file: string, loaded: LoadedDecision, issues: readonly string[]): CliError {
  return new CliError(
    `${file}: not a well-formed decision record (${issues.length} problem${issues.length === 1 ? '' : 's'})`,
    issues.map((message) => ({
      code: 'malformed',
      ...loaded.at(),
      message,
      fix: 'give the decision this field, or pass the run record `conclave debate --out` writes (it carries a well-formed one)',
    })),
  );
}

/**
 * `conclave verify`: the read-only verifier's claims. Exit 0 only for an approved GO (a sound
 * record that says GO); 1 for a record that is not approved or not a GO; 2 malformed.
 */
export async function verifyCommand(ctx: CommandContext, file: string, flags: VerifyFlags): Promise<CommandOutcome> {
  refuseOverwritingInput(ctx.io.cwd, flags.out, file);
  const loaded = await loadDecision(ctx.io.cwd, file);
  const { decision } = loaded;
  ctx.progress.event(`verify ${file}`);
  const report = verifyDecision(decision);
  if (report.malformed.length > 0) throw malformed(file, loaded, report.malformed);
  const mayAct = report.approved && report.verdict === 'GO';
  const exitCode: ExitCode = mayAct ? EXIT.ok : EXIT.no;
  const record = runRecord<VerificationRunRecord>({
    kind: 'verification',
    offline: true,
    title: `verify ${decision.id}`,
    decision,
    verification: report,
  });
  const written = flags.out === undefined ? undefined : await writeOutput(ctx.io.cwd, flags.out, recordText(record));
  const answer = actAnswer({ approved: report.approved, mayAct, verdict: report.verdict });
  const text = [
    'conclave verify: deterministic oracles, offline (no model is called)',
    '',
    renderReport(report),
    '',
    `Verdict ${report.verdict}: ${answer}`,
    ...(written === undefined ? [] : ['', `run record: ${written}`]),
  ].join('\n');
  const claims = report.claims.map((c) => ({ id: c.claim.id, kind: c.claim.kind, status: c.status, oracle: c.oracle, reason: c.reason }));
  return {
    exitCode,
    text,
    json: {
      command: 'verify',
      exitCode,
      offline: true,
      decision: decision.id,
      verdict: report.verdict,
      approved: report.approved,
      mayAct,
      answer,
      claims,
      ...(written === undefined ? {} : { out: written }),
    },
  };
}

/**
 * `conclave gate`: the tier-aware emission gate. Exit 0 only when acting is allowed (an approved
 * GO: `mayAct`); 3 escalated; 1 for anything else, a sound PIVOT or NO_GO included; 2 malformed.
 */
export async function gateCommand(ctx: CommandContext, file: string, flags: VerifyFlags): Promise<CommandOutcome> {
  refuseOverwritingInput(ctx.io.cwd, flags.out, file);
  const loaded = await loadDecision(ctx.io.cwd, file);
  const decision = flags.tier === undefined ? loaded.decision : { ...loaded.decision, tier: parseTier(flags.tier, 'T3') };
  ctx.progress.event(`emission gate ${file}`);
  const gate = emissionGate(decision, { panel: createPanel({ quorum: 2 }) });
  if (gate.route === 'refused') {
    throw new CliError(`${file}: the emission gate refused the record`, [
      {
        code: 'emission_refused',
        ...loaded.at('tier'),
        message: gate.reason,
        fix: `give the record a "tier" (${TIERS.join(', ')}), or pass --tier`,
      },
    ]);
  }
  const verification = gate.route === 'verifier' ? gate.report : verifyDecision(decision);
  if (verification.malformed.length > 0) throw malformed(file, loaded, verification.malformed);
  const escalated = gate.route === 'panel' && gate.verdict.status === 'escalated';
  const exitCode: ExitCode = gate.mayAct ? EXIT.ok : escalated ? EXIT.escalated : EXIT.no;
  const record = runRecord<VerificationRunRecord>({
    kind: 'verification',
    offline: true,
    title: `emission gate ${decision.id}`,
    decision,
    verification,
    ...(gate.route === 'panel' ? { panel: gate.verdict } : {}),
    emission: gate,
  });
  const written = flags.out === undefined ? undefined : await writeOutput(ctx.io.cwd, flags.out, recordText(record));
  const text = [
    'conclave gate: deterministic oracles and lenses, offline (no model is called)',
    '',
    renderEmission(gate, decision.tier, gate.route === 'verifier' ? undefined : verification),
    ...(written === undefined ? [] : ['', `run record: ${written}`]),
  ].join('\n');
  const json = {
    command: 'gate',
    exitCode,
    offline: true,
    decision: decision.id,
    tier: decision.tier,
    verdict: gate.consensusVerdict,
    approved: gate.approved,
    mayAct: gate.mayAct,
    answer: actAnswer({ approved: gate.approved, mayAct: gate.mayAct, verdict: gate.consensusVerdict, escalated }),
    route: gate.route,
    ...(gate.route === 'panel'
      ? {
          status: gate.verdict.status,
          lenses: gate.verdict.lenses.map((l) => ({ lens: l.lens, decision: l.decision, reasons: l.reasons })),
        }
      : {}),
    claims: verification.claims.map((c) => ({ id: c.claim.id, status: c.status, reason: c.reason })),
    ...(written === undefined ? {} : { out: written }),
  };
  return { exitCode, text, json };
}
