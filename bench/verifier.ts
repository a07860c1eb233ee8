/**
 * Verifier throughput: `verifyDecision` on a record with 8 votes and 10 evidence items (target
 * ≥ 100 000 records/s) and `verifyPanel` with the three built-in lenses on the same record
 * (target ≥ 50 000 records/s), then `verifyDecision` on the same record with 3, 100 and 1,000
 * votes (target ≥ 50 000 records/s at 100), and on the 100-vote record parsed from JSON. The
 * record is honest (every claim proven), so every oracle and every lens does its full work; no
 * call reads prose, and none hands the caller's objects to code other than the verifier's own.
 *
 * Each time per record is also given in CPU time (the process's own, which other work on a
 * shared machine does not inflate, unlike wall time).
 *
 * This VM runs whole stretches of seconds at about half speed. A host probe (`host-probe.ts`, no
 * conclave code) is timed before every sample, and each time per record is also given in units
 * of the probe's time: that ratio stays put when the machine slows down, and moves when
 * the code does.
 */
import { aggregateConsensus, PRODUCT_RUBRIC, type Vote } from '@conclave/scoring';
import { verifyDecision, verifyPanel, type DecisionRecord, type EvidenceKind } from '@conclave/verifier';
import { mulberry32, scoresFrom } from './fixtures.js';
import { figure, round, stats, type BenchResult } from './harness.js';
import { probeMicros } from './host-probe.js';

const RECORDS_PER_SAMPLE = 2_000;
const SAMPLES = 40;
const WARMUP = 10;
/** Votes per sample in the vote-count sweep (so a sample of 1,000-vote records is 16 records). */
const VOTES_PER_SAMPLE = 16_000;
const VOTE_SWEEP = [
  { votes: 3, target: undefined },
  { votes: 100, target: 50_000 },
  { votes: 1_000, target: undefined },
] as const;

function record(voteCount = 8): DecisionRecord {
  const random = mulberry32(7);
  const votes: Vote[] = Array.from({ length: voteCount }, (_, i) => ({
    memberId: `member-${i}`,
    scores: scoresFrom(random),
    weight: 1 + (i % 2),
  }));
  const kinds: EvidenceKind[] = ['test', 'gate', 'document', 'measurement', 'model_statement'];
  return {
    id: 'bench-decision',
    tier: 'T3',
    rubric: PRODUCT_RUBRIC,
    minValidVotes: 3,
    votes: votes.map((vote) => ({ ...vote, rationale: 'x'.repeat(500) })),
    consensus: aggregateConsensus(votes, { rubric: PRODUCT_RUBRIC }),
    evidence: Array.from({ length: 10 }, (_, i) => ({
      id: `e${i}`,
      sourceId: `source-${i % 4}`,
      kind: kinds[i % kinds.length] as EvidenceKind,
      strength: 0.6 + (i % 4) / 10,
      confidence: 0.7,
      supports: 'verdict_matches_score',
      validation: i % 3 === 0 ? [{ kind: 'test', name: `suite-${i}`, passed: true }] : [],
      statement: 'y'.repeat(300),
    })),
  };
}

/**
 * Times `fn` over samples of RECORDS_PER_SAMPLE calls, each sample preceded by a run of the host
 * probe, so the probe times the same stretches of the machine as the samples do.
 */
function throughput(label: string, fn: () => boolean, target: number | undefined, recordsPerSample = RECORDS_PER_SAMPLE) {
  let approved = 0;
  const batch = () => {
    for (let i = 0; i < recordsPerSample; i += 1) if (fn()) approved += 1;
  };
  for (let i = 0; i < WARMUP; i += 1) {
    probeMicros();
    batch();
  }
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  const probes: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    probes.push(probeMicros());
    const cpu = process.cpuUsage();
    const started = performance.now();
    batch();
    samples.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
  }
  const overall = ((recordsPerSample * samples.length) / samples.reduce((sum, ms) => sum + ms, 0)) * 1000;
  const median = (recordsPerSample / stats(samples).median) * 1000;
  const perRecord = (stats(samples).median * 1000) / recordsPerSample;
  // CPU time (user + system, the collector's threads included) is what the process itself
  // spent: on a loaded machine, wall time also counts the stretches other work held the CPU.
  const cpuPerRecord = (stats(cpuSamples).median * 1000) / recordsPerSample;
  const probe = stats(probes).median;
  return {
    figures: [
      figure(`${label}: throughput, all samples`, overall, 'records/s', target === undefined ? undefined : { op: '>=', value: target }),
      figure(`${label}: throughput, median sample`, median, 'records/s'),
      figure(`${label}: time per record, median`, perRecord, 'µs'),
      figure(
        `${label}: CPU time per record, median (as records/s: ${Math.round(1e6 / cpuPerRecord).toLocaleString('en-US')})`,
        cpuPerRecord,
        'µs',
      ),
      figure(`${label}: time per record in host-probe units`, perRecord / probe, '×'),
      figure(`${label}: records approved`, approved, `of ${recordsPerSample * (SAMPLES + WARMUP)}`, {
        op: '>=',
        value: recordsPerSample * (SAMPLES + WARMUP),
      }),
    ],
    recordsPerSecond: Math.round(overall),
    probeMicros: probe,
  };
}

export function verifier(): BenchResult {
  const input = record();
  const single = throughput('verifyDecision', () => verifyDecision(input).approved, 100_000);
  const panel = throughput('verifyPanel (3 lenses)', () => verifyPanel(input).status === 'approved', 50_000);
  // Larger councils: the same record with 3, 100 and 1,000 votes (samples of a fixed number of
  // votes, so each takes about as long); the target is on 100 votes.
  const sweep = VOTE_SWEEP.map(({ votes, target }) => {
    const large = record(votes);
    const result = throughput(
      `verifyDecision, ${votes} votes`,
      () => verifyDecision(large).approved,
      target,
      Math.max(20, Math.round(VOTES_PER_SAMPLE / votes)),
    );
    return { votes, result };
  });
  // The same 100-vote record as a reader of a record file has it: parsed from JSON, so no
  // member shares its vote's scores object (informative, no target).
  const parsed = JSON.parse(JSON.stringify(record(100))) as DecisionRecord;
  const fromJson = throughput(
    'verifyDecision, 100 votes parsed from JSON',
    () => verifyDecision(parsed).approved,
    undefined,
    Math.round(VOTES_PER_SAMPLE / 100),
  );
  return {
    name: 'verifier',
    figures: [
      ...single.figures,
      ...panel.figures,
      ...sweep.flatMap(({ result }) => result.figures.filter((f) => !f.label.endsWith('median sample'))),
      ...fromJson.figures.filter((f) => !f.label.endsWith('median sample')),
      figure(
        'host probe: one unit of a fixed plain-JS workload, median between the samples',
        (single.probeMicros + panel.probeMicros) / 2,
        'µs',
      ),
    ],
    details: {
      votes: 8,
      evidence: 10,
      verifyDecisionPerSecond: single.recordsPerSecond,
      verifyPanelPerSecond: panel.recordsPerSecond,
      voteSweep: sweep.map(({ votes, result }) => ({
        votes,
        verifyDecisionPerSecond: result.recordsPerSecond,
        hostProbeMicros: round(result.probeMicros, 1),
      })),
      parsedFromJson: { votes: 100, verifyDecisionPerSecond: fromJson.recordsPerSecond },
      hostProbeMicros: { verifyDecision: round(single.probeMicros, 1), verifyPanel: round(panel.probeMicros, 1) },
    },
  };
}
