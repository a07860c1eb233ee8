// @conclave/taskloop/loop: the loop's pure step function, its state and events, without effects.
export type {
  AttemptDecision,
  AttemptState,
  JudgedAttempt,
  LoopConfig,
  LoopEffect,
  LoopEvent,
  LoopState,
  RunBudget,
  TaskDisposition,
} from './loop-step.js';
export { decideAttempt, feedbackFrom, initialLoopState, loopStep } from './loop-step.js';
