import { describe, expect, it } from 'vitest';
import { absoluteUrl } from './head';

describe('absoluteUrl', () => {
  const origin = 'https://learnlingo.example';
  it("puts a page's path on PUBLIC_ORIGIN", () => {
    expect(absoluteUrl(origin, '/')).toBe(`${origin}/`);
    expect(absoluteUrl(origin, '/teachers/abc')).toBe(`${origin}/teachers/abc`);
    expect(absoluteUrl(origin, '/%2F%2Fevil.example')).toBe(`${origin}/%2F%2Fevil.example`);
  });

  it('never names another host: what would parse as one stands for the root', () => {
    for (const path of ['//evil.example/x', '/\\evil.example', '\\\\evil.example', 'http://evil.example/', 'evil.example', '']) {
      expect(absoluteUrl(origin, path), path).toBe(`${origin}/`);
    }
  });
});
