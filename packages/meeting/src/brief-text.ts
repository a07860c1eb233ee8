import { parseDataText } from '@conclave/core/data';
import type { Result } from 'neverthrow';
import type { BriefIssue } from './brief-issue.js';
import { loadBrief, type Brief, type LoadBriefOptions } from './brief.js';

/**
 * Parses a brief from YAML or JSON text (JSON is read by the same parser, since YAML 1.2 is a
 * superset) and validates it. Every issue carries the file, line and column it points at.
 *
 * @example
 * const result = parseBrief(await readFile('brief.yaml', 'utf8'), { file: 'brief.yaml' });
 * if (result.isErr()) for (const issue of result.error) console.error(formatBriefIssue(issue));
 */
export function parseBrief(text: string, options: LoadBriefOptions = {}): Result<Brief, BriefIssue[]> {
  return parseDataText(text, options.file, (data) => loadBrief(data, options));
}
