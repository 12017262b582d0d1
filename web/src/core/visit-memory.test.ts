// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { mostVisited, recordVisit } from './visit-memory.ts';

describe('visit memory', () => {
  beforeEach(() => localStorage.clear());
  it('counts screens by their first path segment, per user, most used first', () => {
    recordVisit('/customer', 1, 1);
    recordVisit('/customer/5', 1, 2);
    recordVisit('/prospect', 1, 3);
    recordVisit('/company', 2, 4);
    recordVisit('/signin', 1, 5);
    expect(mostVisited(1)).toEqual(['/customer', '/prospect']);
    expect(mostVisited(2)).toEqual(['/company']);
  });
});
