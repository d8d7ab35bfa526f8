/**
 * 12345 → "12,345": what `Intl.NumberFormat('en-US')` says of a whole number, without
 * constructing it — its first construction in a page loads ICU's number data: 11–64 ms of
 * the main thread at CPU ×1 and 18–112 ms at ×4 on this project's machine, measured in
 * Chromium (docs/benchmarks.md, issue 28), in the middle of the home page's hydration.
 */
export function englishNumber(value: number): string {
  const digits = String(Math.trunc(Math.abs(value)));
  let grouped = '';
  for (let i = 0; i < digits.length; i += 1) {
    if (i > 0 && (digits.length - i) % 3 === 0) grouped += ',';
    grouped += digits[i];
  }
  return value <= -1 ? `-${grouped}` : grouped;
}
