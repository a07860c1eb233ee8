import { describe, expect, it } from 'vitest';
import { curateSlate, openingSlate } from './option-slate.js';

const opening = openingSlate([
  { id: 'aws', title: 'AWS', summary: 'a' },
  { id: 'gcp', title: 'GCP', summary: 'g' },
]);

describe('option slate', () => {
  it('adds a new option and is then not stable', () => {
    const update = curateSlate(opening, 1, [{ memberId: 'pm', option: { id: 'azure', title: 'Azure', summary: 'z' } }]);
    expect(update.stable).toBe(false);
    expect(update.slate.options.map((o) => o.id)).toEqual(['aws', 'gcp', 'azure']);
    expect(update.added[0]).toEqual(expect.objectContaining({ proposedBy: 'pm', round: 1 }));
  });

  it('is stable when proposals restate options already on the slate', () => {
    const update = curateSlate(opening, 1, [{ memberId: 'pm', option: { id: 'aws', title: 'AWS', summary: 'again' } }]);
    expect(update.stable).toBe(true);
    expect(update.rejected).toEqual([]);
  });

  it('rejects the same idea under another id, a repeated new id, and proposals past the cap', () => {
    const update = curateSlate(
      opening,
      1,
      [
        { memberId: 'a', option: { id: 'amazon', title: ' aws ', summary: 'x' } },
        { memberId: 'b', option: { id: 'azure', title: 'Azure', summary: 'x' } },
        { memberId: 'c', option: { id: 'azure', title: 'Azure cloud', summary: 'x' } },
        { memberId: 'd', option: { id: 'oci', title: 'OCI', summary: 'x' } },
      ],
      3,
    );
    expect(update.rejected.map((r) => r.kind)).toEqual(['duplicate_title', 'duplicate_id', 'slate_full']);
    expect(update.slate.options.map((o) => o.id)).toEqual(['aws', 'gcp', 'azure']);
  });
});
