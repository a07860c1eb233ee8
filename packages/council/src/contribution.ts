/** A piece of evidence a member cites for its position. */
export interface CitedEvidence {
  readonly claim: string;
  readonly source?: string;
}

/** One member's valid contribution to a debate: its statement and its scores on the rubric's axes `A`. */
export interface Contribution<A extends string = string> {
  readonly phase: string;
  readonly phaseIndex: number;
  readonly memberId: string;
  readonly model: string;
  readonly contrarian: boolean;
  readonly statement: string;
  readonly scores: Readonly<Record<A, number>>;
  /** The member's rubric-weighted score. */
  readonly score: number;
  readonly evidence: readonly CitedEvidence[];
  /** The member's stated confidence that its verdict is right, when its reply gave one ([0, 1]). */
  readonly confidence?: number;
}
