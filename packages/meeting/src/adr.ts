import type { Synthesis } from './meeting-result.js';

/** An ADR rendered from a synthesis, not yet numbered or accepted. */
export interface AdrDraft {
  readonly title: string;
  /** A file-name-safe slug of the title. */
  readonly slug: string;
  readonly status: 'proposed';
  /** MADR-style markdown with `Status: proposed` and no number. */
  readonly markdown: string;
}

/** Options for `draftAdr`. */
export interface DraftAdrOptions {
  /** True when every member ran on the offline adapters: the draft then names no model family. */
  readonly offline?: boolean;
}

/** The status line every draft carries; `recordAdr` replaces it on approval. */
export const PROPOSED_STATUS_LINE = 'Status: proposed';

/** A lowercase, dash-separated slug of at most 60 characters. */
export function slugify(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'decision' : slug;
}

/**
 * Renders a synthesis as a MADR-style ADR draft. Pure: no number, no date and `Status: proposed`,
 * because a number and acceptance are claimed only at the approval step (`recordAdr`).
 * The minority report always has a section, stating explicitly when there was no dissent.
 *
 * @example
 * const draft = draftAdr(result.synthesis, { offline: true });
 */
export function draftAdr(synthesis: Synthesis, options: DraftAdrOptions = {}): AdrDraft {
  const { decision, dissent, record } = synthesis;
  // One heading line: a line of a multi-line question must not pass for the status line below it.
  const title = `${decision.title}: ${synthesis.question}`.replace(/\s+/g, ' ').trim();
  const bullet = (items: readonly string[], none: string): string =>
    items.length === 0 ? `- ${none}` : items.map((item) => `- ${item}`).join('\n');
  const dissentText = dissent.present
    ? dissent.dissenters
        .map(
          (d) =>
            `- **${d.name}** (${d.role}) preferred \`${d.preferredOption}\` at confidence ${d.confidence}: ${d.reasons.join('; ')}${d.objections.length > 0 ? `\n  - Objections: ${d.objections.map((o) => `[${o.severity}] ${o.text}`).join('; ')}` : ''}`,
        )
        .join('\n')
    : `- ${dissent.statement}`;
  const unresolved = dissent.unresolvedObjections.map((e) => `${e.id}: ${e.text}`);
  const last = record.convergence.at(-1);
  const markdown = [
    `# ${title}`,
    '',
    PROPOSED_STATUS_LINE,
    '',
    '## Context and Problem Statement',
    '',
    synthesis.question,
    '',
    '## Considered Options',
    '',
    bullet(
      record.slate.map((o) => `\`${o.id}\`: ${o.title}. ${o.summary}`),
      'none recorded',
    ),
    '',
    '## Decision Outcome',
    '',
    `Chosen option: \`${decision.choice}\` (${decision.title}), ${decision.status === 'converged' ? 'by a converged meeting' : 'provisionally: the meeting did not converge'}.`,
    `Confidence: ${synthesis.confidence.toFixed(2)}.`,
    '',
    synthesis.rationale,
    '',
    '### Rejected Options',
    '',
    bullet(
      synthesis.rejected.map((r) => `\`${r.option}\` (${r.title}): ${r.why}`),
      'none',
    ),
    '',
    '### Consequences: Risks and Mitigations',
    '',
    bullet(
      synthesis.risks.map((r) => `${r.risk}. Mitigation: ${r.mitigation}`),
      'none identified',
    ),
    '',
    '## Dissent and Minority Report',
    '',
    dissentText,
    '',
    'Unresolved substantive objections against the decision:',
    '',
    bullet(unresolved, 'none'),
    '',
    '## Follow-ups',
    '',
    bullet(synthesis.followUps, 'none'),
    '',
    '## Meeting Record',
    '',
    `- Rounds: ${record.rounds.length} (including the prep round)`,
    `- Convergence: ${last === undefined ? 'no meeting round completed' : last.converged ? `converged in round ${last.round}` : `not converged (last round ${last.round} changed: ${last.changed.join(', ') || 'none'})`}`,
    // Offline, the roster's models were never called: naming their families would claim judges that did not sit.
    options.offline === true
      ? '- Model families: none: every member ran on the offline adapters'
      : `- Model families: ${record.families.families.join(', ')}${record.families.correlated ? ' (correlated: one family)' : ''}`,
    `- Panel: ${record.roles.map((r) => `${r.name} (${r.role}${r.facilitator ? ', facilitator' : ''})`).join(', ')}`,
    '',
  ].join('\n');
  return { title, slug: slugify(decision.title), status: 'proposed', markdown };
}
