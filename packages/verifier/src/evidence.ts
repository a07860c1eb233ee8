/** Where a piece of evidence comes from. */
export const EVIDENCE_KINDS = ['test', 'gate', 'document', 'measurement', 'model_statement', 'human'] as const;

/** One kind of evidence source. */
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** A gate or a test that ran, and whether it passed: the strongest evidence there is. */
export interface ValidationSignal {
  readonly kind: 'gate' | 'test';
  /** What ran, e.g. `npm test` or `gate:build`. */
  readonly name: string;
  readonly passed: boolean;
  /** Free text for people (an excerpt of output); the verifier never reads it. */
  readonly detail?: string;
}

/** One structured piece of evidence for a decision. */
export interface Evidence {
  readonly id: string;
  /** The source it comes from (a file, a gate, a member); the monoculture check counts these. */
  readonly sourceId: string;
  readonly kind: EvidenceKind;
  /** How much the evidence would move the decision if true, in [0, 1]. */
  readonly strength: number;
  /** How sure we are that it is true, in [0, 1]. */
  readonly confidence: number;
  /** The id of the claim it supports. */
  readonly supports: string;
  readonly validation?: readonly ValidationSignal[];
  /** Free text for people; the verifier never reads it. */
  readonly statement?: string;
}
