import { describe, expect, it } from 'vitest';
import { SHARED_STANCE_FIELDS, shareStance, stanceSchemaFor } from './stance.js';
import { stance } from './test-support/meeting-fixtures.js';

describe('stance', () => {
  it('shares exactly the shared fields, under the neutral name', () => {
    const full = stance('aws', 0.7, { privateReasoning: 'I secretly fear the migration', concerns: ['lock-in'] });
    const shared = shareStance(full, 'Rowan');
    expect(Object.keys(shared).sort()).toEqual(['name', ...SHARED_STANCE_FIELDS].sort());
    expect(JSON.stringify(shared)).not.toContain('secretly');
    expect(shared).toEqual(expect.objectContaining({ name: 'Rowan', preferredOption: 'aws', concerns: ['lock-in'] }));
  });

  it('accepts a preferred option on the slate or proposed in the same stance, and nothing else', () => {
    const schema = stanceSchemaFor(['aws', 'gcp']);
    expect(schema.safeParse(stance('aws')).success).toBe(true);
    expect(schema.safeParse(stance('azure')).success).toBe(false);
    const proposing = stance('azure', 0.6, { proposedOptions: [{ id: 'azure', title: 'Azure', summary: 'Try Azure.' }] });
    expect(schema.safeParse(proposing).success).toBe(true);
  });

  it('rejects confidence outside 0..1 and a stance without reasons', () => {
    const schema = stanceSchemaFor(['aws']);
    expect(schema.safeParse(stance('aws', 1.2)).success).toBe(false);
    expect(schema.safeParse({ ...stance('aws'), reasons: [] }).success).toBe(false);
  });
});
