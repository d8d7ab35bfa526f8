import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { APP_LOADER } from './app-loader.js';

/**
 * The loader run in a bare context: a document with the template, the paint entries the page
 * has so far, a PerformanceObserver that reports when told, and timers and frames that run when
 * told. What it records is what the loader asked for.
 */
function loaderIn({ painted }: { painted: boolean }) {
  const appended: unknown[] = [];
  const timers: { run: () => void; delay: number }[] = [];
  const frames: (() => void)[] = [];
  const observers: { report: (names: string[]) => void; options: unknown }[] = [];
  const scripts = { scripts: 'the template content' };
  const entry = { entry: 'the module script' };
  const domReady: (() => void)[] = [];
  const fcp = () => (painted ? [{ name: 'first-contentful-paint' }] : []);
  class FakeObserver {
    static supportedEntryTypes = ['paint'];
    constructor(private readonly callback: (list: unknown, observer: unknown) => void) {}
    observe(options: unknown) {
      const report = (names: string[]) =>
        this.callback({ getEntriesByName: (name: string) => names.filter((n) => n === name).map((n) => ({ name: n })) }, this);
      observers.push({ report, options });
    }
    disconnect() {}
  }
  const document = {
    hidden: false,
    getElementById: (id: string) => (id === 'app-scripts' ? { content: scripts } : null),
    readyState: 'loading',
    // the template's content imported: its modulepreloads, and the entry's script that the loader takes out
    importNode: (node: unknown) => {
      const fragment = {
        imported: node,
        scripts: [entry],
        querySelectorAll: (selector: string) => (selector === 'script' ? [...fragment.scripts] : []),
        removeChild: (child: unknown) => fragment.scripts.splice(fragment.scripts.indexOf(child as typeof entry), 1),
      };
      return fragment;
    },
    // (a fragment as it is appended: what it holds then)
    head: { appendChild: (node: { imported?: unknown; scripts?: unknown[] }) => appended.push('imported' in node ? { imported: node.imported, scripts: [...(node.scripts ?? [])] } : node) },
    addEventListener: (type: string, listener: (event: unknown) => void) =>
      type === 'DOMContentLoaded' ? domReady.push(listener as () => void) : (listeners[type] = listener),
  };
  const listeners: Record<string, (event: unknown) => void> = {};
  const followed: string[] = [];
  const bubbling: Record<string, (event: unknown) => void> = {};
  const window: Record<string, unknown> = {
    document,
    addEventListener: (type: string, listener: (event: unknown) => void) => (bubbling[type] = listener),
    location: { assign: (href: string) => followed.push(href) },
    PerformanceObserver: FakeObserver,
    performance: { getEntriesByName: (name: string) => (name === 'first-contentful-paint' ? fcp() : []) },
    setTimeout: (run: () => void, delay: number) => timers.push({ run, delay }),
    requestAnimationFrame: (run: () => void) => frames.push(run),
  };
  vm.runInNewContext(APP_LOADER, { ...window, window });
  /** Runs the timers of `delay` ms that are due. */
  const runTimers = (delay: number) => {
    for (const timer of timers.filter((t) => t.delay === delay)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.run();
    }
  };
  /** The parser reaches the end of the document. */
  const parsed = () => {
    document.readyState = 'interactive';
    for (const run of domReady.splice(0)) run();
  };
  return { appended, timers, frames, observers, runTimers, listeners, bubbling, followed, window, parsed, document };
}

