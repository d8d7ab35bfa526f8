// Placeholder: replaced by the page's real implementation.
export function Component() {
  return <h1>not-found-page</h1>;
}
