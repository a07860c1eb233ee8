import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseBoard } from './board-text.js';

const good = `id: demo
phases:
  - name: analysis
    members:
      - { id: a, persona: A, model: offline:m }
      - { id: b, persona: B, model: offline:m }
  - name: challenge
    contrarian: true
    members:
      - { id: c, persona: C, model: offline:m }
`;

describe('parseBoard', () => {
  it('parses YAML and JSON into the same board', () => {
    const fromYaml = parseBoard(good)._unsafeUnwrap();
    const fromJson = parseBoard(
      JSON.stringify({
        id: 'demo',
        phases: fromYaml.phases.map((p) => ({
          name: p.name,
          ...(p.contrarian ? { contrarian: true } : {}),
          members: p.members.map((m) => ({ id: m.id, persona: m.persona, model: m.model })),
        })),
      }),
    )._unsafeUnwrap();
    expect(fromJson).toEqual(fromYaml);
  });

  it('refuses a member weight above the largest the consensus counts, at its line, with a fix', () => {
    const text = good.replace('{ id: b, persona: B, model: offline:m }', '{ id: b, persona: B, model: offline:m, weight: 2000000 }');
    const issues = parseBoard(text, { file: 'boards/heavy.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([
      expect.objectContaining({ code: 'bad_weight', file: 'boards/heavy.yaml', line: 6, path: ['phases', 0, 'members', 1, 'weight'] }),
    ]);
    expect(issues[0]?.message).toContain('1,000,000');
    expect(issues[0]?.fix).toContain('at most 1000000');
    // The largest weight itself loads.
    expect(parseBoard(good.replace('model: offline:m }', 'model: offline:m, weight: 1000000 }')).isOk()).toBe(true);
  });

  it('points a contrarian that is not last at its line and column', () => {
    const text = `id: demo
phases:
  - name: challenge
    contrarian: true
    members:
      - { id: c, persona: C, model: offline:m }
  - name: analysis
    members:
      - { id: a, persona: A, model: offline:m }
      - { id: b, persona: B, model: offline:m }
`;
    const issues = parseBoard(text, { file: 'boards/bad.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'contrarian_not_last',
        file: 'boards/bad.yaml',
        line: 4,
        column: 5,
        path: ['phases', 0, 'contrarian'],
      }),
    ]);
  });

  it('points an unknown axis and an unknown model at their lines', () => {
    const text = `id: demo
facts:
  - { axis: revenu, value: 5, note: typo }
phases:
  - name: analysis
    members:
      - { id: a, persona: A, model: offline:m }
      - { id: b, persona: B, model: gpt-4 }
      - { id: c, persona: C, model: offline:m }
`;
    const issues = parseBoard(text)._unsafeUnwrapErr();
    expect(issues.map((i) => [i.code, i.line])).toEqual([
      ['unknown_axis', 3],
      ['unknown_model', 8],
    ]);
  });

  it('reports malformed YAML with its position instead of throwing', () => {
    const issues = parseBoard('id: demo\nphases:\n  - name: "unterminated\n', { file: 'x.yaml' })._unsafeUnwrapErr();
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatchObject({ code: 'syntax', file: 'x.yaml' });
    expect(issues[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it('rejects a repeated key rather than letting the last one win', () => {
    const issues = parseBoard('id: a\nid: b\nphases: []\n')._unsafeUnwrapErr();
    expect(issues[0]).toMatchObject({ code: 'syntax', line: 2 });
    expect(issues[0]?.fix).toMatch(/repeated key/);
  });

  it('loads the example board shipped in examples/boards', async () => {
    const file = new URL('../../../examples/boards/product-launch.yaml', import.meta.url);
    const board = parseBoard(await readFile(file, 'utf8'))._unsafeUnwrap();
    expect(board.phases.at(-1)?.contrarian).toBe(true);
  });
});
