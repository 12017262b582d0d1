import { describe, expect, it } from 'vitest';
import { linkFilterCondition, linkFilterParent, linkFilterSource } from './schema-types.ts';

describe('linkFilter values', () => {
  it('a list of constants is "any of them" (_in), anything else equality', () => {
    expect(linkFilterCondition(['issued', 'partially_paid'])).toEqual({ _in: ['issued', 'partially_paid'] });
    expect(linkFilterCondition('issued')).toEqual({ _eq: 'issued' });
    expect(linkFilterCondition(7)).toEqual({ _eq: 7 });
  });
  it('references are "$form.<field>" and, on a line, "$parent.<field>"; a list is neither', () => {
    expect(linkFilterSource('$form.customer_id')).toBe('customer_id');
    expect(linkFilterParent('$parent.customer_id')).toBe('customer_id');
    expect(linkFilterSource(['$form.x'])).toBeNull();
    expect(linkFilterParent(['$parent.x'])).toBeNull();
  });
});
