/**
 * Answers whose bytes never change once made: a cache that made one keeps handing out the same
 * Buffer and nothing writes into it. What is derived from such an answer (its compressed forms)
 * can then be kept by the Buffer itself, without reading its bytes to find it again.
 */
const stable = new WeakSet<Buffer>();

export function markStableAnswer(answer: Buffer): void {
  stable.add(answer);
}

export function isStableAnswer(payload: unknown): payload is Buffer {
  return typeof payload === 'object' && payload !== null && stable.has(payload as Buffer);
}
