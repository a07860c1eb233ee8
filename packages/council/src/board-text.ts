import { parseDataText } from '@conclave/core/data';
import type { Result } from 'neverthrow';
import type { BoardIssue } from './board-issue.js';
import { loadBoard, type Board, type LoadBoardOptions } from './board.js';

/**
 * Parses a board from YAML or JSON text (JSON is read by the same parser, since YAML 1.2 is a
 * superset) and validates it. Every issue carries the file, line and column it points at.
 *
 * @example
 * const result = parseBoard(await readFile('board.yaml', 'utf8'), { file: 'board.yaml' });
 * if (result.isErr()) for (const issue of result.error) console.error(formatBoardIssue(issue));
 */
export function parseBoard(text: string, options: LoadBoardOptions = {}): Result<Board, BoardIssue[]> {
  return parseDataText(text, options.file, (data) => loadBoard(data, options));
}
