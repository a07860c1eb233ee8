/** Fewest non-abstaining members a round needs; below it the meeting ends with `no_quorum`. */
export const MIN_QUORUM = 3;

/** Whether a round kept enough voices to mean anything. */
export function hasQuorum(answering: number, minimum: number = MIN_QUORUM): boolean {
  return answering >= minimum;
}
