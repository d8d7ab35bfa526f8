import { format } from 'node:util';
import { afterEach, beforeEach, vi } from 'vitest';

/*
 * A console.error during a test fails it: errors must be handled or asserted, not
 * printed and forgotten.
 */
let errors: string[] = [];

beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(format(...args));
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) {
    const printed = errors.join('\n');
    errors = [];
    throw new Error(`console.error was called during the test:\n${printed}`);
  }
});
