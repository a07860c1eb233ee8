import { readFile } from 'node:fs/promises';
import { formatIssue } from '@conclave/core';
import { draftAdr, parseBrief, runMeeting, type MeetingRequestMetadata } from '@conclave/meeting';
import { scriptedAdapter } from '@conclave/testing';

const file = 'examples/briefs/data-platform.yaml';
const brief = parseBrief(await readFile(file, 'utf8'), { file });
if (brief.isErr()) throw new Error(brief.error.map(formatIssue).join('\n'));

// Scripted members (no model, no key): each starts from its own view, and the finance lead and
// the product lead move to the front-runner in round 1; the data engineer keeps dissenting.
const prep: Record<string, string> = { sre: 'aws', sec: 'aws', cfo: 'hybrid', pm: 'gcp', data: 'gcp' };
const members = scriptedAdapter((request) => {
  const meta = request.metadata as unknown as MeetingRequestMetadata;
  if (meta.phase === 'synthesis')
    return {
      value: {
        rationale: 'Least change for the on-call team at flat budget.',
        rejected: [],
        risks: [],
        followUps: ['Revisit after the BigQuery pilot.'],
      },
    };
  const preferred = meta.round === 0 || meta.memberId === 'data' ? prep[meta.memberId] : 'aws';
  return {
    value: {
      preferredOption: preferred,
      confidence: 0.75,
      reasons: [`${meta.memberId} weighs its focus area`],
      concerns: [],
      objections: [],
      proposedOptions: [],
    },
  };
});

const result = await runMeeting(brief.value, { adapters: () => members });
console.log(`outcome: ${result.outcome} (stopped: ${result.stopReason.kind})`);
if (result.synthesis) {
  const { decision, dissent } = result.synthesis;
  console.log(`decision: ${decision.title} (${decision.status}), confidence ${result.synthesis.confidence.toFixed(2)}`);
  console.log(
    `dissent: ${dissent.present ? dissent.dissenters.map((d) => `${d.name} (${d.role}) prefers ${d.preferredOption}`).join('; ') : dissent.statement}`,
  );
  console.log(draftAdr(result.synthesis).markdown.split('\n').slice(0, 4).join('\n'));
}
