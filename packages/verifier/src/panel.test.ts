import { defineRubric } from '@conclave/scoring';
import { buildDecisionRecord, revokedProxy, withThrowingGetter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from './decision-record.js';
import type { DecisionView } from './decision-view.js';
import type { Evidence } from './evidence.js';
import type { Lens, LensDecision, LensResult } from './lens.js';
import { BUILT_IN_LENSES, COHERENCE, DOMAIN, FAITHFULNESS } from './lenses/built-in.js';
import { claimsLens } from './lenses/claims-lens.js';
import { createPanel, createPanelHistory, isPanelEmissionApproved, PanelConfigError, verifyPanel, type PanelVerdict } from './panel.js';

const rubric = defineRubric({ id: 'unit', axes: ['q'], weights: { q: 1 } });
const passing: Evidence = {
  id: 'e1',
  sourceId: 'npm test',
  kind: 'test',
  strength: 0.9,
  confidence: 0.9,
  supports: 'consensus',
  validation: [{ kind: 'test', name: 'npm test', passed: true }],
};
const document: Evidence = { id: 'e2', sourceId: 'docs/adr.md', kind: 'document', strength: 0.9, confidence: 0.9, supports: 'consensus' };

function record(
  scores: readonly number[] = [8, 8, 8],
  evidence: readonly Evidence[] = [passing, document],
  id = 'decision-1',
): DecisionRecord {
  return buildDecisionRecord({ id, tier: 'T3', rubric, votes: scores.map((q, i) => ({ memberId: `m${i + 1}`, scores: { q } })), evidence });
}

/** A lens that always decides `decision`. */
const fixed = (name: string, decision: LensDecision): Lens => ({
  name,
  evaluate: () => ({ decision, reasons: [`${name} says ${decision}`] }),
});
const lensNamed = (verdict: PanelVerdict, name: string): LensResult => {
  const found = verdict.lenses.find((l) => l.lens === name);
  if (found === undefined) throw new Error(`no lens ${name}`);
  return found;
};

describe('building a panel', () => {
  it('defaults to COHERENCE, FAITHFULNESS and DOMAIN with a quorum of 2 and escalation after 3', () => {
    const panel = createPanel();
    expect(panel.lenses.map((l) => l.name)).toEqual(['COHERENCE', 'FAITHFULNESS', 'DOMAIN']);
    expect(BUILT_IN_LENSES).toEqual([COHERENCE, FAITHFULNESS, DOMAIN]);
    expect(panel.quorum).toBe(2);
    expect(panel.escalateAfter).toBe(3);
  });

  it('accepts lenses of your own beside the built-in ones', () => {
    const panel = createPanel({ lenses: [...BUILT_IN_LENSES, fixed('SECURITY', 'approve')], quorum: 4 });
    const verdict = panel.verify(record());
    expect(verdict.lenses.map((l) => l.lens)).toEqual(['COHERENCE', 'FAITHFULNESS', 'DOMAIN', 'SECURITY']);
    expect(verdict).toMatchObject({ status: 'approved', approvals: 4, quorum: 4 });
  });

  const bad: readonly [string, Parameters<typeof createPanel>[0], RegExp][] = [
    ['duplicate lens names', { lenses: [fixed('A', 'approve'), fixed('A', 'approve'), fixed('B', 'approve')] }, /duplicate lens name "A"/],
    ['a built-in lens twice', { lenses: [COHERENCE, COHERENCE, DOMAIN] }, /duplicate lens name "COHERENCE"/],
    ['a quorum above the number of lenses', { quorum: 4 }, /quorum: 4 approvals can never come from 3 lenses/],
    ['a quorum of 0', { quorum: 0 }, /quorum: must be a whole number of at least 1/],
    ['a fractional quorum', { quorum: 1.5 }, /quorum: must be a whole number/],
    ['a NaN quorum', { quorum: Number.NaN }, /quorum/],
    ['no lenses', { lenses: [], quorum: 1 }, /at least one lens/],
    ['escalateAfter 0', { escalateAfter: 0 }, /escalateAfter/],
    ['a fractional escalateAfter', { escalateAfter: 2.5 }, /escalateAfter/],
    [
      'a lens whose name throws when read',
      { lenses: [fixed('A', 'approve'), withThrowingGetter(fixed('B', 'approve'), 'name')], quorum: 1 },
      /lenses\[1\]: reading its name threw/,
    ],
    ['a lens behind a revoked proxy', { lenses: [revokedProxy(fixed('A', 'approve'))], quorum: 1 }, /lenses\[0\]: reading its name threw/],
    [
      'a lens whose name is not a string',
      { lenses: [{ ...fixed('A', 'approve'), name: 7 as never }], quorum: 1 },
      /lenses\[0\]: its name must be a string/,
    ],
  ];

  it.each(bad)('refuses %s with a PanelConfigError, in createPanel and in verifyPanel', (_name, options, message) => {
    expect(() => createPanel(options)).toThrow(PanelConfigError);
    expect(() => createPanel(options)).toThrow(message);
    expect(() => verifyPanel(record(), options)).toThrow(PanelConfigError);
  });

  it('keeps its own copy of the lenses: changing the list afterwards cannot slip in a duplicate', () => {
    const lenses = [fixed('A', 'approve'), fixed('B', 'approve')];
    const panel = createPanel({ lenses, quorum: 2 });
    lenses.push(fixed('A', 'veto'));
    expect(panel.lenses.map((l) => l.name)).toEqual(['A', 'B']);
    expect(panel.verify(record()).status).toBe('approved');
  });

  it('lists every problem at once', () => {
    try {
      createPanel({ lenses: [fixed('A', 'approve'), fixed('A', 'approve')], quorum: 3, escalateAfter: 0 });
      expect.unreachable('the panel was built');
    } catch (error) {
      expect((error as PanelConfigError).issues).toHaveLength(3);
    }
  });
});

describe('the built-in lenses', () => {
  it('all approve a sound record', () => {
    const verdict = verifyPanel(record());
    expect(verdict.lenses.map((l) => l.decision)).toEqual(['approve', 'approve', 'approve']);
    expect(verdict).toMatchObject({ status: 'approved', approvals: 3, vetoedBy: [] });
    expect(isPanelEmissionApproved(verdict)).toBe(true);
    expect(verdict.report.approved).toBe(true);
  });

  it('COHERENCE vetoes a record whose score does not add up, naming the claim', () => {
    const lied = structuredClone(record([6, 6, 6]));
    Object.assign(lied.consensus, { score: 7.5, verdict: 'GO' });
    const verdict = verifyPanel(lied);
    expect(lensNamed(verdict, 'COHERENCE').decision).toBe('veto');
    expect(lensNamed(verdict, 'COHERENCE').reasons.join('\n')).toContain('score_matches_votes');
    expect(verdict.status).toBe('vetoed');
    expect(verdict.vetoedBy).toEqual(['COHERENCE']);
  });

  it('COHERENCE vetoes a record without a quorum', () => {
    expect(lensNamed(verifyPanel(record([8, 8])), 'COHERENCE').decision).toBe('veto');
  });

  it('FAITHFULNESS vetoes a record with no evidence', () => {
    const verdict = verifyPanel(record([8, 8, 8], []));
    expect(lensNamed(verdict, 'FAITHFULNESS')).toMatchObject({ decision: 'veto' });
    expect(verdict.status).toBe('vetoed');
  });

  it('FAITHFULNESS rejects (without vetoing) evidence below the floors', () => {
    const weak = verifyPanel(record([8, 8, 8], [{ ...passing, confidence: 0.2 }, document]));
    expect(lensNamed(weak, 'FAITHFULNESS').decision).toBe('reject');
    expect(lensNamed(weak, 'FAITHFULNESS').reasons[0]).toContain('evidence_clears_floors');
    // The other two approve: two approvals meet the quorum and nobody vetoed.
    expect(weak).toMatchObject({ status: 'approved', approvals: 2 });
  });

  it('DOMAIN vetoes a GO with no passing gate or test', () => {
    const verdict = verifyPanel(
      record([8, 8, 8], [{ ...passing, validation: [{ kind: 'test', name: 'npm test', passed: false }] }, document]),
    );
    expect(lensNamed(verdict, 'DOMAIN').decision).toBe('veto');
    expect(verdict.status).toBe('vetoed');
    expect(isPanelEmissionApproved(verdict)).toBe(false);
  });

  it('DOMAIN rejects a monoculture of evidence', () => {
    const verdict = verifyPanel(record([8, 8, 8], [passing, { ...document, kind: 'test' }]));
    expect(lensNamed(verdict, 'DOMAIN').decision).toBe('reject');
  });

  it('every built-in lens vetoes a malformed or unreadable record', () => {
    for (const bad of [null, {}, { ...record(), tier: 'T7' }]) {
      const verdict = verifyPanel(bad as unknown as DecisionRecord);
      expect(verdict.lenses.map((l) => l.decision)).toEqual(['veto', 'veto', 'veto']);
      expect(verdict.status).toBe('vetoed');
    }
  });

  it('a claims lens rejects a claim it cannot find, and an unprovable one', () => {
    const verdict = verifyPanel(record([8]), {
      lenses: [claimsLens('CUSTOM', { members_self_consistent: 'veto' }), fixed('A', 'approve')],
      quorum: 1,
    });
    // members_self_consistent is unprovable without a quorum: reject, not veto.
    expect(lensNamed(verdict, 'CUSTOM').decision).toBe('reject');
    expect(lensNamed(verdict, 'CUSTOM').reasons[0]).toContain('unprovable');
  });
});

describe('quorum and veto', () => {
  it('approves with approvals ≥ quorum and no veto', () => {
    const verdict = verifyPanel(record(), { lenses: [fixed('A', 'approve'), fixed('B', 'approve'), fixed('C', 'reject')], quorum: 2 });
    expect(verdict).toMatchObject({ status: 'approved', approvals: 2, quorum: 2, vetoedBy: [] });
  });

  it('rejects with fewer approvals than the quorum', () => {
    const verdict = verifyPanel(record(), { lenses: [fixed('A', 'approve'), fixed('B', 'reject'), fixed('C', 'reject')], quorum: 2 });
    expect(verdict).toMatchObject({ status: 'rejected', approvals: 1 });
    expect(isPanelEmissionApproved(verdict)).toBe(false);
  });

  it('one veto blocks even when every other lens approves and the quorum is met', () => {
    const verdict = verifyPanel(record(), {
      lenses: [fixed('A', 'approve'), fixed('B', 'approve'), fixed('C', 'approve'), fixed('D', 'veto')],
      quorum: 1,
    });
    expect(verdict).toMatchObject({ status: 'vetoed', approvals: 3, vetoedBy: ['D'] });
    expect(isPanelEmissionApproved(verdict)).toBe(false);
  });

  const garbage: readonly [string, () => unknown][] = [
    ['undefined', () => undefined],
    ['null', () => null],
    ['a string', () => 'approve'],
    ['an unknown decision', () => ({ decision: 'maybe', reasons: [] })],
    ['no reasons', () => ({ decision: 'approve' })],
    ['reasons that are not a list', () => ({ decision: 'approve', reasons: 'fine' })],
    ['a Promise of an approval', () => Promise.resolve({ decision: 'approve', reasons: [] })],
    [
      'a judgement whose decision getter throws',
      () => ({
        get decision(): string {
          throw new Error('gotcha');
        },
        reasons: [],
      }),
    ],
    [
      'a judgement whose reasons throw when copied',
      () => ({
        decision: 'approve',
        reasons: new Proxy([], {
          get() {
            throw new Error('gotcha');
          },
        }),
      }),
    ],
  ];

  it.each(garbage)('a lens that returns %s vetoes, and the panel does not throw', (_name, answer) => {
    const liar: Lens = { name: 'LIAR', evaluate: answer as Lens['evaluate'] };
    let verdict: PanelVerdict | undefined;
    expect(() => {
      verdict = verifyPanel(record(), { lenses: [fixed('A', 'approve'), fixed('B', 'approve'), liar], quorum: 2 });
    }).not.toThrow();
    expect(verdict?.status).toBe('vetoed');
    expect(verdict?.vetoedBy).toEqual(['LIAR']);
  });

  it('a lens that throws vetoes, with the error among its reasons', () => {
    const crashing: Lens = {
      name: 'CRASH',
      evaluate: () => {
        throw new Error('lens exploded');
      },
    };
    const verdict = verifyPanel(record(), { lenses: [fixed('A', 'approve'), fixed('B', 'approve'), crashing] });
    expect(lensNamed(verdict, 'CRASH')).toMatchObject({ decision: 'veto', reasons: ['the lens failed: lens exploded'] });
    expect(verdict.status).toBe('vetoed');
  });

  it('a lens that throws something unprintable vetoes, and the panel does not throw', () => {
    const unprintable: Lens = {
      name: 'WEIRD',
      evaluate: () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a lens may throw anything
        throw {
          toString: () => {
            throw new Error('no');
          },
        };
      },
    };
    let verdict: PanelVerdict | undefined;
    expect(() => {
      verdict = verifyPanel(record(), { lenses: [fixed('A', 'approve'), fixed('B', 'approve'), unprintable] });
    }).not.toThrow();
    expect(verdict?.vetoedBy).toEqual(['WEIRD']);
  });

  it('a lens that tries to change the record vetoes, and the record is unchanged', () => {
    const vandal: Lens = {
      name: 'VANDAL',
      evaluate: (view: DecisionView) => {
        (view.consensus as { verdict: string }).verdict = 'NO_GO';
        return { decision: 'approve', reasons: [] };
      },
    };
    const r = record();
    const before = structuredClone(r);
    const verdict = verifyPanel(r, { lenses: [fixed('A', 'approve'), fixed('B', 'approve'), vandal] });
    expect(lensNamed(verdict, 'VANDAL').decision).toBe('veto');
    expect(verdict.status).toBe('vetoed');
    expect(r).toStrictEqual(before);
    expect(Object.isFrozen(r.consensus)).toBe(false);
  });

  it('a lens cannot change the verifier report the other lenses judge by', () => {
    const forger: Lens = {
      name: 'FORGER',
      evaluate: (_view, { report }) => {
        for (const claim of report.claims) (claim as { status: string }).status = 'proven';
        (report as { approved: boolean }).approved = true;
        return { decision: 'approve', reasons: [] };
      },
    };
    // No evidence: FAITHFULNESS must veto, whatever FORGER did to the report before it looked.
    const verdict = verifyPanel(record([8, 8, 8], []), { lenses: [forger, COHERENCE, FAITHFULNESS, DOMAIN], quorum: 2 });
    expect(lensNamed(verdict, 'FAITHFULNESS').decision).toBe('veto');
    expect(verdict.report.approved).toBe(false);
    expect(verdict.status).not.toBe('approved');
  });

  it('lens names, decisions and reasons are reported, and an approving lens lists what it checked', () => {
    const verdict = verifyPanel(record());
    expect(lensNamed(verdict, 'DOMAIN').reasons).toEqual(['go_has_validation: proven', 'evidence_diverse: proven']);
  });
});

