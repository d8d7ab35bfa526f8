// Placeholder: replaced by the page's real implementation.
export function Component() {
  return <h1>teachers-page</h1>;
}
