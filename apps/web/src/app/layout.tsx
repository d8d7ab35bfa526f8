import { Outlet } from 'react-router';

// Placeholder: replaced by the real layout (header + main).
export function Layout() {
  return (
    <main>
      <Outlet />
    </main>
  );
}
