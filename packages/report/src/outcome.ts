import { badge, heading, html, num, type SafeHtml, type Tone } from './html.js';
import type {
  CompositeRunRecord,
  DebateRunRecord,
  MeetingRunRecord,
  RunRecord,
  TaskRunRecord,
  VerificationRunRecord,
} from './run-record.js';
import { guarded, verdictBadge } from './section-context.js';
import { describeDebateStop } from './sections/debate.js';
import { describeMeetingStop, MEETING_OUTCOME_TONE } from './sections/meeting.js';
import { TASK_OUTCOME_TONE } from './sections/task.js';
import { emissionAnswer, statedVerdicts, type ActAnswer } from './sections/verification.js';

type Part = Exclude<RunRecord, CompositeRunRecord>;

/** What each kind of part is called on its card and under the report's title. */
export const KIND_LABELS: Readonly<Record<Part['kind'], string>> = {
  debate: 'Council debate',
  verification: 'Verification',
  meeting: 'Consensus meeting',
  task: 'Guarded task loop',
};

/** One card: what the part decided, and whether anyone may act on it. */
interface Outcome {
  readonly decided: SafeHtml;
  readonly act: ActAnswer;
  /** The question or spec the part was about, said last: the answers come first. */
  readonly about?: string | undefined;
}

/**
 * The report's first screen: one card per part of the run (one for a single record), each saying
 * what was decided and whether anyone may act on it, before any detail. `link` gives the anchor
 * of a part's detail, when the parts have their own sections.
 */
export function renderOutcome(parts: readonly Part[], link?: (index: number) => string): SafeHtml {
  const cards = parts.map((part, i) => {
    const id = `outcome-${i + 1}`;
    const label = `${parts.length > 1 ? `${i + 1}. ` : ''}${KIND_LABELS[part.kind] ?? String(part.kind)}`;
    const title = link === undefined ? label : html`<a href="${`#${link(i)}`}">${label}</a>`;
    return guarded(`${String(part.kind)} summary card`, () => {
      const outcome = outcomeOf(part);
      return html`<article class="${`card ${outcome.act.tone}`}" aria-labelledby="${id}">${heading(3, title, id)}<dl><dt>Decided</dt><dd>${outcome.decided}</dd><dt>Act on it?</dt><dd class="act">${badge(outcome.act.tone, outcome.act.text)}</dd></dl>${
        outcome.about === undefined ? '' : html`<p class="about">${outcome.about}</p>`
      }</article>`;
    });
  });
  return html`<section class="outcome" aria-labelledby="outcome">${heading(2, 'What was decided', 'outcome')}<div class="cards">${cards}</div></section>`;
}

function outcomeOf(part: Part): Outcome {
  switch (part.kind) {
    case 'debate':
      return debateOutcome(part);
    case 'verification':
      return verificationOutcome(part);
    case 'meeting':
      return meetingOutcome(part);
    case 'task':
      return taskOutcome(part);
  }
}

function debateOutcome(record: DebateRunRecord): Outcome {
  const result = record.result;
  const consensus = result.consensus;
  const decision = result.decision as DebateRunRecord['result']['decision'] | undefined;
  const calibrated = decision?.rule.rule === 'calibrated' && decision.probabilityGo !== undefined;
  const score =
    consensus?.status === 'scored'
      ? calibrated
        ? `by the calibrated rule, P(GO is right) ${num(100 * (decision.probabilityGo ?? NaN), 1)} %, quorum met (mean score ${num(consensus.score)} / 10)`
        : `${num(consensus.score)} / 10, quorum met`
      : consensus?.status === 'quorum_not_met'
        ? `quorum not met (${consensus.validVotes} of ${consensus.minValidVotes} valid votes)`
        : '';
  const stopped =
    result.status === 'stopped'
      ? html` ${badge('bad', 'stopped')}${result.stopReason === undefined ? '' : ` ${describeDebateStop(result.stopReason)}`}`
      : '';
  return {
    decided: html`${verdictBadge(result.verdict)} ${score}${stopped}`,
    act: emissionAnswer(record.emission, statedVerdicts(record)),
    about: result.question,
  };
}

function verificationOutcome(record: VerificationRunRecord): Outcome {
  const report = record.verification;
  const verdict = report?.verdict ?? record.emission?.consensusVerdict;
  return {
    decided: html`${verdict === undefined ? '' : html`${verdictBadge(verdict)} `}${report?.approved === true ? 'the record is sound' : 'the record is not sound'}`,
    act: emissionAnswer(record.emission, statedVerdicts(record)),
    about: record.decision?.id,
  };
}

function meetingOutcome(record: MeetingRunRecord): Outcome {
  const result = record.result;
  const decision = result.synthesis?.decision;
  const about = result.synthesis?.question ?? record.brief?.title ?? record.brief?.id;
  if (decision === undefined) {
    return {
      decided: html`${badge(MEETING_OUTCOME_TONE[result.outcome] ?? 'warn', result.outcome)} ${result.stopReason === undefined ? '' : describeMeetingStop(result.stopReason)}`,
      act: { tone: 'bad', text: 'no: there is no decision to act on' },
      about,
    };
  }
  const converged = decision.status === 'converged';
  return {
    decided: html`<strong>${decision.title}</strong> (${decision.choice}) ${converged ? badge('ok', 'converged') : badge('warn', 'provisional')}`,
    act: converged
      ? {
          tone: 'info',
          text: record.adr === undefined ? 'not yet: a person records the decision first' : 'not yet: approve the ADR draft first',
        }
      : { tone: 'warn', text: 'no: the choice is provisional (the meeting did not converge); a person decides' },
    about,
  };
}

function taskOutcome(record: TaskRunRecord): Outcome {
  const result = record.result;
  const completed = result.completed ?? [];
  const failed = result.failed ?? [];
  const tone: Tone = TASK_OUTCOME_TONE[result.outcome] ?? 'warn';
  const branch = result.branch === undefined ? 'its branch' : `branch ${result.branch}`;
  return {
    decided: html`${badge(tone, result.outcome)} ${completed.length} task(s) done${failed.length === 0 ? '' : `, ${failed.length} failed`}`,
    act: taskAnswer(record, branch),
    about: record.spec === undefined ? undefined : `${record.spec.id}: ${record.spec.title}`,
  };
}

/**
 * May the run's branch be merged? Only a completed run says so, and only when the record agrees:
 * no task failed and every plan item is ticked. A record edited after the run (completed beside a
 * failure) says do not merge.
 */
function taskAnswer(record: TaskRunRecord, branch: string): ActAnswer {
  if (record.result.outcome !== 'completed') return { tone: 'bad', text: `no: the run did not complete; do not merge ${branch}` };
  const failed = record.result.failed ?? [];
  const unticked = (record.plan ?? []).filter((item) => item.checked !== true);
  if (failed.length > 0 || unticked.length > 0)
    return {
      tone: 'bad',
      text: `the record contradicts itself (completed, yet ${failed.length} task(s) failed and ${unticked.length} plan item(s) unticked): do not merge ${branch}`,
    };
  return { tone: 'ok', text: `every task passed its gates: review ${branch} before merging` };
}
