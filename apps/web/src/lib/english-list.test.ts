import { describe, expect, it } from 'vitest';
import { englishList } from './english-list';

describe('englishList', () => {
  it("says what Intl.ListFormat('en') says, for none to five items", () => {
    const format = new Intl.ListFormat('en', { type: 'conjunction' });
    const languages = ['French', 'German', 'Spanish', 'Mandarin Chinese', 'Italian'];
    for (let n = 0; n <= languages.length; n += 1) {
      const items = languages.slice(0, n);
      expect(englishList(items)).toBe(format.format(items));
    }
  });
});
