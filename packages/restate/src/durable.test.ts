import { DebateEngine, defineBoard, type DebateResult } from '@conclave/council';
import { loadBrief, runMeeting, type MeetingResult } from '@conclave/meeting';
import { renderReport } from '@conclave/report';
import { seededRandom } from '@conclave/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConclaveClient } from './client.js';
import { debateRunRecord, meetingRunRecord } from './run-records.js';
import { fakeProviderAdapters, startCountingProvider, type CountingProvider } from './test-support/fake-provider.js';
import { BOARD_4X8, BRIEF } from './test-support/fixtures.js';
import { journaledStepNames } from './test-support/journal.js';
import { killWorkerDuring as killWorker, sleep } from './test-support/kill-worker.js';
import { startRestateCluster, type RestateCluster } from './test-support/restate-cluster.js';
import type { RestateServer } from './test-support/restate-server.js';
import type { WorkerProcess } from './test-support/worker-process.js';

// The issue asks for 50 seeded kills of the debate; `npm test` runs a few of each so the whole
// suite stays fast, and `npm run test:kills` runs the full 50 (same code, same assertions).
const DEBATE_KILLS = Number(process.env.CONCLAVE_RESTATE_KILLS ?? 6);
const MEETING_KILLS = Number(process.env.CONCLAVE_RESTATE_MEETING_KILLS ?? 3);
const SEED = Number(process.env.CONCLAVE_RESTATE_SEED ?? 26);
const LATENCY_MS = 30;

let server: RestateServer;
let fake: CountingProvider;
let worker: WorkerProcess;
let client: ConclaveClient;
let cluster: RestateCluster | undefined;
/** The uninterrupted debate and meeting: what every killed run must still reach, and how long one takes. */
let debateBaseline: { result: DebateResult; durationMs: number };
let meetingBaseline: { result: MeetingResult; durationMs: number; calls: number };

beforeAll(async () => {
  fake = await startCountingProvider(LATENCY_MS);
  cluster = await startRestateCluster(fake.server.baseURL);
  ({ server, worker, client } = cluster);
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  await fake?.close();
});

/** What a resumed run must reproduce: the decision and its inputs, not the timings. */
function decidedDebate({ status, stopReason, verdict, consensus, transcript, votes, failures, usage }: DebateResult) {
  return { status, stopReason, verdict, consensus, transcript, votes, failures, usage };
}

/** The meeting's decision and every member's position in every round (neutral names follow the question, so they are left out). */
function decidedMeeting(result: MeetingResult) {
  const rounds = result.record.rounds.map((round) =>
    round.turns.map((turn) => [turn.memberId, 'stance' in turn ? turn.stance.preferredOption : 'abstained']),
  );
  return { outcome: result.outcome, stopReason: result.stopReason, choice: result.synthesis?.decision.choice, rounds, usage: result.usage };
}

/** Requests the fake received for one run (its question carries `marker`), counted by exact body. */
function callsFor(marker: string, before = Number.POSITIVE_INFINITY): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { key, arrivedAt } of fake.log) if (key.includes(marker) && arrivedAt <= before) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

const sum = (counts: Map<string, number>): number => [...counts.values()].reduce((a, b) => a + b, 0);
const killWorkerDuring = <R>(submit: () => Promise<{ invocationId: string }>, attach: () => Promise<R>, delayMs: number) =>
  killWorker(server, worker, submit, attach, delayMs);

