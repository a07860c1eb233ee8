import { DebateEngine, type AdapterSource, type Board } from '@conclave/council';
import type { ReviewGate, ReviewVerdict } from '../loop/judge-attempt.js';

export interface CouncilReviewOptions {
  readonly board: Board;
  /** Where the board's model references find their adapters. */
  readonly adapters: AdapterSource;
  /** The diff's share of the question, in characters (default 12 000): the board reviews a bounded excerpt. */
  readonly maxDiffChars?: number;
}

/**
 * A council board as a review gate: once an attempt's gates pass, the board debates whether the
 * change completes the task, from the task's criteria and the diff. Only its GO counts; its
 * consensus, dissent and priced cost are recorded in the attempt's evidence (the cost counts
 * toward the run's `maxCostUsd`), and a stopped or failed debate is NO_GO like any other (ADR 0005).
 *
 * @example
 * runTaskLoop({ ..., judgement: { verifiers, review: councilReviewGate({ board, adapters }) } });
 */
export function councilReviewGate(options: CouncilReviewOptions): ReviewGate {
  const engine = new DebateEngine();
  const maxDiff = options.maxDiffChars ?? 12_000;
  return async ({ task, attempt, diff, gates }): Promise<ReviewVerdict> => {
    const excerpt = diff.length <= maxDiff ? diff : `${diff.slice(0, maxDiff)}\n… (${diff.length - maxDiff} more characters not shown)`;
    const result = await engine.run(options.board, {
      question: `Does this change complete task ${task.taskId}, "${task.title}"?`,
      context: {
        acceptance: task.acceptance,
        constraints: task.constraints,
        attempt,
        gates: gates.map((gate) => ({ name: gate.name, passed: gate.passed, reason: gate.reason })),
        diff: excerpt,
      },
      adapters: options.adapters,
    });
    const consensus = result.consensus;
    return {
      verdict: result.verdict,
      ...(consensus.status === 'scored' ? { score: consensus.score } : {}),
      ...(result.usage.costUsd === undefined ? {} : { costUsd: result.usage.costUsd }),
      dissent: [
        ...(consensus.status === 'scored'
          ? consensus.dissent.map((member) => `${member.memberId}: ${member.verdict}`)
          : [`quorum not met: ${consensus.validVotes} of ${consensus.minValidVotes} votes`]),
        ...result.failures.map((failure) => `${failure.memberId}: ${failure.reason.kind}`),
      ],
    };
  };
}
