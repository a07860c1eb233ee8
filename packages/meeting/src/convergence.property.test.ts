import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessRound, initialConvergence, stepConvergence, type ConvergenceState } from './convergence.js';
import type { GroupthinkTrigger } from './groupthink.js';
import { EMPTY_LEDGER, recordObjections, type ObjectionLedger } from './objection-ledger.js';
import { curateSlate, openingSlate, type OptionSlate } from './option-slate.js';

const MEMBERS = ['m1', 'm2', 'm3', 'm4'] as const;
const TRIGGER: GroupthinkTrigger = { kind: 'near_unanimity', option: 'a', dissenters: 1 };

/** One round's raw input: each member's preference (absent = abstained), objections, proposals. */
interface RoundInput {
  readonly prefs: ReadonlyMap<string, string>;
  readonly objections: readonly { readonly memberId: string; readonly text: string; readonly severity: 'substantive' | 'minor' }[];
  readonly proposals: readonly { readonly memberId: string; readonly id: string }[];
  readonly triggersFire: boolean;
  /** Repeat the previous round's preferences: quiet rounds must be common for the test to bite. */
  readonly keep?: boolean;
}

const roundInput: fc.Arbitrary<RoundInput> = fc.record({
  prefs: fc
    .tuple(...MEMBERS.map(() => fc.option(fc.constantFrom('a', 'b', 'x'), { nil: undefined, freq: 6 })))
    .map((choices) => new Map(choices.flatMap((choice, i) => (choice === undefined ? [] : [[MEMBERS[i] as string, choice] as const])))),
  objections: fc.oneof(
    { arbitrary: fc.constant([]), weight: 2 },
    {
      arbitrary: fc.array(
        fc.record({
          memberId: fc.constantFrom(...MEMBERS),
          text: fc.constantFrom('cost', 'latency', 'lock-in'),
          severity: fc.constantFrom('substantive' as const, 'minor' as const),
        }),
        { minLength: 1, maxLength: 2 },
      ),
      weight: 1,
    },
  ),
  proposals: fc.oneof(
    { arbitrary: fc.constant([]), weight: 2 },
    {
      arbitrary: fc.array(fc.record({ memberId: fc.constantFrom(...MEMBERS), id: fc.constantFrom('a', 'x', 'y', 'z') }), {
        minLength: 1,
        maxLength: 1,
      }),
      weight: 1,
    },
  ),
  triggersFire: fc.boolean(),
  keep: fc.boolean(),
});

/** The system under test: the library's pure pieces wired the way the runner wires them. */
class Real {
  ledger: ObjectionLedger = EMPTY_LEDGER;
  slate: OptionSlate = openingSlate([
    { id: 'a', title: 'A', summary: 'a' },
    { id: 'b', title: 'B', summary: 'b' },
  ]);
  previous: ReadonlyMap<string, string>;
  state: ConvergenceState;
  adversarial = false;
  round = 0;
  constructor(prep: ReadonlyMap<string, string>, prepTriggers: boolean) {
    this.previous = prep;
    this.state = initialConvergence(prepTriggers ? [TRIGGER] : []);
  }
  step(input: RoundInput): boolean {
    this.round += 1;
    const ledger = recordObjections(
      this.ledger,
      this.round,
      input.objections.map(({ memberId, text, severity }) => ({ memberId, objection: { text, severity } })),
    );
    this.ledger = ledger.ledger;
    const slate = curateSlate(
      this.slate,
      this.round,
      input.proposals.map(({ memberId, id }) => ({ memberId, option: { id, title: id.toUpperCase(), summary: id } })),
      100,
    );
    this.slate = slate.slate;
    const assessment = assessRound({
      previous: this.previous,
      current: input.prefs,
      newSubstantive: ledger.newSubstantive.length,
      slateStable: slate.stable,
    });
    const step = stepConvergence(this.state, {
      round: this.round,
      adversarial: this.adversarial,
      assessment,
      triggers: input.triggersFire ? [TRIGGER] : [],
    });
    this.state = step.state;
    this.adversarial = step.nextAdversarial;
    this.previous = input.prefs;
    return step.verdict.converged;
  }
}

/** The model: the definition of convergence in plain terms, with its own bookkeeping. */
interface Model {
  previous: ReadonlyMap<string, string>;
  substantiveSeen: Set<string>;
  options: Set<string>;
  guardOwed: boolean;
  guardSpent: boolean;
  adversarialNext: boolean;
  converged: boolean;
}

