/**
 * A function that freezes a value with `freeze`, in place, the first time it is given that value,
 * and only hands it back later: what the verifier freezes for other code (a view, a report) is
 * frozen all the way down once, however many oracles or lenses it reaches.
 */
export function freezeOnce<T extends object>(freeze: (value: T) => void): (value: T) => T {
  const frozen = new WeakSet<T>();
  return (value) => {
    if (!frozen.has(value)) {
      freeze(value);
      frozen.add(value);
    }
    return value;
  };
}
