/** A parsed model reference such as `anthropic:claude-sonnet-5-5` or `offline:analyst`. */
export interface ModelRef {
  /** The provider: the part before the first colon (also the model family for correlation warnings). */
  readonly provider: string;
  /** The model as the provider names it: everything after the first colon. */
  readonly model: string;
}

const MODEL_REF = /^([a-z][a-z0-9-]*):(\S.*)$/;

/** Parses `provider:model`; `undefined` when the string is not a model reference. */
export function parseModelRef(ref: string): ModelRef | undefined {
  const match = MODEL_REF.exec(ref);
  if (!match) return undefined;
  return { provider: match[1] as string, model: match[2] as string };
}
