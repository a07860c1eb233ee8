import { describe, expect, it } from 'vitest';
import { joinTextRuns as join, TEXT_RUN_SEPARATOR } from './text-runs.js';

const joinTextRuns = (parts: readonly (string | undefined)[]): string => join(parts, (part) => part);

describe('joinTextRuns', () => {
  it('joins adjacent text as it is and separates text that another part came between', () => {
    expect(joinTextRuns(['The sky ', 'is blue', '.'])).toBe('The sky is blue.');
    expect(joinTextRuns(['Let me look.', undefined, '{"a":1}'])).toBe(`Let me look.${TEXT_RUN_SEPARATOR}{"a":1}`);
    expect(joinTextRuns([undefined, 'answer', undefined])).toBe('answer');
    expect(joinTextRuns(['a', undefined, '', undefined, 'b'])).toBe('a\n\nb');
  });

  it('is empty for parts without text', () => {
    expect(joinTextRuns([])).toBe('');
    expect(joinTextRuns([undefined, undefined, ''])).toBe('');
  });
});