describe('escalation', () => {
  const rejecting = { lenses: [fixed('A', 'approve'), fixed('B', 'reject'), fixed('C', 'reject')], quorum: 2, escalateAfter: 3 };

  it('escalates a decision key after escalateAfter consecutive non-approvals, and keeps it escalated until resolved', () => {
    let approving = false;
    const toggled: Lens = { name: 'B', evaluate: () => ({ decision: approving ? 'approve' : 'reject', reasons: [] }) };
    const panel = createPanel({ lenses: [fixed('A', 'approve'), toggled, fixed('C', 'reject')], quorum: 2, escalateAfter: 3 });
    const r = record();
    expect(panel.verify(r)).toMatchObject({ status: 'rejected', consecutiveNonApprovals: 1 });
    expect(panel.verify(r)).toMatchObject({ status: 'rejected', consecutiveNonApprovals: 2 });
    const third = panel.verify(r);
    expect(third).toMatchObject({ status: 'escalated', consecutiveNonApprovals: 3, escalateAfter: 3 });
    expect(isPanelEmissionApproved(third)).toBe(false);

    // Now the lenses would approve, but the decision stays with a person.
    approving = true;
    const stuck = panel.verify(r);
    expect(stuck.status).toBe('escalated');
    expect(stuck.approvals).toBe(2);
    expect(isPanelEmissionApproved(stuck)).toBe(false);

    panel.resolve('decision-1');
    expect(panel.verify(r)).toMatchObject({ status: 'approved', consecutiveNonApprovals: 0 });
  });

  it('counts per decision key: another decision is not escalated', () => {
    const panel = createPanel(rejecting);
    for (let i = 0; i < 3; i += 1) panel.verify(record());
    expect(panel.verify(record()).status).toBe('escalated');
    expect(panel.verify(record([8, 8, 8], [passing, document], 'decision-2'))).toMatchObject({
      status: 'rejected',
      consecutiveNonApprovals: 1,
    });
    // Resolving one key leaves the other escalated.
    panel.resolve('decision-2');
    expect(panel.verify(record()).status).toBe('escalated');
  });

  it('an approval resets the count of consecutive non-approvals', () => {
    let approving = false;
    const toggled: Lens = { name: 'B', evaluate: () => ({ decision: approving ? 'approve' : 'reject', reasons: [] }) };
    const panel = createPanel({ lenses: [fixed('A', 'approve'), toggled], quorum: 2, escalateAfter: 2 });
    expect(panel.verify(record()).status).toBe('rejected');
    approving = true;
    expect(panel.verify(record()).status).toBe('approved');
    approving = false;
    expect(panel.verify(record())).toMatchObject({ status: 'rejected', consecutiveNonApprovals: 1 });
    expect(panel.verify(record()).status).toBe('escalated');
  });

  it('vetoes count as non-approvals', () => {
    const panel = createPanel({ escalateAfter: 2 });
    const bare = record([8, 8, 8], []);
    expect(panel.verify(bare).status).toBe('vetoed');
    expect(panel.verify(bare).status).toBe('escalated');
  });

  it('verifyPanel counts across calls only through a shared history', () => {
    const history = createPanelHistory();
    expect(verifyPanel(record(), { ...rejecting, history }).status).toBe('rejected');
    expect(verifyPanel(record(), { ...rejecting, history }).status).toBe('rejected');
    expect(verifyPanel(record(), { ...rejecting, history }).status).toBe('escalated');
    expect(verifyPanel(record(), { ...rejecting, history: createPanelHistory() }).status).toBe('rejected');
    // Without a history, each call stands alone.
    for (let i = 0; i < 5; i += 1) expect(verifyPanel(record(), rejecting).status).toBe('rejected');
  });

  it('escalateAfter 1 escalates the first non-approval', () => {
    expect(verifyPanel(record(), { ...rejecting, escalateAfter: 1 }).status).toBe('escalated');
  });
});

