import type { CliIo } from './io.js';

const GREEN = '\x1b[32m';
const YELLOW = '\x1b[33m';
const RED = '\x1b[31m';
/** Resets the foreground only, so a painted token never ends someone else's style. */
const RESET = '\x1b[39m';

/**
 * The verdicts, statuses and answers worth a colour, longest first: at one position the regex
 * takes the first alternative that matches, so "not a GO: do not act" is red as a whole and its
 * "GO" is never green, and "NOT APPROVED" is never half green.
 */
const TOKENS: readonly (readonly [string, string])[] = [
  ['not a GO: do not act', RED],
  ['do not act', RED],
  ['may be acted on', GREEN],
  ['NOT APPROVED', RED],
  ['APPROVED', GREEN],
  ['BLOCKED', RED],
  ['REJECTED', RED],
  ['VETOED', RED],
  ['ESCALATED', YELLOW],
  ['NO_GO', RED],
  ['PIVOT', YELLOW],
  ['GO', GREEN],
];

const COLOURS = new Map(TOKENS);
// Whole words only (\w includes "_"): the GO inside NO_GO or GOAL, or "APPROVED" inside a longer word, stays plain.
const PATTERN = new RegExp(`(?<!\\w)(${TOKENS.map(([token]) => token).join('|')})(?!\\w)`, 'g');

/** Paints the verdict and status tokens of finished human output with ANSI colours. */
export function paint(text: string): string {
  return text.replace(PATTERN, (token) => `${COLOURS.get(token) ?? ''}${token}${RESET}`);
}

/**
 * Colour only for a person at a terminal: stdout is a TTY, `NO_COLOR` is unset or empty
 * (no-color.org), `TERM` is not `dumb`, and the output is not `--json` (a document for programs).
 */
export function wantsColour(io: CliIo, json: boolean): boolean {
  const noColor = io.env.NO_COLOR;
  return io.stdoutIsTTY === true && !json && (noColor === undefined || noColor === '') && io.env.TERM !== 'dumb';
}
