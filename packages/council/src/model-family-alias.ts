import { modelFamily as coreModelFamily } from '@conclave/core';

/**
 * The model family a model reference belongs to.
 * @deprecated Moved to `@conclave/core` (the meeting derives families too); import `modelFamily` from there. Removed in the next release.
 */
export const modelFamily: (ref: string) => string = coreModelFamily;
