import type { ModelRequest, ResponseFormat } from '@conclave/core';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import * as z from 'zod';
import type { ZodType } from 'zod';

/** How a structured reply is asked for: Structured Outputs, or JSON mode with the schema in the system message. */
export type StructuredOutputMode = 'json_schema' | 'json_object';

/** Which request field carries the output token limit. */
export type TokenLimitParameter = 'max_completion_tokens' | 'max_tokens';

/** What `buildChatBody` needs besides the request. */
export interface ChatBodyOptions {
  readonly model: string;
  /** The adapter's default, used when the request names none. */
  readonly maxOutputTokens?: number;
  readonly tokenLimitParameter: TokenLimitParameter;
  readonly structuredOutput: StructuredOutputMode;
}

/**
 * The Chat Completions body for a request. `system` becomes the first message and the request's
 * messages follow in order, unchanged, so a shared prefix stays byte-identical and first (what
 * OpenAI's automatic prefix caching matches on). `metadata` and `cacheable` are not sent.
 */
export function buildChatBody(request: ModelRequest, options: ChatBodyOptions): ChatCompletionCreateParamsNonStreaming {
  const format = request.responseFormat;
  const schema = format === undefined ? undefined : jsonSchemaFor(format.schema);
  // JSON mode has no schema parameter: the model learns the shape from the system message.
  const useJsonMode = format !== undefined && (options.structuredOutput === 'json_object' || schema === undefined);
  const system = useJsonMode ? withSchemaInstructions(request.system, format.name, schema) : request.system;

  const messages: ChatCompletionMessageParam[] = [];
  if (system !== undefined) messages.push({ role: 'system', content: system });
  for (const message of request.messages) messages.push({ role: message.role, content: message.content });

  const body: ChatCompletionCreateParamsNonStreaming = { model: options.model, messages };
  const maxOutputTokens = request.maxOutputTokens ?? options.maxOutputTokens;
  if (maxOutputTokens !== undefined) body[options.tokenLimitParameter] = maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (format !== undefined) {
    body.response_format =
      useJsonMode || schema === undefined
        ? { type: 'json_object' }
        : { type: 'json_schema', json_schema: { name: schemaName(format), schema: schema.schema, strict: schema.strict } };
  }
  return body;
}

/** A zod schema as JSON Schema, and whether OpenAI's strict mode can take it as it is. */
export interface ConvertedSchema {
  readonly schema: Record<string, unknown>;
  readonly strict: boolean;
}

const converted = new WeakMap<ZodType, ConvertedSchema | null>();

/**
 * The JSON Schema of what the model must write, i.e. the schema's INPUT (the reply is parsed by
 * the zod schema, so transforms and defaults apply after it). Objects that do not say otherwise
 * get `additionalProperties: false`: zod drops unknown keys anyway, so the model never needs
 * them. `undefined` when zod cannot convert the schema; the adapter then uses JSON mode.
 */
export function jsonSchemaFor(schema: ZodType): ConvertedSchema | undefined {
  let entry = converted.get(schema);
  if (entry === undefined) {
    try {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      delete json['$schema'];
      closeObjects(json);
      entry = { schema: json, strict: isStrictCompatible(json) };
    } catch {
      entry = null;
    }
    converted.set(schema, entry);
  }
  return entry ?? undefined;
}

function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) closeObjects(child);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if (record['type'] === 'object' && record['additionalProperties'] === undefined && record['propertyNames'] === undefined) {
    record['additionalProperties'] = false;
  }
  for (const key of SUBSCHEMA_KEYWORDS) closeObjects(record[key]);
  for (const key of SUBSCHEMA_MAP_KEYWORDS) {
    const map = record[key];
    if (typeof map === 'object' && map !== null) for (const child of Object.values(map)) closeObjects(child);
  }
}

/** Keywords whose value is a schema or an array of schemas. */
const SUBSCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'contains',
];
/** Keywords whose value maps names to schemas. */
const SUBSCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions'];

/**
 * Keywords a strict schema may use. Deliberately narrower than what OpenAI documents: a schema
 * outside it is sent with `strict: false` (still constrained, and validated by zod here) rather
 * than risk a 400. `pattern` is left out because zod's regexes may use syntax OpenAI rejects.
 */
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'title',
  '$ref',
  '$defs',
  'definitions',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/**
 * Whether OpenAI's strict Structured Outputs accepts the schema unchanged: an object at the root,
 * every object closed (`additionalProperties: false`) with every property required, every node
 * typed, and only supported keywords.
 */
export function isStrictCompatible(schema: Record<string, unknown>): boolean {
  if (schema['type'] !== 'object' || schema['anyOf'] !== undefined) return false;
  return strictNode(schema);
}

function strictNode(node: unknown): boolean {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
  const record = node as Record<string, unknown>;
  if (!Object.keys(record).every((key) => STRICT_KEYWORDS.has(key))) return false;
  if (!['type', 'anyOf', '$ref', 'enum', 'const'].some((key) => key in record)) return false;
  const properties = record['properties'];
  if (record['type'] === 'object' || properties !== undefined) {
    if (record['additionalProperties'] !== false) return false;
    const keys = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
    const required = Array.isArray(record['required']) ? (record['required'] as unknown[]) : [];
    if (!keys.every((key) => required.includes(key))) return false;
    if (!Object.values((properties ?? {}) as Record<string, unknown>).every(strictNode)) return false;
  }
  const items = record['items'];
  if (items !== undefined && !strictNode(items)) return false;
  const anyOf = record['anyOf'];
  if (anyOf !== undefined && !(Array.isArray(anyOf) && anyOf.every(strictNode))) return false;
  for (const key of ['$defs', 'definitions']) {
    const defs = record[key];
    if (defs !== undefined && !(typeof defs === 'object' && defs !== null && Object.values(defs).every(strictNode))) return false;
  }
  return true;
}

/** A name OpenAI accepts: `^[a-zA-Z0-9_-]{1,64}$`. */
export function schemaName(format: ResponseFormat): string {
  const name = format.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return name === '' ? 'response' : name;
}

function withSchemaInstructions(system: string | undefined, name: string, schema: ConvertedSchema | undefined): string {
  const instructions =
    schema === undefined
      ? `Reply with only a JSON object (${name}), with no prose and no code fence.`
      : `Reply with only a JSON object (${name}), with no prose and no code fence, that matches this JSON Schema:\n${JSON.stringify(schema.schema)}`;
  return system === undefined || system === '' ? instructions : `${system}\n\n${instructions}`;
}