describe('isPanelEmissionApproved', () => {
  const approved = () => verifyPanel(record());
  const vetoed = () => verifyPanel(record(), { lenses: [fixed('A', 'approve'), fixed('B', 'approve'), fixed('C', 'veto')] });
  const rejected = () => verifyPanel(record(), { lenses: [fixed('A', 'approve'), fixed('B', 'reject'), fixed('C', 'reject')] });
  const escalatedButApproving = () => {
    let approving = false;
    const toggled: Lens = { name: 'B', evaluate: () => ({ decision: approving ? 'approve' : 'reject', reasons: [] }) };
    const panel = createPanel({ lenses: [fixed('A', 'approve'), toggled], quorum: 2, escalateAfter: 1 });
    panel.verify(record());
    approving = true;
    return panel.verify(record());
  };

  it('is true for a genuine approval', () => {
    expect(isPanelEmissionApproved(approved())).toBe(true);
  });

  const tampered: readonly [string, () => unknown][] = [
    ['a rejected verdict relabelled approved', () => ({ ...rejected(), status: 'approved' })],
    ['a vetoed verdict relabelled approved', () => ({ ...vetoed(), status: 'approved' })],
    ['a vetoed verdict relabelled approved with the veto list emptied', () => ({ ...vetoed(), status: 'approved', vetoedBy: [] })],
    ['a rejected verdict with the approvals inflated', () => ({ ...rejected(), status: 'approved', approvals: 3 })],
    ['an escalated verdict relabelled approved', () => ({ ...escalatedButApproving(), status: 'approved' })],
    ['an approval with the quorum lowered to 0', () => ({ ...approved(), quorum: 0, approvals: 0 })],
    [
      'an approval with a lens result turned into a veto',
      () => ({ ...approved(), lenses: approved().lenses.map((l, i) => (i === 0 ? { ...l, decision: 'veto' } : l)) }),
    ],
    ['an approval with no veto list', () => ({ ...approved(), vetoedBy: undefined })],
    ['an approval with NaN approvals', () => ({ ...approved(), approvals: Number.NaN })],
    ['a status in another case', () => ({ ...approved(), status: 'APPROVED' })],
    ['null', () => null],
    ['undefined', () => undefined],
    ['a string', () => 'approved'],
    ['an empty object', () => ({})],
  ];

  it.each(tampered)('is false for %s', (_name, make) => {
    expect(isPanelEmissionApproved(make() as PanelVerdict)).toBe(false);
  });

  it('is false for every non-approved status', () => {
    expect(isPanelEmissionApproved(vetoed())).toBe(false);
    expect(isPanelEmissionApproved(rejected())).toBe(false);
    expect(isPanelEmissionApproved(escalatedButApproving())).toBe(false);
  });
});

describe('panel: verdicts that were not issued, and the default quorum', () => {
  it('approves only the verdict object a panel issued, never a copy of it', () => {
    const verdict = verifyPanel(record());
    expect(isPanelEmissionApproved(verdict)).toBe(true);
    expect(Object.isFrozen(verdict)).toBe(true);
    expect(isPanelEmissionApproved({ ...verdict })).toBe(false);
    expect(isPanelEmissionApproved({ ...verdict, quorum: 1, approvals: 1, lenses: verdict.lenses.slice(0, 1) })).toBe(false);
  });

  it('needs two approvals by default, so a one-lens panel must say its quorum', () => {
    expect(() => createPanel({ lenses: [COHERENCE] })).toThrow(PanelConfigError);
    expect(createPanel({ lenses: [COHERENCE], quorum: 1 }).quorum).toBe(1);
  });
});
