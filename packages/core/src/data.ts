// @conclave/core/data: reading foreign data safely. toPlainData, parseJsonText and parseDataText
// (JSON or YAML text with issues placed by line and column), the input bounds every loader
// enforces, and data paths.
export type { DataPath, SyntaxIssue, TextPosition } from './data-text.js';
// Apart from data-text.ts, which needs the YAML parser: a bundle that only checks data keeps no YAML.
export { dataPathLocator, parseDataText } from './data-text.js';
export { formatDataPath } from './issue.js';
export type { LimitIssue } from './input-bounds.js';
export { checkInputBounds, readBoundedInput } from './input-bounds.js';
export type { InputLimitCode } from './input-limits.js';
export {
  formatByteSize,
  MAX_INPUT_BYTES,
  MAX_INPUT_VALUES,
  MAX_LIST_ENTRIES,
  MAX_NESTING_DEPTH,
  MAX_STRING_LENGTH,
  MAX_YAML_ALIAS_EXPANSION,
  utf8ByteLength,
} from './input-limits.js';
export type { PlainData, PlainDataLimits, PlainDataRefusal, PlainDataResult } from './plain-data.js';
export { describePlainDataRefusal, MAX_PLAIN_DEPTH, MAX_PLAIN_NODES, MAX_PLAIN_STRING_LENGTH, toPlainData } from './plain-data.js';
export type { JsonSyntaxError, JsonTextResult } from './json-text.js';
export { lineColumn, parseJsonText } from './json-text.js';
