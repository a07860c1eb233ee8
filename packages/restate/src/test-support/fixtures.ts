import type { BoardInput } from '@conclave/council';
import type { BriefInput } from '@conclave/meeting';

/** The board: 4 phases × 8 members, each member on its own model of the fake provider. */
export const BOARD_4X8: BoardInput = {
  id: 'durable',
  phases: [0, 1, 2, 3].map((p) => ({
    name: `p${p}`,
    members: [0, 1, 2, 3, 4, 5, 6, 7].map((m) => ({
      id: `m${p}${m}`,
      persona: 'A member of the durable council.',
      model: `openai:m${p}${m}`,
    })),
  })),
};

/** A five-member brief, each member on its own model of the fake provider. */
export const BRIEF: BriefInput = {
  question: 'Which cloud should host the new data platform?',
  options: [
    { id: 'aws', title: 'AWS', summary: 'Stay on AWS with managed services.' },
    { id: 'gcp', title: 'GCP', summary: 'Move to GCP for BigQuery.' },
    { id: 'hybrid', title: 'Hybrid', summary: 'Keep compute on AWS, analytics on GCP.' },
  ],
  constraints: ['Budget is flat year over year.'],
  successCriteria: ['Queries under 5 s at p95.'],
  context: [{ id: 'spend', text: 'AWS spend is 40k USD a month.' }],
  roster: ['sre', 'sec', 'cfo', 'pm', 'data'].map((id, i) => ({
    id,
    role: `${id} lead`,
    focusAreas: ['cost'],
    disposition: 'careful',
    model: `openai:${id}`,
    ...(i === 0 ? { facilitator: true } : {}),
  })),
};
