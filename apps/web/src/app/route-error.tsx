// Placeholder: replaced by the real error page.
export function RouteError() {
  return <h1>Unexpected Application Error!</h1>;
}
