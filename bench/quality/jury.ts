/**
 * Simulated juries for the quality benchmark: judges of known accuracy, some in a model family
 * whose errors are correlated, some failing to answer. The generative model and its exact
 * likelihoods live here, apart from the rules being measured.
 *
 * A decision's truth is GO or NO_GO with probability 1/2. A judge is right with probability p.
 * In a family with error correlation ρ, the family draws one shared error (with the family's
 * accuracy) and each member copies it with probability c = √ρ, else errs on its own: the errors
 * of two members then correlate exactly ρ, and each member stays right with probability p.
 * A judge that believes GO scores in [7, 10], otherwise in [0, 5). A judge fails (casts no vote)
 * with the setting's failure rate, independently of everything else.
 */

/** One judge of a simulated board. */
export interface Judge {
  readonly id: string;
  readonly accuracy: number;
  /** The family it belongs to (undefined: independent). */
  readonly family?: string;
}

/** A simulated board: its judges and the error correlation inside its one family. */
export interface Jury {
  readonly judges: readonly Judge[];
  readonly rho: number;
  readonly failureRate: number;
}

/** One simulated decision: the truth, and each judge's belief and score (undefined: it failed). */
export interface Decision {
  readonly truthGo: boolean;
  readonly believesGo: readonly (boolean | undefined)[];
  readonly scores: readonly (number | undefined)[];
}

/**
 * Simulates one decision. Every decision draws the same random numbers in the same order whatever
 * ρ and the failure rate are (common random numbers): settings that differ only in ρ then differ
 * only where the correlation changes a judge's call, so the accuracy each rule loses to ρ is
 * measured on the same decisions, not buried in sampling noise.
 */
export function simulate(jury: Jury, random: () => number): Decision {
  const truthGo = random() < 0.5;
  const c = Math.sqrt(jury.rho);
  const shared = new Map<string, boolean>();
  const believesGo: (boolean | undefined)[] = [];
  const scores: (number | undefined)[] = [];
  for (const judge of jury.judges) {
    if (judge.family !== undefined && !shared.has(judge.family)) shared.set(judge.family, random() >= judge.accuracy);
    const copies = random() < c;
    const ownWrong = random() >= judge.accuracy;
    const wrong = judge.family !== undefined && copies ? (shared.get(judge.family) as boolean) : ownWrong;
    const failed = random() < jury.failureRate;
    const score = random();
    const belief = wrong ? !truthGo : truthGo;
    believesGo.push(failed ? undefined : belief);
    scores.push(failed ? undefined : belief ? 7 + 3 * score : 5 * score);
  }
  return { truthGo, believesGo, scores };
}

/**
 * The probability of the present judges' error pattern (true: that judge erred), exactly, under
 * the jury's model; judges whose entry is undefined are marginalised out. Errors do not depend on
 * the truth, so P(beliefs | truth) is this for the errors the beliefs imply.
 */
export function errorPatternProbability(jury: Jury, errors: readonly (boolean | undefined)[]): number {
  let p = 1;
  const families = new Map<string, number[]>();
  jury.judges.forEach((judge, i) => {
    const e = errors[i];
    if (e === undefined) return;
    if (judge.family !== undefined && jury.rho > 0) {
      const list = families.get(judge.family) ?? [];
      list.push(i);
      families.set(judge.family, list);
    } else p *= e ? 1 - judge.accuracy : judge.accuracy;
  });
  const c = Math.sqrt(jury.rho);
  for (const members of families.values()) {
    const pFamily = (jury.judges[members[0] as number] as Judge).accuracy;
    let total = 0;
    for (const sharedWrong of [false, true]) {
      let given = sharedWrong ? 1 - pFamily : pFamily;
      for (const i of members) {
        const e = errors[i] as boolean;
        const own = e ? 1 - (jury.judges[i] as Judge).accuracy : (jury.judges[i] as Judge).accuracy;
        given *= c * (e === sharedWrong ? 1 : 0) + (1 - c) * own;
      }
      total += given;
    }
    p *= total;
  }
  return p;
}

/** The likelihood ratio P(beliefs | GO) / P(beliefs | NO_GO) of the present judges' beliefs. */
export function likelihoodRatio(jury: Jury, believesGo: readonly (boolean | undefined)[]): number {
  const ifGo = errorPatternProbability(
    jury,
    believesGo.map((b) => (b === undefined ? undefined : !b)),
  );
  const ifNoGo = errorPatternProbability(
    jury,
    believesGo.map((b) => (b === undefined ? undefined : b)),
  );
  return ifGo / ifNoGo;
}

/** Every belief pattern of a full board with its probability under each truth, exactly (no failures). */
export function beliefPatterns(jury: Jury): { ifGo: number; ifNoGo: number; ratio: number }[] {
  const n = jury.judges.length;
  const patterns: { ifGo: number; ifNoGo: number; ratio: number }[] = [];
  for (let mask = 0; mask < 2 ** n; mask += 1) {
    const believesGo = Array.from({ length: n }, (_, i) => ((mask >> i) & 1) === 1);
    const ifGo = errorPatternProbability(
      jury,
      believesGo.map((b) => !b),
    );
    const ifNoGo = errorPatternProbability(jury, believesGo);
    patterns.push({ ifGo, ifNoGo, ratio: ifGo / ifNoGo });
  }
  return patterns;
}

/** The Bayes-optimal accuracy of a full board (prior 1/2, equal costs), exactly. */
export function optimalAccuracy(jury: Jury): number {
  return beliefPatterns(jury).reduce((total, p) => total + 0.5 * Math.max(p.ifGo, p.ifNoGo), 0);
}

/**
 * The Neyman–Pearson optimum at a false-GO rate, exactly: the GO recall of the likelihood-ratio
 * test that says GO to a decision deserving NO_GO at most `rate` of the time. `randomised` is the
 * textbook bound, which at the boundary says GO to a fraction of a pattern (a coin flip no gate
 * should make); `deterministic` takes whole likelihood-ratio levels only, the best a rule that
 * always answers the same way to the same votes can do by thresholding the likelihood ratio.
 */
export function neymanPearsonRecall(jury: Jury, rate: number): { randomised: number; deterministic: number } {
  const patterns = beliefPatterns(jury).sort((a, b) => b.ratio - a.ratio);
  let falseGo = 0;
  let recall = 0;
  for (let i = 0; i < patterns.length;) {
    // One likelihood-ratio level at a time: a deterministic threshold takes all of it or none.
    const level = (patterns[i] as { ratio: number }).ratio;
    let ifGo = 0;
    let ifNoGo = 0;
    for (; i < patterns.length && Math.abs((patterns[i] as { ratio: number }).ratio - level) <= 1e-12 * level; i += 1) {
      ifGo += (patterns[i] as { ifGo: number }).ifGo;
      ifNoGo += (patterns[i] as { ifNoGo: number }).ifNoGo;
    }
    if (falseGo + ifNoGo > rate) return { randomised: recall + (ifGo * (rate - falseGo)) / ifNoGo, deterministic: recall };
    falseGo += ifNoGo;
    recall += ifGo;
  }
  return { randomised: recall, deterministic: recall };
}
