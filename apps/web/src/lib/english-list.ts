/**
 * "French", "French and German", "French, German, and Spanish": what `Intl.ListFormat('en')`
 * says, without constructing it — its first construction loads ICU's list data, ~25 ms of
 * the main thread in the middle of a phone's hydration (Lighthouse's trace, CPU ×4: 100 ms).
 */
export function englishList(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}
