/**
 * Redaction (the task loop's `redactSecrets`, on secretlint's recommended preset plus its own
 * shape-based rules): recall on lines that hold a secret (≥ 99 % of lines left with no trace of
 * it), lines without one that it alters (≤ 2 %), and the time to redact a 10 MB gate log
 * (< 200 ms) with a few secrets in it and the run's secret values listed, as the loop calls it.
 */
import { redactSecrets, SECRET_RULE_SET } from '@conclave/taskloop/security';
import { figure, round, roundStats, sampleSync, stats, type BenchResult } from './harness.js';
import { LOG_LINES, NEGATIVE_LINES, positiveLines } from './redaction-corpus.js';

const LOG_BYTES = 10 * 1024 * 1024;

/** A 10 MB gate log of ordinary output with one of the positive lines every 2,000 lines. */
function gateLog(secrets: readonly string[]): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < LOG_BYTES; i += 1) {
    const line = i % 2_000 === 1_999 ? (secrets[Math.floor(i / 2_000) % secrets.length] ?? '') : (LOG_LINES[i % LOG_LINES.length] ?? '');
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  return `${lines.join('\n')}\n`;
}

export function redaction(): BenchResult {
  const positives = positiveLines();
  const missed = positives.filter(({ line, secret }) => redactSecrets(line).includes(secret));
  const altered = NEGATIVE_LINES.filter((line) => redactSecrets(line) !== line);
  const recall = 1 - missed.length / positives.length;
  const alteredShare = altered.length / NEGATIVE_LINES.length;

  const log = gateLog(positives.map(({ line }) => line));
  const runSecrets = ['Pg-Secret-77x', 'dT9xK2mQ7vL4pR8sW3zNq6'];
  const timing = stats(sampleSync(() => redactSecrets(log, runSecrets), { warmup: 1, iterations: 7 }));
  const missedFormats = [...new Set(missed.map(({ format }) => format))];
  return {
    name: 'redaction',
    figures: [
      figure(`recall on ${positives.length} lines holding a secret`, recall * 100, '%', { op: '>=', value: 99 }),
      figure(`lines without a secret altered (of ${NEGATIVE_LINES.length})`, alteredShare * 100, '%', { op: '<=', value: 2 }),
      figure(`redact a ${round(Buffer.byteLength(log) / 1024 / 1024, 1)} MB gate log, median`, timing.median, 'ms', {
        op: '<',
        value: 200,
      }),
    ],
    details: {
      ruleSet: SECRET_RULE_SET,
      positives: positives.length,
      formats: new Set(positives.map(({ format }) => format)).size,
      missedFormats,
      missedExamples: missed
        .slice(0, 10)
        .map(({ format, line }) => ({ format, line: line.replace(/[A-Za-z0-9]{6}(?=[A-Za-z0-9]{4})/g, '······') })),
      negatives: NEGATIVE_LINES.length,
      altered,
      logBytes: Buffer.byteLength(log),
      timing: roundStats(timing),
    },
  };
}
