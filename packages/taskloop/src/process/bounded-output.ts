/**
 * Collects one output stream within a fixed memory budget. A gate that floods its output (a test
 * runner in a loop, a build printing a minified bundle) must not grow the orchestrator's memory
 * or the evidence the builder reads, so only the first half and the last half of the budget are
 * kept. Both ends matter: the head says what started, and the tail usually holds the failure
 * summary a builder needs to fix the task.
 */
export class BoundedOutput {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private totalBytes = 0;

  /** @param maxBytes the most bytes kept (head + tail); below 0 or fractional values are clamped. */
  constructor(maxBytes: number) {
    const limit = Number.isFinite(maxBytes) ? Math.max(0, Math.floor(maxBytes)) : 0;
    this.headLimit = Math.ceil(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  /** Takes the next chunk; memory stays under the budget plus one chunk. */
  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailLimit === 0) return;
    // Copy so a large chunk's backing memory is not pinned by a small tail slice.
    this.tail.push(rest.length > this.tailLimit ? Buffer.from(rest.subarray(rest.length - this.tailLimit)) : rest);
    this.tailBytes += Math.min(rest.length, this.tailLimit);
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0] as Buffer).length >= this.tailLimit) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
  }

  /** Whether any byte was dropped. */
  get truncated(): boolean {
    return this.totalBytes > this.headBytes + this.keptTail().length;
  }

  /**
   * The kept text. When bytes were dropped, a visible marker stands where they were, e.g.
   * `"\n… [truncated 12345 bytes]\n"`, so neither a person nor a model mistakes the cut for the
   * whole output. Cuts land on UTF-8 character boundaries.
   */
  text(): string {
    const head = Buffer.concat(this.head);
    const tail = this.keptTail();
    const dropped = this.totalBytes - head.length - tail.length;
    if (dropped <= 0) return Buffer.concat([head, tail]).toString('utf8');
    const headCut = trimIncompleteEnd(head);
    const tailCut = trimIncompleteStart(tail);
    const cut = dropped + (head.length - headCut.length) + (tail.length - tailCut.length);
    const marker = `\n… [truncated ${cut} bytes]${tailCut.length > 0 ? '\n' : ''}`;
    return headCut.toString('utf8') + marker + tailCut.toString('utf8');
  }

  private keptTail(): Buffer {
    const all = Buffer.concat(this.tail);
    return all.length > this.tailLimit ? all.subarray(all.length - this.tailLimit) : all;
  }
}

/** Drops a multi-byte UTF-8 sequence cut off at the end. */
function trimIncompleteEnd(bytes: Buffer): Buffer {
  let start = bytes.length - 1;
  // Walk back over at most 3 continuation bytes to the lead byte of the last character.
  while (start >= 0 && bytes.length - start <= 4 && ((bytes[start] as number) & 0xc0) === 0x80) start -= 1;
  if (start < 0) return bytes;
  const lead = bytes[start] as number;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < needed ? bytes.subarray(0, start) : bytes;
}

/** Drops continuation bytes whose lead byte was cut off at the start. */
function trimIncompleteStart(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length && start < 3 && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start);
}
