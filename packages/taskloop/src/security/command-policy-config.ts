import * as z from 'zod';

/**
 * The project's command policy for shell gates (and command builders). Entries are command
 * prefixes compared word by word against the parsed command: `npm test` allows `npm test` and
 * `npm test -- --watch=false` but not `npm install`. Deny wins over allow.
 */
export const commandPolicySchema = z.strictObject({
  allow: z
    .array(z.string().trim().min(1, 'an allow entry must not be empty'), { error: 'allow must be a list of command prefixes' })
    .optional(),
  deny: z
    .array(z.string().trim().min(1, 'a deny entry must not be empty'), { error: 'deny must be a list of command prefixes' })
    .optional(),
  /**
   * With no allowlist, shell gates refuse to run; setting this to true is the explicit opt-in to
   * run any command not denied.
   */
  allowUnlisted: z.boolean({ error: 'allowUnlisted must be true or false' }).optional(),
});

export type CommandPolicy = z.infer<typeof commandPolicySchema>;