class RoundCommand implements fc.Command<Model, Real> {
  constructor(readonly input: RoundInput) {}
  check(model: Readonly<Model>): boolean {
    // A converged meeting ends; the rule says nothing about rounds after it.
    return !model.converged;
  }
  run(model: Model, real: Real): void {
    const input: RoundInput = this.input.keep === true ? { ...this.input, prefs: model.previous } : this.input;
    const members = new Set([...model.previous.keys(), ...input.prefs.keys()]);
    const moved = [...members].some((m) => model.previous.get(m) !== input.prefs.get(m));
    const newSubstantive = input.objections.some((o) => o.severity === 'substantive' && !model.substantiveSeen.has(o.text));
    const newOption = input.proposals.some((p) => !model.options.has(p.id));
    const quiet = !moved && !newSubstantive && !newOption;
    const wasAdversarial = model.adversarialNext;
    if (wasAdversarial) model.guardSpent = true;
    // Too-easy agreement on a quiet round owes one extra adversarial round, once per meeting.
    if (quiet && input.triggersFire && !model.guardSpent) model.guardOwed = true;
    const expected = quiet && (model.guardSpent || !model.guardOwed);

    expect(real.step(input)).toBe(expected);
    if (moved) expect(expected).toBe(false);

    for (const o of input.objections) if (o.severity === 'substantive') model.substantiveSeen.add(o.text);
    for (const p of input.proposals) model.options.add(p.id);
    model.adversarialNext = quiet && !expected && model.guardOwed && !model.guardSpent;
    model.previous = input.prefs;
    model.converged = expected;
  }
  toString(): string {
    return `Round(${JSON.stringify({ ...this.input, prefs: [...this.input.prefs] })})`;
  }
}

describe('convergence', () => {
  it('matches its definition over random stance sequences (model-based)', () => {
    fc.assert(
      fc.property(
        roundInput,
        fc.boolean(),
        fc.commands([roundInput.map((input) => new RoundCommand(input))], { maxCommands: 12 }),
        (prep, prepTriggers, commands) => {
          const real = new Real(prep.prefs, prepTriggers);
          const model: Model = {
            previous: prep.prefs,
            substantiveSeen: new Set(),
            options: new Set(['a', 'b']),
            guardOwed: prepTriggers,
            guardSpent: false,
            adversarialNext: false,
            converged: false,
          };
          fc.modelRun(() => ({ model, real }), commands);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never converges on a round in which any preference moved', () => {
    fc.assert(
      fc.property(
        roundInput,
        roundInput,
        fc.constantFrom<ConvergenceState['guard']>('idle', 'pending', 'held'),
        fc.boolean(),
        (before, after, guard, adversarial) => {
          const assessment = assessRound({ previous: before.prefs, current: after.prefs, newSubstantive: 0, slateStable: true });
          const step = stepConvergence({ guard, converged: false }, { round: 1, adversarial, assessment, triggers: [] });
          const moved = [...new Set([...before.prefs.keys(), ...after.prefs.keys()])].some(
            (m) => before.prefs.get(m) !== after.prefs.get(m),
          );
          if (moved) expect(step.verdict.converged).toBe(false);
          else expect(step.verdict.converged).toBe(guard !== 'pending' || adversarial);
        },
      ),
    );
  });

  it('movement onto the front-runner is progress: it converges only after a following quiet round', () => {
    const prep = new Map([
      ['m1', 'a'],
      ['m2', 'a'],
      ['m3', 'b'],
      ['m4', 'b'],
    ]);
    const real = new Real(prep, false);
    const allA = new Map(MEMBERS.map((m) => [m, 'a']));
    expect(real.step({ prefs: allA, objections: [], proposals: [], triggersFire: false })).toBe(false);
    expect(real.step({ prefs: allA, objections: [], proposals: [], triggersFire: false })).toBe(true);
  });

  it('a new substantive objection or a new option blocks convergence even when nobody moved', () => {
    const prefs = new Map(MEMBERS.map((m) => [m, 'a']));
    const objecting = new Real(prefs, false);
    expect(
      objecting.step({
        prefs,
        objections: [{ memberId: 'm1', text: 'cost', severity: 'substantive' }],
        proposals: [],
        triggersFire: false,
      }),
    ).toBe(false);
    const minor = new Real(prefs, false);
    expect(
      minor.step({ prefs, objections: [{ memberId: 'm1', text: 'cost', severity: 'minor' }], proposals: [], triggersFire: false }),
    ).toBe(true);
    const proposing = new Real(prefs, false);
    expect(proposing.step({ prefs, objections: [], proposals: [{ memberId: 'm2', id: 'z' }], triggersFire: false })).toBe(false);
  });
});
