import type { z } from 'zod';

/**
 * A fix for a zod schema problem, in the words a person editing the file needs. Parse with
 * `safeParse(data, { reportInput: true })`: zod only tells a missing field from a wrong value
 * when the issue carries its input.
 */
export function schemaIssueFix(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `remove ${issue.keys.map((key) => `"${key}"`).join(', ')} or fix the spelling`;
    case 'invalid_type':
      return issue.input === undefined ? `add the required field "${String(issue.path.at(-1))}"` : `give a value of type ${issue.expected}`;
    case 'too_small':
    case 'too_big':
      return 'bring the value (or the number of entries) into the allowed range';
    case 'invalid_format':
      return 'use the format the message describes';
    default:
      return 'correct the value as the message describes';
  }
}