describe('debates on Restate', () => {
  it('runs a council once per caller-given id, equal to the same debate run in process, each member paid once', async () => {
    const inProcess = await DebateEngine.run(defineBoard(BOARD_4X8), {
      question: 'Go (q-local)?',
      adapters: fakeProviderAdapters(fake.server.baseURL),
    });
    const started = Date.now();
    const submission = { board: BOARD_4X8, question: 'Go (q-once)?' };
    // The same council submitted twice at once, then once more: one run.
    const [first, second] = await Promise.all([client.runDebate('once', submission), client.runDebate('once', submission)]);
    debateBaseline = { result: first, durationMs: Date.now() - started };
    expect((await client.submitDebate('once', submission)).status).toBe('PreviouslyAccepted');

    expect(decidedDebate(first)).toEqual(decidedDebate(inProcess));
    expect(second).toEqual(first);
    expect(first.usage.calls).toBe(32);
    const calls = callsFor('q-once');
    expect(calls.size).toBe(32);
    expect(sum(calls)).toBe(32);
    // The run record and HTML report come straight from the result.
    const html = renderReport(debateRunRecord(first));
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain(first.verdict);
  }, 30_000);

  it("refuses an id already taken by another submission, never handing back the other question's verdict", async () => {
    const asked = { board: BOARD_4X8, question: 'Go (q-id-taken)?' };
    const first = await client.runDebate('id-taken', asked);
    // The same submission with its keys in another order is the same council: its result.
    expect(await client.runDebate('id-taken', { question: asked.question, board: asked.board })).toEqual(first);
    await expect(client.runDebate('id-taken', { board: BOARD_4X8, question: 'Go (q-id-taken, another question)?' })).rejects.toThrow(
      /the debate id "id-taken" already names a run of another submission[\s\S]*give this submission its own id/,
    );
    expect(sum(callsFor('another question'))).toBe(0);
  }, 30_000);

  it(
    `SIGKILLed at ${DEBATE_KILLS} seeded points, the restarted worker finishes each debate with the uninterrupted verdict, paying again only for calls not yet journaled`,
    async () => {
      const random = seededRandom(SEED);
      let midRun = 0;
      for (let trial = 0; trial < DEBATE_KILLS; trial += 1) {
        const marker = `q-kill-${SEED}-${trial}`;
        const submission = { board: BOARD_4X8, question: `Go (${marker})?` };
        const delayMs = Math.floor(random.next() * debateBaseline.durationMs);
        const { result, journaled, killedAt } = await killWorkerDuring(
          () => client.submitDebate(marker, submission),
          () => client.runDebate(marker, submission),
          delayMs,
        );
        const context = `trial ${trial} (seed ${SEED}, kill after ${delayMs} ms, ${journaled.size} steps journaled)`;
        expect(decidedDebate(result), context).toEqual(decidedDebate(debateBaseline.result));
        const calls = callsFor(marker);
        expect(calls.size, context).toBe(32);
        for (const [key, count] of calls) {
          const member = (JSON.parse(key) as { model: string }).model;
          const wasJournaled = [...journaled].some((name) => name.split('/')[3] === member);
          // Journaled before the kill: paid once. In flight at the kill: paid at most twice.
          expect(count, `${context}: ${member}`).toBeLessThanOrEqual(wasJournaled ? 1 : 2);
        }
        const repeats = sum(calls) - 32;
        expect(repeats, context).toBeLessThanOrEqual(sum(callsFor(marker, killedAt)) - journaled.size);
        if (journaled.size < 32) midRun += 1;
      }
      // The campaign is only worth something if kills land while calls are still to be made.
      expect(midRun).toBeGreaterThan(0);
    },
    30_000 + DEBATE_KILLS * 10_000,
  );

  it('resumes a debate whose concurrency cap queued its members, killed while a slow call was unanswered and later ones were journaled', async () => {
    // Two calls at a time and the first member slow: live, the third member's call starts on the second's answer.
    const board = {
      id: 'capped',
      concurrency: { global: 2 },
      phases: [
        {
          name: 'p0',
          members: ['slow-c0', 'c1', 'c2', 'c3', 'c4', 'c5'].map((id) => ({ id, persona: 'A capped member.', model: `openai:${id}` })),
        },
      ],
    };
    const baseline = await client.runDebate('capped-once', { board, question: 'Go (q-capped-once)?' });
    const marker = 'q-capped-kill';
    const submission = { board, question: `Go (${marker})?` };
    const { invocationId } = await client.submitDebate(marker, submission);
    let journaled = new Set<string>();
    while (journaled.size < 2) {
      await sleep(5);
      journaled = await journaledStepNames(server.adminUrl, invocationId);
    }
    await worker.kill();
    journaled = await journaledStepNames(server.adminUrl, invocationId);
    await worker.start();
    const result = await client.runDebate(marker, submission);

    expect(decidedDebate(result)).toEqual(decidedDebate(baseline));
    expect(journaled.has('debate/capped/0-p0/slow-c0/1')).toBe(false);
    for (const count of callsFor(marker).values()) expect(count).toBeLessThanOrEqual(2);
  }, 30_000);

  it('loses nothing when the Restate server itself is SIGKILLed mid-debate and restarted on the same base dir', async () => {
    const submission = { board: BOARD_4X8, question: 'Go (q-server-kill)?' };
    const { invocationId } = await client.submitDebate('server-kill', submission);
    await sleep(debateBaseline.durationMs / 2);
    await server.kill();
    await sleep(200);
    await server.restart();
    const result = await client.runDebate('server-kill', submission);
    expect(invocationId).toMatch(/^inv_/);
    expect(decidedDebate(result)).toEqual(decidedDebate(debateBaseline.result));
    const calls = callsFor('q-server-kill');
    expect(calls.size).toBe(32);
    for (const count of calls.values()) expect(count).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('cancellation and bad input', () => {
  it("maps the caller's deadline to a Restate cancellation: the debate ends aborted and NO_GO, never a verdict from partial votes", async () => {
    const submission = { board: BOARD_4X8, question: 'Go (q-deadline)?' };
    // Two latencies is before any debate can finish: its 4 phases each wait for the fake's answers.
    const result = await client.runDebate('deadline', submission, { deadlineMs: 2 * LATENCY_MS });
    expect(result.status).toBe('stopped');
    expect(result.stopReason?.kind).toBe('aborted');
    expect(result.verdict).toBe('NO_GO');
    // Cancelled runs stay cancelled: asking again returns the same aborted result, with no new calls.
    const callsAfter = sum(callsFor('q-deadline'));
    expect(await client.runDebate('deadline', submission)).toEqual(result);
    expect(sum(callsFor('q-deadline'))).toBe(callsAfter);
    expect(callsAfter).toBeLessThan(32);
  }, 30_000);

  it('refuses a board that does not load with a terminal error naming the field and the fix, never a retry loop', async () => {
    const board = { ...BOARD_4X8, phases: [] };
    await expect(client.runDebate('bad-board', { board, question: 'Go?' })).rejects.toThrow(
      /the submitted board does not load:[\s\S]*fix:/,
    );
  }, 30_000);
});

describe('meetings on Restate', () => {
  const briefFor = (marker: string) => ({ ...BRIEF, question: `${BRIEF.question} (${marker})` });

  it('runs a meeting once per id, deciding as the same meeting run in process', async () => {
    const local = loadBrief(briefFor('m-local'))._unsafeUnwrap();
    const inProcess = await runMeeting(local, { adapters: fakeProviderAdapters(fake.server.baseURL) });
    const started = Date.now();
    const submission = { brief: briefFor('m-once') };
    const [first, second] = await Promise.all([client.runMeeting('meet-once', submission), client.runMeeting('meet-once', submission)]);
    meetingBaseline = { result: first, durationMs: Date.now() - started, calls: sum(callsFor('m-once')) };
    expect(first.outcome).toBe('decided');
    expect(decidedMeeting(first)).toEqual(decidedMeeting(inProcess));
    expect(second).toEqual(first);
    expect(meetingBaseline.calls).toBe(first.usage.calls);
    expect(callsFor('m-once').size).toBe(first.usage.calls);
    expect(renderReport(meetingRunRecord(first, 'cloud'))).toMatch(/^<!doctype html>/i);
  }, 30_000);

  it(
    `SIGKILLed at ${MEETING_KILLS} seeded points, the restarted worker finishes each meeting with the same decision, paying again only for calls in flight`,
    async () => {
      const random = seededRandom(SEED + 1);
      let midRun = 0;
      for (let trial = 0; trial < MEETING_KILLS; trial += 1) {
        const marker = `m-kill-${SEED}-${trial}`;
        const submission = { brief: briefFor(marker) };
        const delayMs = Math.floor(random.next() * meetingBaseline.durationMs);
        const { result, journaled, killedAt } = await killWorkerDuring(
          () => client.submitMeeting(marker, submission),
          () => client.runMeeting(marker, submission),
          delayMs,
        );
        const context = `trial ${trial} (seed ${SEED}, kill after ${delayMs} ms, ${journaled.size} steps journaled)`;
        expect(decidedMeeting(result), context).toEqual(decidedMeeting(meetingBaseline.result));
        const calls = callsFor(marker);
        expect(calls.size, context).toBe(meetingBaseline.calls);
        for (const count of calls.values()) expect(count, context).toBeLessThanOrEqual(2);
        expect(sum(calls) - meetingBaseline.calls, context).toBeLessThanOrEqual(sum(callsFor(marker, killedAt)) - journaled.size);
        if (journaled.size < meetingBaseline.calls) midRun += 1;
      }
      expect(midRun).toBeGreaterThan(0);
    },
    30_000 + MEETING_KILLS * 15_000,
  );

  it('resumes a meeting whose members re-asked, the quick one before the slow one, after the worker died with both re-asks journaled', async () => {
    // `pm` answers off the slate quickly and `sec` slowly: live, pm's answer comes back first, while the roster lists sec first.
    const roster = (BRIEF.roster ?? []).map((member) =>
      member.id === 'sec'
        ? { ...member, model: 'openai:reask-slow' }
        : member.id === 'pm'
          ? { ...member, model: 'openai:reask-quick' }
          : member,
    );
    const submission = (marker: string) => ({ brief: { ...briefFor(marker), roster } });
    const baseline = await client.runMeeting('m-reask-once', submission('m-reask-once'));
    expect(baseline.record.rounds[0]?.turns.filter((turn) => turn.reasked).map((turn) => turn.memberId)).toEqual(['sec', 'pm']);

    const marker = 'm-reask-kill';
    const { invocationId } = await client.submitMeeting(marker, submission(marker));
    const reasks = ['meeting/0/turn/sec/2', 'meeting/0/turn/pm/2'];
    let journaled = new Set<string>();
    while (!reasks.every((name) => journaled.has(name))) {
      await sleep(5);
      journaled = await journaledStepNames(server.adminUrl, invocationId);
    }
    await worker.kill();
    journaled = await journaledStepNames(server.adminUrl, invocationId);
    await worker.start();
    const result = await client.runMeeting(marker, submission(marker));

    expect(decidedMeeting(result)).toEqual(decidedMeeting(baseline));
    const calls = callsFor(marker);
    for (const count of calls.values()) expect(count).toBeLessThanOrEqual(2);
    expect(journaled.size).toBeLessThan(baseline.usage.calls);
  }, 30_000);
});
