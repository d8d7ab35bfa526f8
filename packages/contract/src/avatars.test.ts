import { describe, expect, it } from 'vitest';
import { AVATAR_VERSION_PATTERN, avatarPath, avatarVersion } from './avatars.js';

describe('avatarPath', () => {
  it("names the teacher and a version of the picture's source address", () => {
    const path = avatarPath('t000001', 'https://ftp.goit.study/img/avatars/1.jpg');
    expect(path).toMatch(/^\/avatars\/t000001\/[0-9a-f]{8}$/);
    // the same address always gives the same path (the browser and the server agree)
    expect(avatarPath('t000001', 'https://ftp.goit.study/img/avatars/1.jpg')).toBe(path);
    // another address, another path: a changed picture is never an old cached one
    expect(avatarPath('t000001', 'https://ftp.goit.study/img/avatars/2.jpg')).not.toBe(path);
    expect(avatarPath('-Nabc_1', 'https://img.example/a.png')).toMatch(/^\/avatars\/-Nabc_1\//);
  });

  it('plain http is named only for the route under test (whose local source speaks it); the server fetches https only', () => {
    expect(avatarPath('t1', 'http://img.example/a.png')).toBeNull();
    expect(avatarPath('t1', 'HTTP://img.example/a.png')).toBeNull();
    expect(avatarPath('t1', 'http://127.0.0.1:8080/a.png', { allowHttp: true })).toMatch(/^\/avatars\/t1\/[0-9a-f]{8}$/);
    expect(avatarPath('t1', 'HTTPS://img.example/a.png')).toMatch(/^\/avatars\/t1\//);
  });

  it('FNV-1a of the address, as 8 hex digits', () => {
    // the algorithm's published test values
    expect(avatarVersion('')).toBe('811c9dc5');
    expect(avatarVersion('a')).toBe('e40c292c');
    expect(avatarVersion('foobar')).toBe('bf9cf968');
    for (const source of ['', 'x', 'https://img.example/é.jpg']) expect(avatarVersion(source)).toMatch(AVATAR_VERSION_PATTERN);
  });

  it('no path for no picture, or for an address this app does not fetch from', () => {
    expect(avatarPath('t1', null)).toBeNull();
    expect(avatarPath('t1', undefined)).toBeNull();
    expect(avatarPath('t1', '')).toBeNull();
    expect(avatarPath('t1', 'data:image/png;base64,AAAA')).toBeNull();
    expect(avatarPath('t1', 'javascript:alert(1)')).toBeNull();
    expect(avatarPath('t1', '/relative.png')).toBeNull();
    expect(avatarPath('t1', `https://img.example/${'a'.repeat(2000)}`)).toBeNull();
  });
});
