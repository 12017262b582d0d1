import { describe, expect, it } from 'vitest';
import { parseOptions } from './custom-field-options.ts';

describe('custom field options typed one a line', () => {
  it('reads value, Thai and English labels, falling back to what is given', () => {
    expect(parseOptions('gold = ทอง / Gold\n\n silver = เงิน \nbronze')).toEqual([
      { value: 'gold', label: { th: 'ทอง', en: 'Gold' } },
      { value: 'silver', label: { th: 'เงิน', en: 'เงิน' } },
      { value: 'bronze', label: { th: 'bronze', en: 'bronze' } },
    ]);
  });
});
