export type { AdrApproval, RecordAdrError, RecordedAdr } from './record-adr.js';
export { recordAdr } from './record-adr.js';
