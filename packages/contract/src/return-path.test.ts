import { describe, expect, it } from 'vitest';
import { RETURN_PATH_MAX, returnPath } from './return-path.js';

describe('returnPath', () => {
  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/teachers?language=French', '/teachers?language=French'],
    ['/teachers/abc', '/teachers/abc'],
  ])('%s → %s', (value, expected) => expect(returnPath(value)).toBe(expected));

  it.each([
    'https://evil.example/',
    '//evil.example/',
    '/\\evil.example',
    'teachers',
    '/a\nb',
    `/${'a'.repeat(RETURN_PATH_MAX)}`,
    'javascript:alert(1)',
  ])('refuses %j', (value) => expect(returnPath(value)).toBeUndefined());
});
