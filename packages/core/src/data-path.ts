/** A path into loaded data, as zod reports it: keys and array indexes. */
export type DataPath = readonly (string | number)[];
