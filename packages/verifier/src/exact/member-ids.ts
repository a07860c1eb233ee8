/**
 * The member ids one recomputation has seen, to find a member that votes twice. A few ids are
 * searched in a list. More are kept in an open-addressed table of their places in that list,
 * made of typed arrays kept from one recomputation to the next, each slot stamped with the
 * recomputation that wrote it, so no table is built, grown or cleared per call (a Set of 100 ids,
 * grown as it filled, was a fifth of a 100-vote recomputation). The table holds numbers only:
 * no id outlives its recomputation. JavaScript does not expose a string's hash, so an id is
 * hashed here from its length and up to 16 characters at each end; an id that collides too
 * often (ids made to collide) moves every id to a Set, so the cost stays linear.
 */
export class MemberIds {
  /** The ids added, in order: the first `#count` places of a list made at its full size. */
  readonly #ids: string[];
  #count = 0;
  #set: Set<string> | undefined = undefined;
  /** The shared table while this recomputation holds it; undefined for a short list or a Set. */
  #table: IdTable | undefined = undefined;
  readonly #capacity: number;

  /** Ids for at most `capacity` adds (more move to a Set). */
  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#ids = new Array<string>(capacity);
    if (capacity > SHORT_LIST) this.#table = IdTable.take(capacity);
    if (capacity > SHORT_LIST && this.#table === undefined) this.#set = new Set();
  }

  /** Adds an id; false when it was there already. */
  add(id: string): boolean {
    const set = this.#set;
    if (set !== undefined) {
      const before = set.size;
      return set.add(id).size !== before;
    }
    const ids = this.#ids;
    const count = this.#count;
    const table = this.#table;
    if (table === undefined) {
      for (let i = 0; i < count; i += 1) if (ids[i] === id) return false;
      ids[count] = id;
      this.#count = count + 1;
      return true;
    }
    if (count < this.#capacity) {
      const { places, stamps, stamp, mask } = table;
      let slot = hashOf(id) & mask;
      for (let probe = 0; probe < MAX_PROBES; probe += 1) {
        if (stamps[slot] !== stamp) {
          stamps[slot] = stamp;
          places[slot] = count;
          ids[count] = id;
          this.#count = count + 1;
          return true;
        }
        if (ids[places[slot] as number] === id) return false;
        slot = (slot + 1) & mask;
      }
    }
    this.#set = new Set(ids.slice(0, count));
    this.release();
    return this.add(id);
  }

  /** Hands the shared table back; to be called once the ids are no longer needed. */
  release(): void {
    if (this.#table === undefined) return;
    this.#table.give();
    this.#table = undefined;
  }
}

/**
 * Whether the first `count` ids of a list are all different: what `MemberIds` finds, for ids
 * already in a list, whose places the table keeps (no list of its own is made).
 */
export function allDistinct(ids: readonly string[], count: number): boolean {
  if (count <= SHORT_LIST) {
    for (let i = 1; i < count; i += 1) for (let j = 0; j < i; j += 1) if (ids[i] === ids[j]) return false;
    return true;
  }
  const table = IdTable.take(count);
  if (table === undefined) return new Set(ids.slice(0, count)).size === count;
  try {
    const { places, stamps, stamp, mask } = table;
    for (let i = 0; i < count; i += 1) {
      const id = ids[i] as string;
      let slot = hashOf(id) & mask;
      let probe = 0;
      while (stamps[slot] === stamp) {
        if (ids[places[slot] as number] === id) return false;
        // Ids made to collide: a Set decides, so the cost stays linear.
        if ((probe += 1) === MAX_PROBES) return new Set(ids.slice(0, count)).size === count;
        slot = (slot + 1) & mask;
      }
      stamps[slot] = stamp;
      places[slot] = i;
    }
    return true;
  } finally {
    table.give();
  }
}

/** The shared table: places in a recomputation's id list, valid where a slot's stamp is the current one. */
class IdTable {
  places = new Int32Array(0);
  stamps = new Int32Array(0);
  stamp = 0;
  mask = 0;
  #inUse = false;

  /** The table, cleared in effect (a new stamp), sized for `capacity` ids; undefined while another call holds it. */
  static take(capacity: number): IdTable | undefined {
    const table = SHARED;
    if (table.#inUse) return undefined;
    table.#inUse = true;
    // At most half full, so a probe soon finds a free slot.
    let size = 64;
    while (size < 2 * capacity) size *= 2;
    if (table.places.length < size) {
      table.places = new Int32Array(size);
      table.stamps = new Int32Array(size);
      table.stamp = 0;
    }
    if (table.stamp === MAX_STAMP) {
      table.stamps.fill(0);
      table.stamp = 0;
    }
    table.stamp += 1;
    table.mask = size - 1;
    return table;
  }

  give(): void {
    this.#inUse = false;
  }
}

const SHARED = new IdTable();
const MAX_STAMP = 2 ** 31 - 1;
/** Id lists up to this long are searched. */
const SHORT_LIST = 16;
/** Slots tried for one id before the ids move to a Set. */
const MAX_PROBES = 16;

/** An id's hash: its length and up to 16 characters at each end, mixed FNV-1a style. */
function hashOf(id: string): number {
  const length = id.length;
  let hash = length ^ 0x811c9dc5;
  const head = length < 16 ? length : 16;
  for (let i = 0; i < head; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  for (let i = length - 16 > head ? length - 16 : head; i < length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash ^ (hash >>> 15);
}
