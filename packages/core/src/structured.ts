// @conclave/core/structured: a model's answer as typed data. askStructured (call, check with
// zod, re-ask once), parseStructured and the repair request, runStructured for adapters, and
// extractJson for a reply that wraps its JSON in prose.
export type { AskCall, AskResult, AskStructuredOptions, ModelExchange } from './ask-structured.js';
export { askStructured } from './ask-structured.js';
export type { StructuredParse } from './structured-output.js';
export { parseStructured, repairRequest } from './structured-output.js';
export type { StructuredRunOptions } from './structured-run.js';
export { runStructured } from './structured-run.js';
export { extractJson } from './extract-json.js';
