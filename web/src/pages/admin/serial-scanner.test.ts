import { describe, expect, it } from 'vitest';
import { onScan, publishScan, splitLines } from './serial-scanner.ts';

describe('serial scanner lines', () => {
  it('splits a stream into lines and keeps the unfinished tail', () => {
    let rest = '';
    const out: string[] = [];
    for (const chunk of ['885', '0999\r\n12.', '50 kg\n', 'AB']) {
      const r = splitLines(rest, chunk);
      rest = r.rest;
      out.push(...r.lines);
    }
    expect(out).toEqual(['8850999', '12.50 kg']);
    expect(rest).toBe('AB');
  });

  it('publishes each line to the subscribers until they leave', () => {
    const got: string[] = [];
    const stop = onScan((l) => got.push(l));
    publishScan('8850999000017\r\n');
    publishScan('');
    stop();
    publishScan('after');
    expect(got).toEqual(['8850999000017']);
  });
});
