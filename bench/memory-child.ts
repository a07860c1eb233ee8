/**
 * Child process of the memory benchmark: runs ONE 8-phase × 32-member debate whose members each
 * reply with a 2 048-character statement, then prints one JSON line on stdout with the
 * process's baseline and peak resident set size. Run alone, not imported: the peak it reports
 * (`process.resourceUsage().maxRSS`) is for the whole process, so nothing else may share it.
 *
 * Usage: node --import tsx bench/memory-child.ts (after npm run build)
 */
import { DebateEngine } from '@conclave/council';
import { instantPerMemberAdapter, memberIds, mulberry32, replyText, scoresFrom, syntheticBoard } from './fixtures.js';

/** What the child prints; sizes in kilobytes, as `maxRSS` reports them. */
export interface MemoryChildReport {
  readonly phases: number;
  readonly members: number;
  readonly statementChars: number;
  readonly status: string;
  readonly validContributions: number;
  readonly failures: number;
  readonly debateMs: number;
  /** RSS just before the debate: node, tsx, the packages and the board loaded. */
  readonly baselineRssKb: number;
  /** Peak RSS up to the same moment. */
  readonly baselineMaxRssKb: number;
  /** Peak RSS over the whole life of the process, debate included. */
  readonly peakRssKb: number;
  readonly rssAfterKb: number;
  readonly heapUsedAfterKb: number;
}

const PHASES = 8;
// 8 × 32 = 256, the most members a board may have (MAX_BOARD_MEMBERS): an 8 × 64 board no longer loads.
const MEMBERS = 32;
const STATEMENT_CHARS = 2048;
const FILLER = 'The council weighs feasibility, revenue, customer experience, time to market and risk; ';

function statementFor(id: string): string {
  let text = `${id}: `;
  while (text.length < STATEMENT_CHARS) text += FILLER;
  return text.slice(0, STATEMENT_CHARS);
}

const board = syntheticBoard(PHASES, MEMBERS);
const random = mulberry32(42);
const replies = new Map(memberIds(board).map((id) => [id, replyText(statementFor(id), scoresFrom(random))]));
const adapters = { offline: instantPerMemberAdapter(replies) };

const kb = (bytes: number) => Math.round(bytes / 1024);
const baselineRssKb = kb(process.memoryUsage().rss);
const baselineMaxRssKb = process.resourceUsage().maxRSS;

const started = performance.now();
const result = await new DebateEngine().run(board, { question: 'launch the benchmark product', adapters });
const debateMs = performance.now() - started;

const report: MemoryChildReport = {
  phases: PHASES,
  members: MEMBERS,
  statementChars: STATEMENT_CHARS,
  status: result.status,
  validContributions: result.transcript.length,
  failures: result.failures.length,
  debateMs: Math.round(debateMs * 10) / 10,
  baselineRssKb,
  baselineMaxRssKb,
  peakRssKb: process.resourceUsage().maxRSS,
  rssAfterKb: kb(process.memoryUsage().rss),
  heapUsedAfterKb: kb(process.memoryUsage().heapUsed),
};
console.log(JSON.stringify(report));
