import { act, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { EarlyInput } from '@learnlingo/contract/plain';
import { replayEarlyInput } from './early-input';

// A form the server rendered, changed by a person before React hydrated it: React's state
// stays the server's until the change is replayed (issue 28).

function Form({ seen }: { seen: Record<string, unknown> }) {
  const [name, setName] = useState('');
  const [level, setLevel] = useState('A1');
  const [agree, setAgree] = useState(false);
  const [slot, setSlot] = useState('10:00');
  const [panel, setPanel] = useState(0);
  seen.panel = panel;
  seen.name = name;
  seen.level = level;
  seen.agree = agree;
  seen.slot = slot;
  return (
    <form>
      <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      <select aria-label="Level" value={level} onChange={(e) => setLevel(e.target.value)}>
        <option>A1</option>
        <option>B2</option>
      </select>
      <input aria-label="Agree" type="checkbox" checked={agree} onChange={(e) => setAgree(e.target.checked)} />
      {['10:00', '11:00'].map((time) => (
        <input key={time} aria-label={time} type="radio" name="slot" value={time} checked={slot === time} onChange={() => setSlot(time)} />
      ))}
      <button type="button" onClick={() => setPanel((n) => n + 1)}>
        Filters
      </button>
      <a
        href="?page=2"
        onClick={(event) => {
          event.preventDefault();
          setPanel((n) => n + 10);
        }}
      >
        Load more
      </a>
    </form>
  );
}

// hydrateRoot directly (Testing Library renders, it does not hydrate): updates inside act()
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

/** The server's HTML in the document, the person's changes made to it, then React hydrates it. */
async function hydrateAfter(change: (form: HTMLFormElement, early: EarlyInput) => void) {
  const seen: Record<string, unknown> = {};
  container = document.createElement('div');
  container.innerHTML = renderToString(<Form seen={{}} />);
  document.body.append(container);
  const form = container.querySelector('form')!;
  const early: EarlyInput = new Map();
  change(form, early);
  await act(async () => {
    root = hydrateRoot(container!, <Form seen={seen} />);
  });
  return { seen, form, early };
}

const field = (form: HTMLFormElement, label: string) => form.querySelector(`[aria-label="${label}"]`) as HTMLInputElement & HTMLSelectElement;

/** What the browser does when a person types or picks: the control changes, the loader records it. */
function personSets(form: HTMLFormElement, early: EarlyInput, label: string, state: string | boolean) {
  const control = field(form, label);
  if (typeof state === 'boolean') control.checked = state;
  else control.value = state;
  early.set(control, state);
}

describe('replayEarlyInput', () => {
  it('tells React what was typed, picked and ticked before it ran; the screen keeps it', async () => {
    const { seen, form, early } = await hydrateAfter((form, early) => {
      personSets(form, early, 'Name', 'Ola');
      personSets(form, early, 'Level', 'B2');
      personSets(form, early, 'Agree', true);
      personSets(form, early, '11:00', true);
    });
    // hydrated as the browser holds it, but React never heard of it
    expect(seen).toEqual({ name: '', level: 'A1', agree: false, slot: '10:00', panel: 0 });
    act(() => replayEarlyInput(early));
    expect(seen).toEqual({ name: 'Ola', level: 'B2', agree: true, slot: '11:00', panel: 0 });
    expect(field(form, 'Name').value).toBe('Ola');
    expect(field(form, 'Level').value).toBe('B2');
    expect(field(form, 'Agree').checked).toBe(true);
    expect(field(form, '11:00').checked).toBe(true);
    expect(field(form, '10:00').checked).toBe(false);
  });

  it('clicks again, once, the last button only the app answers that was clicked before it ran', async () => {
    const { seen, early } = await hydrateAfter((form, early) => {
      const button = form.querySelector('button')!;
      early.set(button, 'click');
      early.set(document.createElement('button'), 'click'); // one no longer in the page
    });
    act(() => replayEarlyInput(early));
    expect(seen.panel).toBe(1);
  });

  it('clicks again a link the app answers in place whose following the loader held', async () => {
    const { seen, early } = await hydrateAfter((form, early) => {
      early.set(form.querySelector('button')!, 'click');
      early.set(form.querySelector('a')!, 'click'); // the last one clicked
    });
    act(() => replayEarlyInput(early));
    expect(seen.panel).toBe(10);
    expect(window.location.search).toBe('');
  });

  it('leaves a field typed on since the page went live (React heard that) and controls no longer in the page', async () => {
    const { seen, form, early } = await hydrateAfter((form, early) => personSets(form, early, 'Name', 'Ol'));
    const name = field(form, 'Name');
    act(() => {
      const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
      native.set!.call(name, 'Ola');
      name.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(seen.name).toBe('Ola');
    const gone = document.createElement('input');
    early.set(gone, 'x');
    act(() => replayEarlyInput(early));
    expect(seen.name).toBe('Ola');
    expect(name.value).toBe('Ola');
  });
});
