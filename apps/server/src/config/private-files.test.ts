import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, makeTreePrivate } from './private-files.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-private-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const mode = (file: string) => fs.lstatSync(file).mode & 0o777;

describe('private files (issue 10, finding 2)', () => {
  it('ensurePrivateDir creates missing directories 0700 and fixes an existing one', () => {
    const outbox = path.join(dir, 'data', 'outbox');
    ensurePrivateDir(outbox);
    expect(mode(outbox)).toBe(0o700);
    fs.chmodSync(outbox, 0o755);
    ensurePrivateDir(outbox);
    expect(mode(outbox)).toBe(0o700);
  });

  it('makeTreePrivate makes directories 0700 and files 0600, counts its changes, and leaves symbolic links and their targets alone', () => {
    const outside = path.join(os.tmpdir(), `learnlingo-outside-${process.pid}`);
    fs.writeFileSync(outside, 'not ours to change', { mode: 0o644 });
    fs.chmodSync(outside, 0o644);
    try {
      fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
      fs.chmodSync(dir, 0o777);
      fs.chmodSync(path.join(dir, 'a'), 0o755);
      fs.writeFileSync(path.join(dir, 'a', 'b', 'wal'), 'x');
      fs.chmodSync(path.join(dir, 'a', 'b', 'wal'), 0o666);
      fs.writeFileSync(path.join(dir, 'ok'), 'x', { mode: 0o600 });
      fs.symlinkSync(outside, path.join(dir, 'link'));

      expect(makeTreePrivate(dir)).toBe(4);
      expect([dir, path.join(dir, 'a'), path.join(dir, 'a', 'b')].map(mode)).toEqual([0o700, 0o700, 0o700]);
      expect(mode(path.join(dir, 'a', 'b', 'wal'))).toBe(0o600);
      expect(mode(outside)).toBe(0o644);
      expect(makeTreePrivate(dir)).toBe(0);
      expect(makeTreePrivate(path.join(dir, 'missing'))).toBe(0);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });
});
