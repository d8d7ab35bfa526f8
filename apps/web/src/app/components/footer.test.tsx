import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderApp } from '../../test/render';

describe('Footer', () => {
  it('names the product, links the catalogue and, from the config, the school’s contact address', async () => {
    renderApp('/', { preloadedState: { config: { contactEmail: 'school@example.com' } } });
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText(/LearnLingo/)).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: 'Teacher catalogue' })).toHaveAttribute('href', '/teachers');
    expect(within(footer).getByRole('link', { name: 'school@example.com' })).toHaveAttribute('href', 'mailto:school@example.com');
  });

  it('leaves the contact line out while the config has no address', async () => {
    const { store } = renderApp('/');
    expect(store.getState().config.contactEmail).toBeNull();
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Teacher catalogue' })).toBeInTheDocument();
    expect(within(footer).getAllByRole('link')).toHaveLength(1);
  });
});
