/** The provider prefix of an OpenAI model reference. */
export const OPENAI_REF_PREFIX = 'openai:';
/** The provider prefix of a reference to an OpenAI-compatible server. */
export const OPENAI_COMPATIBLE_REF_PREFIX = 'openai-compatible:';

/** Adapter options a model reference determines. */
export interface OpenAIModelRefOptions {
  readonly model: string;
  readonly id: 'openai' | 'openai-compatible';
  /** Only for `openai-compatible:` references. */
  readonly baseURL?: string;
}

/** A parsed reference, or why the string is not one. */
export type OpenAIModelRefResult =
  { readonly ok: true; readonly options: OpenAIModelRefOptions } | { readonly ok: false; readonly error: string };

const EXPECTED =
  "expected 'openai:<model>' (e.g. 'openai:gpt-4o-mini') or 'openai-compatible:<baseURL>#<model>' (e.g. 'openai-compatible:http://localhost:11434/v1#llama3.2')";

/**
 * Reads a board's model reference into adapter options: `openai:<model>` for OpenAI itself,
 * `openai-compatible:<baseURL>#<model>` for a compatible server (Ollama, vLLM, llama.cpp,
 * OpenRouter). Never throws: a malformed reference gives `{ ok: false, error }` naming the
 * expected form.
 *
 * @example
 * const ref = openaiModelFromRef('openai-compatible:http://localhost:11434/v1#llama3.2');
 * if (ref.ok) createOpenAIAdapter({ ...ref.options });
 */
export function openaiModelFromRef(ref: string): OpenAIModelRefResult {
  const fail = (why: string): OpenAIModelRefResult => ({
    ok: false,
    error: `${why} in model reference ${JSON.stringify(ref)}: ${EXPECTED}`,
  });
  if (typeof ref !== 'string') return { ok: false, error: `a model reference must be a string: ${EXPECTED}` };

  if (ref.startsWith(OPENAI_REF_PREFIX)) {
    const model = ref.slice(OPENAI_REF_PREFIX.length);
    if (model.trim() === '') return fail('no model');
    if (/\s/.test(model)) return fail('whitespace in the model name');
    return { ok: true, options: { model, id: 'openai' } };
  }

  if (ref.startsWith(OPENAI_COMPATIBLE_REF_PREFIX)) {
    const rest = ref.slice(OPENAI_COMPATIBLE_REF_PREFIX.length);
    const hash = rest.lastIndexOf('#');
    if (hash === -1) return fail("no '#' between the base URL and the model");
    const baseURL = rest.slice(0, hash);
    const model = rest.slice(hash + 1);
    if (baseURL === '') return fail('no base URL');
    if (model.trim() === '') return fail('no model after the #');
    if (/\s/.test(model)) return fail('whitespace in the model name');
    let url: URL;
    try {
      url = new URL(baseURL);
    } catch {
      return fail(`the base URL ${JSON.stringify(baseURL)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`the base URL must be http or https, not ${url.protocol}`);
    return { ok: true, options: { model, id: 'openai-compatible', baseURL } };
  }

  return fail('not an OpenAI provider');
}