describe('the app loader (decisions 092, 133, 135)', () => {
  const preloads = { imported: { scripts: 'the template content' }, scripts: [] };
  const entry = { entry: 'the module script' };

  it("asks for the app's modules with the page, before any paint: the template's modulepreloads, without the entry", () => {
    const loader = loaderIn({ painted: false });
    expect(loader.appended).toEqual([preloads]);
  });

  it('adds the entry in the next task when the page painted before the loader ran; it runs once the document is parsed', () => {
    const loader = loaderIn({ painted: true });
    // nothing waits for the observer: it is not even asked
    expect(loader.observers).toHaveLength(0);
    expect(loader.appended).toEqual([preloads]);
    loader.runTimers(0);
    expect(loader.appended).toEqual([preloads]);
    loader.parsed();
    expect(loader.appended).toEqual([preloads, entry]);
    // the 2 s fallback finds the app started: once only
    loader.runTimers(2000);
    expect(loader.appended).toEqual([preloads, entry]);
  });

  it('adds the entry at once when the document was parsed before the first paint came', () => {
    const loader = loaderIn({ painted: false });
    loader.document.readyState = 'complete';
    loader.runTimers(2000);
    expect(loader.appended).toEqual([preloads, entry]);
  });

  it('waits for the first paint when the loader runs before it', () => {
    const loader = loaderIn({ painted: false });
    loader.parsed();
    expect(loader.observers).toHaveLength(1);
    expect(loader.observers[0]!.options).toEqual({ type: 'paint', buffered: true });
    expect(loader.timers.filter((t) => t.delay === 0)).toHaveLength(0);
    // the first paint (not the first contentful one) does not start it
    loader.observers[0]!.report(['first-paint']);
    loader.runTimers(0);
    expect(loader.appended).toEqual([preloads]);
    loader.observers[0]!.report(['first-contentful-paint']);
    loader.runTimers(0);
    expect(loader.appended).toEqual([preloads, entry]);
  });

  it('starts the app after 2 s when no paint is reported', () => {
    const loader = loaderIn({ painted: false });
    loader.parsed();
    loader.runTimers(2000);
    expect(loader.appended).toEqual([preloads, entry]);
  });
});

describe('a click on a link the app answers in place, before it runs (issue 28)', () => {
  const link: Record<string, unknown> = {
    tagName: 'A',
    href: '/teachers?cursor=abc',
    closest: (selector: string) => (selector.includes('a[data-in-place]') ? link : null),
    contains: (node: unknown) => node === link,
  };
  const click = (init: Record<string, unknown> = {}) => {
    const event = { target: link, button: 0, defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true), ...init };
    return event;
  };

  it('is held for the app, which clicks it again once it runs; the browser does not follow it', () => {
    const loader = loaderIn({ painted: true });
    const event = click();
    loader.listeners.click!(event);
    expect(event.defaultPrevented).toBe(true);
    expect([...(loader.window.__earlyInput as Map<unknown, unknown>)]).toEqual([[link, 'click']]);
    // the app runs and takes what was recorded (apps/web/src/lib/head.ts): the fallback stands down
    loader.window.__earlyInput = undefined;
    loader.runTimers(6000);
    expect(loader.followed).toEqual([]);
  });

  it('is followed after 6 s when the app has not come (its scripts failed)', () => {
    const loader = loaderIn({ painted: true });
    loader.listeners.click!(click());
    loader.runTimers(6000);
    expect(loader.followed).toEqual(['/teachers?cursor=abc']);
  });

  it('is forgotten when React hydrates the link within that click and answers it: neither replayed nor followed', () => {
    const loader = loaderIn({ painted: true });
    const event = click();
    loader.listeners.click!(event);
    expect((loader.window.__earlyInput as Map<unknown, unknown>).has(link)).toBe(true);
    // React's root listener hydrates the link (its key on the element) and runs its handler;
    // the click bubbles on to the window
    link.__reactFiber$x1 = {};
    try {
      loader.bubbling.click!(event);
    } finally {
      delete link.__reactFiber$x1;
    }
    expect((loader.window.__earlyInput as Map<unknown, unknown>).size).toBe(0);
    loader.runTimers(6000);
    expect(loader.followed).toEqual([]);
  });

  it('stays held when the click bubbles on an element React does not hold yet (no app yet)', () => {
    const loader = loaderIn({ painted: true });
    const event = click();
    loader.listeners.click!(event);
    loader.bubbling.click!(event);
    expect([...(loader.window.__earlyInput as Map<unknown, unknown>)]).toEqual([[link, 'click']]);
  });

  it('keeps the browser\'s meaning for a click with a modifier or another button, and leaves one React holds to React', () => {
    const loader = loaderIn({ painted: true });
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      const event = click(init);
      loader.listeners.click!(event);
      expect(event.defaultPrevented).toBe(false);
    }
    const hydrated: Record<string, unknown> = { ...link, __reactFiber$x1: {} };
    hydrated.closest = () => hydrated;
    const event = click({ target: hydrated });
    loader.listeners.click!(event);
    expect(event.defaultPrevented).toBe(false);
    expect((loader.window.__earlyInput as Map<unknown, unknown>).size).toBe(0);
    loader.runTimers(6000);
    expect(loader.followed).toEqual([]);
  });
});
