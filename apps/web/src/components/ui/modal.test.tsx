import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, render, screen, fireEvent, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from './modal';

function Harness({ withField = true }: { withField?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="Login" description="Welcome back">
        {withField ? <input aria-label="Email" /> : null}
        <button type="button">Submit</button>
      </Modal>
    </>
  );
}

async function openModal() {
  const user = userEvent.setup();
  render(<Harness />);
  const opener = screen.getByRole('button', { name: 'Open' });
  await user.click(opener);
  return { user, opener, dialog: screen.getByRole('dialog', { name: 'Login' }) };
}

describe('Modal', () => {
  it('is a labelled, described dialog mounted into #modal-root', async () => {
    const { dialog } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('Welcome back');
    expect(document.getElementById('modal-root')).toContainElement(dialog);
    expect(screen.getByRole('heading', { level: 2, name: 'Login' })).toBeInTheDocument();
    expect(screen.getByAltText('icon_close')).toBeInTheDocument();
  });

  it('focuses the first field, locks scrolling, and restores both on close', async () => {
    document.body.style.overflow = 'scroll';
    const { user, opener } = await openModal();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(document.body.style.overflow).toBe('hidden');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body.style.overflow).toBe('scroll');
    expect(opener).toHaveFocus();
  });

  it('closes on Escape', async () => {
    const { user } = await openModal();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on a backdrop click but not on a click inside the panel', async () => {
    const { user, dialog } = await openModal();
    await user.click(dialog);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    // a drag that starts inside the panel and ends on the backdrop does not close it
    const backdrop = screen.getByTestId('modal-backdrop');
    fireEvent.mouseDown(dialog);
    fireEvent.click(backdrop);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(backdrop);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { user } = await openModal();
    const close = screen.getByRole('button', { name: 'Close' });
    const email = screen.getByLabelText('Email');
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(email).toHaveFocus();
    await user.tab();
    expect(submit).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(submit).toHaveFocus();
  });

  it('without a field, focuses the first control other than Close', async () => {
    const user = userEvent.setup();
    render(<Harness withField={false} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveFocus();
  });

  it('focuses the dialog while it has no control yet, then the field that arrives', async () => {
    function Late() {
      const [ready, setReady] = useState(false);
      return (
        <Modal open onClose={() => {}} title="Later">
          {ready ? <input aria-label="Name" /> : <button type="button" data-modal-close="true" onClick={() => setReady(true)}>x</button>}
        </Modal>
      );
    }
    render(<Late />);
    const dialog = screen.getByRole('dialog', { name: 'Later' });
    expect(dialog).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'x' }));
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
  });

  it('leaves focus where the person put it when a message appears as they leave an empty field', async () => {
    function Form() {
      const [touched, setTouched] = useState(false);
      return (
        <Modal open onClose={() => {}} title="Registration">
          <input aria-label="Name" onBlur={() => setTouched(true)} />
          {touched ? <p>Name is required</p> : null}
          <input aria-label="Email" />
        </Modal>
      );
    }
    render(<Form />);
    const name = screen.getByLabelText('Name');
    expect(name).toHaveFocus();
    // A click elsewhere: the field loses focus (to the body) before the next one gains it.
    act(() => name.blur());
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(name).not.toHaveFocus();
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Email'));
    await user.keyboard('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });
});

describe('Modal and the browser history', () => {
  it('Back closes it and stays on the page; closed another way, it leaves no extra history entry', async () => {
    window.history.replaceState(null, '', '/teachers');
    const { user, opener } = await openModal();
    expect(window.history.state).toEqual({ learnlingoModal: true }); // an entry on top, same URL

    window.history.back();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.location.pathname).toBe('/teachers');

    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // the entry it put on top is taken off again: Back from here would leave the page
    await waitFor(() => expect(window.history.state).toBeNull());
    expect(window.location.pathname).toBe('/teachers');
  });

  it('one entry for modals that follow each other (Login → Registration)', async () => {
    function Switching() {
      const [which, setWhich] = useState<'login' | 'register' | null>('login');
      return (
        <>
          <Modal open={which === 'login'} onClose={() => setWhich(null)} title="Login">
            <button type="button" onClick={() => setWhich('register')}>
              Registration
            </button>
          </Modal>
          <Modal open={which === 'register'} onClose={() => setWhich(null)} title="Registration" />
        </>
      );
    }
    window.history.replaceState(null, '', '/');
    render(<Switching />);
    fireEvent.click(screen.getByRole('button', { name: 'Registration' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('dialog', { name: 'Registration' })).toBeInTheDocument();
    window.history.back();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.location.pathname).toBe('/');
  });
});
